import {
  type CallEvent,
  connect,
  type ElicitationUI,
  type ParleyClient,
  ParleyError,
  scripted,
} from '@parley/client';
import { terminalUI } from '@parley/client/terminal';
import { readAnswersFile } from './answers-file.js';
import type { CliIO } from './command.js';
import type { ConnectionSettings } from './connection-options.js';
import { handshakeEraHint, needsHandshakeEra } from './era-hint.js';
import { EXIT, exitCodeForError, UsageError } from './exit-codes.js';
import { noTerminalUI } from './no-terminal-ui.js';
import { say as sayOn } from './print.js';
import { RefusalWatch } from './refusal-watch.js';
import { rootsFor, withRoots } from './roots.js';
import { type BrowserSignIn, browserSignIn } from './sign-in/browser-sign-in.js';
import { serviceSignIn } from './sign-in/service-sign-in.js';
import { describeEvent } from './verbose.js';
import { CLI_CLIENT_INFO } from './version.js';

/** What a command gets to work with once connected. */
export interface Session {
  readonly client: ParleyClient;
  /** Aborted by Ctrl-C while no question is on screen. */
  readonly signal: AbortSignal;
  /** Whether the latest call ended right after the person declined or cancelled. */
  readonly endedOnRefusal: () => boolean;
}

const SERVER_LOG_LINES = 20;

/**
 * Connects to the target with the host the situation calls for (the terminal, an answers file, or
 * none without a terminal; or the command's own `host`), runs the command, and turns every failure
 * into a message and an exit code.
 */
export async function withSession(
  target: string,
  settings: ConnectionSettings,
  io: CliIO,
  action: (session: Session) => Promise<number>,
  host?: () => Promise<ElicitationUI>,
): Promise<number> {
  const say = (line: string) => sayOn(io.stderr, line);
  let ui: ElicitationUI;
  try {
    ui = withRoots(await (host ?? (() => chooseUI(settings, io)))(), rootsFor(settings.roots, process.cwd()));
  } catch (error) {
    say(`parley: ${(error as Error).message}`);
    return EXIT.usage;
  }
  const serverLog: string[] = [];
  const watch = new RefusalWatch();
  const onEvent = (event: CallEvent) => {
    watch.onEvent(event);
    if (settings.verbose) say(describeEvent(event));
  };
  const onServerLine = (line: string) => {
    if (settings.verbose) say(`[server] ${line}`);
    serverLog.push(line);
    if (serverLog.length > SERVER_LOG_LINES) serverLog.shift();
  };
  // An HTTP server may ask to sign in (OAuth 2.1): the person does, in the browser, or the
  // service whose credentials were given does, with no browser.
  const http = /^https?:\/\//i.test(target);
  let signIn: BrowserSignIn | undefined;
  try {
    if (settings.service !== undefined && !http)
      throw new UsageError(
        '--client-id, --client-key and --workload-token sign in to an HTTP server (a URL)',
      );
    signIn = !http
      ? undefined
      : settings.service !== undefined
        ? await serviceSignIn(settings.service, io.env, say)
        : browserSignIn({ env: io.env, open: settings.openBrowser, say });
  } catch (error) {
    say(`parley: ${(error as Error).message}`);
    return EXIT.usage;
  }
  let client: ParleyClient;
  try {
    client = await connect(target, {
      ...(signIn !== undefined && { fetch: signIn.session.fetch }),
      ui,
      clientInfo: { ...CLI_CLIENT_INFO },
      era: settings.era,
      onEvent,
      stderr: onServerLine,
      env: processEnv(io.env),
      ...(settings.headers !== undefined && { headers: settings.headers }),
      ...(settings.requestTimeoutMs !== undefined && { requestTimeoutMs: settings.requestTimeoutMs }),
      ...(settings.maxRounds !== undefined && { maxRounds: settings.maxRounds }),
    });
  } catch (error) {
    await signIn?.close();
    say(`parley: ${(error as Error).message}`);
    if (!settings.verbose && serverLog.length > 0)
      say(['The server wrote:', ...serverLog.map((line) => `  ${line}`)].join('\n'));
    return error instanceof ParleyError && error.kind !== 'connection'
      ? exitCodeForError(error, false)
      : EXIT.failure;
  }
  if (client.eraNotice !== undefined) say(`parley: ${client.eraNotice}`);
  if (settings.verbose) {
    say(
      `parley: connected to ${client.server.name} ${client.server.version} (${client.era}, ${client.protocolVersion})`,
    );
  }
  const interrupt = new AbortController();
  const onSigint = () => interrupt.abort(new ParleyError('cancelled', 'Stopped with Ctrl-C'));
  process.once('SIGINT', onSigint);
  try {
    return await action({ client, signal: interrupt.signal, endedOnRefusal: () => watch.endedOnRefusal });
  } catch (error) {
    say(`parley: ${(error as Error).message}`);
    if (
      error instanceof ParleyError &&
      error.kind === 'server' &&
      needsHandshakeEra(client, true, error.message)
    )
      io.stderr.write(handshakeEraHint(client.server.name));
    return error instanceof UsageError ? EXIT.usage : exitCodeForError(error, watch.endedOnRefusal);
  } finally {
    process.off('SIGINT', onSigint);
    await client.close().catch(() => {});
    await signIn?.close();
  }
}

async function chooseUI(settings: ConnectionSettings, io: CliIO): Promise<ElicitationUI> {
  if (settings.answersFile !== undefined) return scripted(await readAnswersFile(settings.answersFile));
  if (io.stdin.isTTY === true && io.stderr.isTTY === true)
    return terminalUI({ input: io.stdin, output: io.stderr });
  return noTerminalUI();
}

/** A spawned server inherits the whole environment, as it would from a shell. */
function processEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}
