import type { Client } from '@modelcontextprotocol/client';
import { connectSdk } from '@parley/client/raw';
import { TOOL } from '../survey.js';
import { type RunningHttp, serveOnLoopback } from './loopback.js';
import { answerSideChannel, countRunningWith } from './side-channel.js';

/** Sessions opened at once while holding. */
const WIDTH = 16;

export interface ClientFloorOptions {
  /** The survey server the sessions are opened with. */
  readonly upstreamUrl: string;
  /**
   * Answer the SDK client's standalone GET stream with 405 here, so no session holds one (the SDK
   * opens one after `initialize` unless the server refuses it).
   */
  readonly noGetStream?: boolean;
}

/**
 * The floor under a call the gateway parks (h): the official SDK client alone, connected as the
 * gateway connects its 2025 sessions (`connectSdk` of `@parley/client/raw`, era `handshake`, one
 * call per session), in a process of its own so its heap can be read. `GET /hold?count=N&calls=1`
 * opens N sessions, each with one survey call whose question it never answers (`calls=0`: idle
 * sessions), and answers once every session is open and every question has arrived. The questions
 * arrived count as its running handlers.
 */
export async function listenClientFloor(options: ClientFloorOptions): Promise<RunningHttp> {
  const sessions: Client[] = [];
  let asked = 0;
  countRunningWith(() => asked);
  const fetch: typeof globalThis.fetch | undefined = options.noGetStream
    ? (input, init) =>
        init?.method === 'GET'
          ? Promise.resolve(new Response(null, { status: 405 }))
          : globalThis.fetch(input, init)
    : undefined;
  const open = async (call: boolean) => {
    let arrived: () => void = () => {};
    const question = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const connection = await connectSdk(options.upstreamUrl, {
      era: 'handshake',
      capabilities: { elicitation: { form: {} } },
      clientInfo: { name: 'parley-bench-client-floor', version: '0.1.0' },
      ...(fetch && { fetch }),
      prepare: (sdk) => {
        sdk.fallbackRequestHandler = () => {
          asked++;
          arrived();
          return new Promise<never>(() => {});
        };
      },
    });
    sessions.push(connection.sdk);
    if (!call) return;
    connection.sdk
      .request({ method: 'tools/call', params: { name: TOOL, arguments: { questions: 1 } } } as never, {
        timeout: 3_600_000,
      })
      .catch(() => {});
    await question;
  };
  const hold = async (count: number, calls: boolean) => {
    let next = 0;
    const worker = async () => {
      while (next < count) {
        next++;
        await open(calls);
      }
    };
    await Promise.all(Array.from({ length: Math.min(WIDTH, count) }, worker));
  };
  return serveOnLoopback(
    (req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== '/hold') {
        if (!answerSideChannel(req, res)) res.writeHead(404).end();
        return;
      }
      const count = Number(url.searchParams.get('count'));
      if (!Number.isInteger(count) || count < 1) {
        res.writeHead(400).end('count must be a whole number ≥ 1');
        return;
      }
      hold(count, url.searchParams.get('calls') === '1').then(
        () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'),
        (error: Error) => res.writeHead(500).end(error.message),
      );
    },
    async () => {
      await Promise.all(sessions.map((sdk) => sdk.close().catch(() => {})));
    },
  );
}
