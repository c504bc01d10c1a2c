/**
 * The Parley gateway in front of the conformance server, for the suite to run through it: starts
 * `server.js` as a process of its own, then the gateway with that one upstream, and prints the
 * gateway's URL on its first line.
 *
 *   node conformance/dist/gateway.js [port] [upstream era: auto | 2026-07-28 | 2025-11-25]
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createGateway } from '@parley/gateway';

const [port = '0', era = 'auto'] = process.argv.slice(2);
const upstream = spawn(process.execPath, [fileURLToPath(new URL('./server.js', import.meta.url)), '0'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const url = await new Promise<string>((resolve, reject) => {
  let seen = '';
  upstream.stdout.on('data', (chunk: Buffer) => {
    seen += chunk.toString();
    if (seen.includes('\n')) resolve(seen.split('\n')[0]!.trim());
  });
  upstream.once('exit', (code) => reject(new Error(`the conformance server exited with ${code}`)));
});
const gateway = createGateway({ upstreams: { conformance: { url, era } } });
const listening = await gateway.listen({ port: Number(port) });
process.stdout.write(`${listening.url}\n`);
const stop = () => {
  upstream.kill('SIGTERM');
  void gateway
    .close()
    .then(() => listening.close())
    .then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
