import { safeLogText } from '@parley/server';
import type { Command } from '../command.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { say, writeText } from '../print.js';
import { readPort, stopRequested } from './serving.js';

/** The gateway is loaded only when `parley gateway` runs, and its Redis parts only for a fleet. */
const loadGateway = () => import('@parley/gateway');
const loadFleet = () => import('@parley/gateway/redis');

const FLAGS = {
  config: { type: 'string', short: 'c' },
  port: { type: 'string' },
  host: { type: 'string' },
  'allowed-host': { type: 'string', multiple: true },
  stdio: { type: 'boolean' },
  audit: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const gatewayCommand: Command = {
  name: 'gateway',
  summary: 'serve any MCP servers to any host, both eras, every question reaching its person',
  usage: `Usage: parley gateway --config gateway.json [options]

Serves one MCP endpoint, for hosts of both protocol eras, in front of the upstream
servers the configuration names (any MCP server, either era, over HTTP or stdio).
Tools, prompts, resources and their questions pass through; a question a host cannot
show is asked on the gateway's own page. Prints "Gateway: <url>" once it listens.

gateway.json:
  { "upstreams": {
      "returns": { "url": "http://127.0.0.1:3000/mcp", "headers": { "authorization": "Bearer \${TOKEN}" } },
      "files": { "command": "python", "args": ["server.py"], "era": "2025-11-25" } } }
  "\${NAME}" in a value is read from the environment.
  One replica of a fleet (behind a balancer, no affinity; needs ioredis) adds
  "fleet": { "redis": "\${REDIS_URL}", "replica": "gw1", "stateKeys": "\${PARLEY_STATE_KEYS}" }

Options:
  -c, --config <file>     the configuration (required)
  --port <n>              the port to listen on (default: any free port)
  --host <address>        the address to listen on (default 127.0.0.1)
  --allowed-host <name>   a hostname hosts reach the gateway by (needed with a --host
                          beyond this computer; repeat for several)
  --stdio                 serve one host over stdio instead (a host that spawns it)
  --audit                 print one JSON line on stderr for each question that crosses
                          (never its answers)
  -h, --help              show this help`,
  async run(args, io) {
    const { values, help } = parseCommandArgs('gateway', args, FLAGS, []);
    if (help) {
      writeText(io.stdout, this.usage);
      return EXIT.ok;
    }
    if (values.config === undefined)
      throw new UsageError('parley gateway needs --config <file>; see parley help gateway');
    const port = readPort(values.port);
    const { createGateway, loadGatewayConfig, GatewayConfigError } = await loadGateway();
    let config: Awaited<ReturnType<typeof loadGatewayConfig>>;
    try {
      config = await loadGatewayConfig(values.config, io.env);
    } catch (error) {
      if (error instanceof GatewayConfigError) throw new UsageError(error.message);
      throw error;
    }
    const stopped = stopRequested();
    // Warnings, errors and each upstream's changes of state on stderr, made inert.
    const log = (level: 'info' | 'warn' | 'error', message: string) => {
      if (level === 'info' && message.startsWith('audit ') && !values.audit) return;
      say(io.stderr, `${level === 'info' ? '' : `${level}: `}${safeLogText(message)}`);
    };
    let fleet: Awaited<ReturnType<Awaited<ReturnType<typeof loadFleet>>['openGatewayFleet']>> | undefined;
    let gateway: ReturnType<typeof createGateway>;
    try {
      if (config.fleet !== undefined) {
        fleet = await (await loadFleet()).openGatewayFleet(config.fleet, { log });
        say(io.stderr, `Fleet: replica ${config.fleet.replica}, Redis shared`);
      }
      gateway = createGateway(config, { log, ...fleet?.options });
      await gateway.start();
    } catch (error) {
      await fleet?.close();
      if (error instanceof GatewayConfigError) throw new UsageError(error.message);
      throw error;
    }
    for (const upstream of gateway.status().upstreams)
      say(
        io.stderr,
        upstream.state === 'ready'
          ? `${upstream.name}: ${upstream.protocolVersion}, ${upstream.tools} tools, ${upstream.prompts} prompts, ${upstream.resources + upstream.templates} resources`
          : `${upstream.name}: not reachable yet (${upstream.lastError ?? upstream.state}); retrying`,
      );
    if (values.stdio) {
      await gateway.stdio();
      await stopped;
      await gateway.close();
      await fleet?.close();
      return EXIT.ok;
    }
    const listening = await gateway
      .listen({
        port,
        ...(values.host !== undefined && { host: values.host }),
        ...(values['allowed-host'] !== undefined && { allowedHosts: values['allowed-host'] }),
      })
      .catch((error: unknown) => {
        throw error instanceof TypeError ? new UsageError(error.message) : error;
      });
    writeText(io.stdout, `Gateway: ${listening.url}`);
    await stopped;
    await listening.close({ drainMs: 2_000 });
    await gateway.close();
    await fleet?.close();
    return EXIT.ok;
  },
};
