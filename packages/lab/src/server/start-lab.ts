import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PreRegisteredClient } from '@parley/client/oauth';
import { type HttpServerLimits, httpServerOptions, SERVER_HTTP_LIMITS } from '@parley/core/node';
import type { EraChoice } from '../protocol.js';
import { EventStream } from './event-stream.js';
import { createLabHandler, SIGN_IN_CALLBACK } from './lab-handler.js';
import { LabState } from './lab-state.js';
import { defaultPageDir, loadPageFiles } from './page-files.js';
import { QuestionBroker } from './question-broker.js';
import { allowedHosts } from './request-guard.js';
import { ServerSessions } from './server-sessions.js';
import { SignIns } from './sign-ins.js';
import { createToken } from './token.js';

/** Where the lab listens, which servers it connects at once, and whether it opens a browser. */
export interface LabOptions {
  /** The port to listen on; default 0 (any free port). */
  port?: number;
  /** A loopback address or name: `127.0.0.1` (default), `::1` or `localhost`. */
  host?: string;
  /**
   * MCP servers to connect at once: command lines (stdio) or http(s) URLs, or `{ target, headers }`
   * for an HTTP server that wants headers on every request (an `Authorization` token, say: it is
   * never shown on the page).
   */
  targets?: readonly (string | LabTarget)[];
  /** The era for `targets`: `auto` (default), `modern` or `handshake`. */
  era?: EraChoice;
  /** Open the lab in the system browser. Default false. */
  open?: boolean;
  /** Where the bundled page is; default the package's `dist/page`. */
  pageDir?: string;
  /**
   * Clients the lab is registered as at authorization servers beforehand, by issuer identifier
   * (e.g. `{ 'http://127.0.0.1:4101': { clientId: 'parley-lab-demo' } }`): the lab signs in as
   * them instead of registering itself, so the sign-in page knows who it is. Default: none.
   */
  oauthClients?: Readonly<Record<string, PreRegisteredClient>>;
  /**
   * How long a server may take to answer one request (connecting included), not counting the time
   * a person takes to sign in or to answer. Default 60000.
   */
  requestTimeoutMs?: number;
}

/** A server to connect at start, with the HTTP headers it needs. */
export interface LabTarget {
  readonly target: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A running lab. */
export interface RunningLab {
  /** The lab's address, with its access token: give it only to the person using this computer. */
  readonly url: string;
  /** Disconnects every server, answers open questions `cancel` and stops listening. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
/** One person's browser needs a handful of connections; the event stream holds one open. */
const LAB_HTTP_LIMITS: HttpServerLimits = { ...SERVER_HTTP_LIMITS, maxConnections: 64 };

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Starts the lab: a page on this computer only (loopback, a random token in its URL, Host and
 * Origin checked, a strict Content-Security-Policy) where a person connects to MCP servers, calls
 * their tools, prompts and resources, and answers their questions.
 *
 * @example
 * import { startLab } from '@parley/lab';
 *
 * const lab = await startLab({ targets: ['node dist/server.js'], open: true });
 * console.log(`Lab: ${lab.url}`);
 * // later: await lab.close();
 */
export async function startLab(options: LabOptions = {}): Promise<RunningLab> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.has(host)) {
    throw new TypeError(
      `The lab serves only this computer; "${host}" is not a loopback address. Use 127.0.0.1, ::1 or localhost.`,
    );
  }
  const files = loadPageFiles(options.pageDir ?? defaultPageDir());
  const token = createToken();
  const state = new LabState();
  const stream = new EventStream();
  const broker = new QuestionBroker(state);
  const signIns = new SignIns(state);
  let origin = '';
  const sessions = new ServerSessions(
    state,
    broker,
    signIns,
    () => `${origin}${SIGN_IN_CALLBACK}`,
    options.oauthClients,
    options.requestTimeoutMs,
  );
  state.subscribe((event) => stream.send(event));
  // A sign-in's 10 minutes start once a person can see its link.
  stream.onOpen(() => signIns.pageOpened());

  let hosts: string[] = [];
  const server = createServer(
    httpServerOptions(LAB_HTTP_LIMITS),
    createLabHandler({
      token,
      hosts: () => hosts,
      files,
      state,
      stream,
      actions: {
        addServer: (body) => sessions.add(body),
        closeServer: (id) => sessions.close(id),
        retryServer: (id) => sessions.retry(id),
        startCall: (body) => sessions.startCall(body),
        cancelCall: (id) => sessions.cancel(id),
        answer: (id, body) => broker.answer(id, body),
        completeSignIn: (callback) => signIns.complete(callback),
      },
    }),
  );
  server.maxConnections = LAB_HTTP_LIMITS.maxConnections;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(
              `Port ${options.port} is in use on ${host}; choose another port, or 0 for any free one.`,
            )
          : error,
      ),
    );
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  hosts = allowedHosts(port);
  origin = `http://${urlHost(host)}:${port}`;
  const url = `${origin}/?token=${token}`;

  for (const entry of options.targets ?? []) {
    const { target, headers } = typeof entry === 'string' ? { target: entry, headers: undefined } : entry;
    sessions.add({ target, era: options.era ?? 'auto' }, headers);
  }
  if (options.open) {
    const { default: open } = await import('open');
    await open(url).catch(() => undefined);
  }

  let closing: Promise<void> | undefined;
  return {
    url,
    close() {
      closing ??= (async () => {
        broker.cancelAll();
        signIns.cancel();
        await sessions.closeAll();
        stream.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })();
      return closing;
    },
  };
}
