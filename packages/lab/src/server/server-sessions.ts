import { type AskContext, type Call, connect, type ParleyClient } from '@parley/client';
import { memoryStore, type OAuthStore, oauthSession, type PreRegisteredClient } from '@parley/client/oauth';
import type { AddServerBody, CallKind, EraChoice, Listed, StartCallBody } from '../protocol.js';
import type { LabState } from './lab-state.js';
import { pageUI } from './page-ui.js';
import type { QuestionBroker } from './question-broker.js';
import { readAddServer, readStartCall } from './request-bodies.js';
import type { Refusal } from './request-guard.js';
import { signInFirst } from './sign-in-first.js';
import type { SignIns } from './sign-ins.js';
import { timelineEntry } from './timeline-entry.js';

/** How the lab names itself to servers. */
export const LAB_CLIENT_INFO = { name: 'parley-lab', version: '0.1.0' };

/** Lines of a stdio server's stderr kept to explain a failed connection. */
const STDERR_LINES = 20;

interface Session {
  readonly id: string;
  client?: ParleyClient;
  closed: boolean;
  /** What the server was added with, to connect it again (Retry). */
  readonly added: AddServerBody;
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** Lab call ids by the client's id for the call (`Call.id`, which questions carry as `callId`). */
  readonly callIds: Map<number, string>;
  /** Running lab calls: what they call and how to stop them. */
  readonly running: Map<string, { kind: CallKind; name: string; stop: AbortController }>;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The person did not finish signing in (they closed the window, it timed out, it was refused). */
class SignInUnfinished extends Error {
  constructor(target: string, cause: unknown) {
    const origin = URL.canParse(target) ? new URL(target).origin : target;
    super(
      `Signing in to ${origin} did not finish: ${messageOf(cause)}. The server itself answered; press Retry to sign in again.`,
      { cause },
    );
    this.name = 'SignInUnfinished';
  }
}

/** The MCP servers the lab is connected to, and the calls it runs on them. */
export class ServerSessions {
  readonly #state: LabState;
  readonly #broker: QuestionBroker;
  readonly #sessions = new Map<string, Session>();
  readonly #signIns: SignIns | undefined;
  readonly #redirectUri: () => string;
  /** Clients the lab was registered as beforehand, by authorization server (issuer). */
  readonly #clients: Readonly<Record<string, PreRegisteredClient>> | undefined;
  /** How long a server may take to answer one request; the client's default when unset. */
  readonly #requestTimeoutMs: number | undefined;
  /** Sign-ins to protected servers, for as long as the lab runs. */
  readonly #oauthStore: OAuthStore = memoryStore();
  #nextServer = 1;
  #nextCall = 1;

  /**
   * With `signIns`, HTTP servers that ask for OAuth sign-in get it: the page shows the
   * authorization address and the browser comes back to `redirectUri()` (the lab's own callback).
   */
  constructor(
    state: LabState,
    broker: QuestionBroker,
    signIns?: SignIns,
    redirectUri?: () => string,
    clients?: Readonly<Record<string, PreRegisteredClient>>,
    requestTimeoutMs?: number,
  ) {
    this.#state = state;
    this.#broker = broker;
    this.#signIns = signIns;
    this.#redirectUri = redirectUri ?? (() => 'http://127.0.0.1/oauth/callback');
    this.#clients = clients;
    this.#requestTimeoutMs = requestTimeoutMs;
  }

  /**
   * Starts connecting to a command line or URL; the page sees the server as `connecting`, then
   * `ready` or `failed`. `headers` (HTTP targets started from code, e.g. an `Authorization` token)
   * are sent with every request and never shown on the page.
   */
  add(body: unknown, headers?: Readonly<Record<string, string>>): { id: string } | Refusal {
    const read = readAddServer(body);
    if (typeof read === 'string') return { status: 400, message: read };
    const id = `s${this.#nextServer++}`;
    const session: Session = {
      id,
      closed: false,
      added: read,
      headers,
      callIds: new Map(),
      running: new Map(),
    };
    this.#sessions.set(id, session);
    const roots = read.roots ?? [];
    this.#state.putServer({
      id,
      target: read.target,
      eraChoice: read.era ?? 'auto',
      ...(roots.length > 0 && { roots }),
      status: 'connecting',
    });
    this.#connect(session);
    return { id };
  }

  /** Connects a server whose connection failed again, as it was added (the Retry button). */
  retry(id: string): Refusal | undefined {
    const failed = this.#sessions.get(id);
    if (!failed) return { status: 404, message: `There is no server ${id}; it may be closed already.` };
    const shown = this.#state.server(id);
    if (failed.client !== undefined || shown?.status !== 'failed')
      return { status: 409, message: `Server ${id} is not a failed connection; there is nothing to retry.` };
    const session: Session = { ...failed, callIds: new Map(), running: new Map() };
    this.#sessions.set(id, session);
    const { error: _failure, ...rest } = shown;
    this.#state.putServer({ ...rest, status: 'connecting' });
    this.#connect(session);
    return undefined;
  }

  /**
   * Connects the session's server; the page sees `ready` or `failed`. An HTTP server that asks for
   * a sign-in gets it first, with no clock running (see `signInFirst`).
   */
  #connect(session: Session): void {
    const { id, added: read, headers } = session;
    const era: EraChoice = read.era ?? 'auto';
    const roots = read.roots ?? [];
    const stderr: string[] = [];
    const signIns = this.#signIns;
    // Headers given from code (an Authorization token) stand in for signing in.
    const oauth =
      signIns !== undefined && headers === undefined && /^https?:\/\//i.test(read.target)
        ? oauthSession({
            clientName: 'Parley lab',
            applicationType: 'native',
            store: this.#oauthStore,
            redirectUri: this.#redirectUri,
            authorize: (url) => signIns.wait(id, url),
            ...(this.#clients && { clients: this.#clients }),
          })
        : undefined;
    const signedIn = oauth
      ? signInFirst(read.target, oauth).catch((error: unknown) => {
          throw new SignInUnfinished(read.target, error);
        })
      : Promise.resolve();
    signedIn
      .then(() =>
        connect(read.target, {
          ...(oauth !== undefined && { fetch: oauth.fetch }),
          ui: pageUI(this.#broker, id, (context) => this.#callOf(session, context), roots),
          clientInfo: LAB_CLIENT_INFO,
          era,
          ...(this.#requestTimeoutMs !== undefined && { requestTimeoutMs: this.#requestTimeoutMs }),
          ...(headers && { headers: { ...headers } }),
          stderr: (line) => {
            stderr.push(line);
            if (stderr.length > STDERR_LINES) stderr.shift();
          },
        }),
      )
      .then(async (client) => {
        session.client = client;
        if (session.closed) return void client.close();
        // The client answers [] for what the server does not offer; any other failure fails the connection.
        const [tools, prompts, resources, resourceTemplates] = await Promise.all([
          client.listTools(),
          client.listPrompts(),
          client.listResources(),
          client.listResourceTemplates(),
        ]);
        this.#state.updateServer(id, {
          status: 'ready',
          info: client.server,
          era: client.era,
          protocolVersion: client.protocolVersion,
          tools: tools as unknown as Listed[],
          prompts: prompts as unknown as Listed[],
          resources: resources as unknown as Listed[],
          resourceTemplates: resourceTemplates as unknown as Listed[],
        });
      })
      .catch((error: unknown) => {
        const client = session.client;
        session.client = undefined;
        void client?.close().catch(() => undefined);
        if (session.closed) return;
        const tail = stderr.length > 0 ? `\n${stderr.join('\n')}` : '';
        this.#state.updateServer(id, { status: 'failed', error: `${messageOf(error)}${tail}` });
      });
  }

  /** Disconnects a server: its running calls stop and it leaves the page. */
  close(id: string): Refusal | undefined {
    const session = this.#sessions.get(id);
    if (!session) return { status: 404, message: `There is no server ${id}; it may be closed already.` };
    this.#closeSession(session);
    this.#state.removeServer(id);
    return undefined;
  }

  /** Starts a tool call, prompt get or resource read; its result arrives on the page when it ends. */
  startCall(body: unknown): { id: string } | Refusal {
    const read = readStartCall(body);
    if (typeof read === 'string') return { status: 400, message: read };
    const session = this.#sessions.get(read.serverId);
    const client = session?.client;
    if (!session || !client || session.closed) {
      return { status: 409, message: `Server ${read.serverId} is not connected; connect it first.` };
    }
    const id = `c${this.#nextCall++}`;
    const stop = new AbortController();
    session.running.set(id, { kind: read.kind, name: read.name, stop });
    const startedAt = Date.now();
    this.#state.putCall({
      id,
      serverId: session.id,
      kind: read.kind,
      name: read.name,
      ...(read.kind !== 'resource' && { arguments: read.arguments ?? {} }),
      status: 'running',
      startedAt,
      timeline: [],
    });
    const call = start(client, read, stop.signal);
    session.callIds.set(call.id, id);
    call.onEvent((event) => this.#state.addTimeline(id, timelineEntry(event)));
    call
      .then((result) => this.#state.updateCall(id, { status: 'done', result, ms: Date.now() - startedAt }))
      .catch((error: unknown) =>
        this.#state.updateCall(id, { status: 'failed', error: messageOf(error), ms: Date.now() - startedAt }),
      )
      .finally(() => {
        session.running.delete(id);
        session.callIds.delete(call.id);
      });
    return { id };
  }

  /** Stops a running call. */
  cancel(callId: string): Refusal | undefined {
    for (const session of this.#sessions.values()) {
      const call = session.running.get(callId);
      if (call) {
        call.stop.abort(new Error('The person cancelled the call in the lab.'));
        return undefined;
      }
    }
    return { status: 404, message: `Call ${callId} is not running.` };
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.#sessions.values()].map((session) => this.#closeSession(session)));
  }

  #closeSession(session: Session): Promise<void> {
    session.closed = true;
    this.#sessions.delete(session.id);
    this.#signIns?.cancel(session.id);
    for (const call of session.running.values()) call.stop.abort(new Error('The server was disconnected.'));
    return session.client ? session.client.close().catch(() => undefined) : Promise.resolve();
  }

  /** The running lab call a question belongs to. */
  #callOf(session: Session, context: AskContext): string | undefined {
    return session.callIds.get(context.callId);
  }
}

function start(client: ParleyClient, call: StartCallBody, signal: AbortSignal): Call<unknown> {
  const args = call.arguments ?? {};
  switch (call.kind) {
    case 'tool':
      return client.callTool(call.name, args, { signal });
    case 'prompt':
      return client.getPrompt(call.name, args as Record<string, string>, { signal });
    case 'resource':
      return client.readResource(call.name, { signal });
  }
}
