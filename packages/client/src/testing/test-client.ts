import type { Root } from '@modelcontextprotocol/client';
import { builtInProfile, HOST_PROFILES, type HostProfile } from '@parley/core/hosts';
import { connect } from '../connect.js';
import type { ConnectOptions } from '../options.js';
import type { ParleyClient } from '../parley-client.js';
import {
  type AskRecord,
  type PageLink,
  type ScriptedAnswers,
  type ScriptedOptions,
  scripted,
} from '../scripted.js';
import { EmulatedHost } from './host-client.js';
import type { HostQuestion } from './host-emulator.js';
import { IN_PROCESS_URL, type InProcessServer, inProcessFetch } from './in-process.js';
import { questionPagePerson } from './page-person.js';

/** Options for {@link testClient}. All optional. */
export interface TestClientOptions<EndpointOptions = never>
  extends Pick<
    ConnectOptions,
    'clientInfo' | 'maxRounds' | 'questionTimeoutMs' | 'requestTimeoutMs' | 'onEvent' | 'headers'
  > {
  /**
   * How the person answers, as for `scripted()`: keyed by question key (falling back to the
   * message), in order (an array), or a function of the question. A question with no answer fails
   * the call with a `ParleyError` of kind `unanswered` that names it. Default: no answers.
   *
   * @example
   * const answers: ScriptedAnswers = {
   *   name: { value: 'Ada' }, // a bare ask.* field answers as { value }
   *   size: [{ value: 'XXL' }, { value: 'L' }], // asked twice: one answer each time, in order
   *   confirm: { action: 'decline' },
   * };
   */
  answers?: ScriptedAnswers;
  /**
   * The protocol era: `modern` (2026-07-28, default) or `handshake` (the newest 2025 revision the
   * SDK speaks, over an `initialize` session). Test both: a handler runs differently on each.
   */
  era?: 'modern' | 'handshake';
  /** Which kinds of question the client declares. Default: forms and URLs. */
  modes?: ScriptedOptions['modes'];
  /**
   * Whether the client declares `sampling`. Default: only when `answers` script a sampling reply
   * (a `CreateMessageResult`, keyed by the `ctx.sample` key); set it to script only declines.
   */
  sampling?: boolean;
  /** Declares `roots` and answers `roots/list` with these (e.g. for a tool that calls `ctx.roots()`). */
  roots?: readonly Root[];
  /**
   * The person who answers questions the server asks on its own pages (a client that cannot show a
   * form, `ask.secret()`, a confirmation with proof): with the scripted answers, in the server's
   * page, as a browser would. `headers` go with each of the person's requests (e.g. the cookie of a
   * server's sign-in); `false` leaves pages unanswered. Default: on, with no headers.
   */
  person?: { readonly headers?: Readonly<Record<string, string>> } | false;
  /**
   * Be a real MCP host instead of Parley's client: its `clientInfo.name` (`'codex-mcp-client'`,
   * `'Visual Studio Code'`, `'goose-desktop'`...; its newest profile), its profile's `id` (`'codex'`,
   * `'claude-code-before-2.1.108'`), or a profile of your own (`@parley/core/hosts`). The client then sends that host's `clientInfo`, protocol
   * revision and capabilities byte for byte, and shows, refuses and answers each form the way that
   * host does (Codex rejects a form with a root title and cannot show numbers, Goose invents values
   * for fields nobody touched, VS Code sends `null` for an empty optional number...), with the
   * person's `answers` written in your own fields. `era` is then the host's own revision unless you
   * say `modern`; `modes`, `sampling`, `roots` and `clientInfo` come from the profile. What the host
   * was sent and could not show is in `client.host.questions`.
   *
   * @example
   * const codex = await testClient(server, { host: 'codex-mcp-client', answers: { boxes: { value: 2 } } });
   * await codex.callTool('book_return');
   * codex.host?.questions.flatMap((question) => question.problems); // [] when the form was lowered for Codex
   */
  host?: string | HostProfile;
  /**
   * Passed to `server.endpoint()`, e.g. `{ authenticate: () => ({ token: 't', clientId: 'c', scopes: [], extra: { sub: 'alice' } }) }`
   * to make every call come from the user `alice`.
   */
  endpoint?: EndpointOptions;
}

/** A client connected in-process, and every question it was asked. */
export interface TestClient extends ParleyClient {
  /**
   * Every question asked so far, in order, across calls: its key, message, mode, `round` (on
   * 2026-07-28 the nth `input_required` result of the call; on the handshake era the nth question
   * of the call), the schema or URL, and the answer given.
   */
  readonly asked: readonly AskRecord[];
  /**
   * Answers, as the person, the pages a result points to (a call that parked because the client
   * cannot be asked: the links in its `_meta['dev.parley/pages']`), each with the scripted answer
   * for its key. Make the same call again afterwards: it goes on with the answers. Resolves with
   * how many pages were answered.
   *
   * @example
   * const tester = await testClient(server, { modes: { form: false, url: false }, answers: { boxes: { value: 2 } } });
   * const parked = await tester.callTool('book_return'); // the link to the page, in the result
   * await tester.answerPages(parked); // the person answers there
   * const booked = await tester.callTool('book_return'); // the same call goes on
   */
  answerPages(result: { readonly _meta?: Readonly<Record<string, unknown>> }): Promise<number>;
  /** With the `host` option: the host emulated, and every question it was sent. */
  readonly host?: {
    readonly profile: HostProfile;
    /** Each question as the host was sent it, what it could not show (`problems`), and its reply. */
    readonly questions: readonly HostQuestion[];
  };
}

/** The profile the `host` option names: a clientInfo name, a profile id, or a profile. */
function profileOf(host: string | HostProfile): HostProfile {
  if (typeof host !== 'string') return host;
  // By id, else by name: a host with a profile per range of versions is its newest (the one without a range).
  const named = HOST_PROFILES.filter((candidate) => candidate.names.includes(host));
  const profile = builtInProfile(host) ?? named.find((candidate) => !candidate.versions) ?? named[0];
  if (profile) return profile;
  const known = HOST_PROFILES.map((candidate) => `${candidate.names[0]} (${candidate.id})`).join(', ');
  throw new TypeError(`No host profile is named ${JSON.stringify(host)}; the built-in ones are ${known}.`);
}

/**
 * Connects a client to a server in this process: no child process, no socket, no port. Requests go
 * straight to the server's endpoint (`server.endpoint()`, the same code that serves HTTP), so tools
 * run exactly as they would for a real client, on the era you choose. This is the way to test a
 * Parley server.
 *
 * @example
 * import { createServer, ask } from '@parley/server';
 * import { testClient } from '@parley/client/testing';
 *
 * const server = createServer({ name: 'greeter', version: '1.0.0' });
 * server.tool('greet', { description: 'Greets you' }, async (_args, ctx) => {
 *   const name = await ctx.elicit('Your name?', ask.text(), { key: 'name' });
 *   return name.action === 'accept' ? `Hello, ${name.value}!` : 'Hello!';
 * });
 *
 * const client = await testClient(server, { answers: { name: { value: 'Ada' } } });
 * const result = await client.callTool('greet'); // content: [{ type: 'text', text: 'Hello, Ada!' }]
 * client.asked; // [{ key: 'name', message: 'Your name?', round: 1, answer: { action: 'accept', ... }, ... }]
 * await client.close();
 */
export async function testClient<EndpointOptions = never>(
  server: InProcessServer<EndpointOptions>,
  options: TestClientOptions<EndpointOptions> = {},
): Promise<TestClient> {
  const {
    answers,
    era,
    modes,
    sampling,
    roots,
    person,
    endpoint: endpointOptions,
    ...connectOptions
  } = options;
  const pagePerson =
    person === false ? undefined : questionPagePerson(person?.headers ? { headers: person.headers } : {});
  const ui = scripted(answers ?? {}, {
    ...(modes !== undefined && { modes }),
    ...(sampling !== undefined && { sampling }),
    ...(roots !== undefined && { roots }),
    ...(pagePerson && { person: pagePerson }),
  });
  const endpoint = server.endpoint(endpointOptions);
  let client: ParleyClient;
  let emulated: EmulatedHost | undefined;
  try {
    if (options.host !== undefined) {
      emulated = await EmulatedHost.connect(
        profileOf(options.host),
        endpoint,
        ui,
        era === 'modern' ? 'modern' : 'handshake',
      );
      client = emulated;
    } else
      client = await connect(IN_PROCESS_URL, {
        ...connectOptions,
        ui,
        era: era ?? 'modern',
        fetch: inProcessFetch(endpoint),
      });
  } catch (error) {
    await endpoint.close();
    throw error;
  }
  if (emulated) {
    const host = { profile: emulated.profile, questions: emulated.questions };
    return new InProcessClient(
      emulated,
      ui.asked,
      async () => {},
      answerPagesWith(ui, pagePerson, emulated),
      host,
    );
  }
  return new InProcessClient(
    client,
    ui.asked,
    () => endpoint.close(),
    answerPagesWith(ui, pagePerson, client),
  );
}

/** `answerPages`: the person answers, on each page a result links to, with the scripted answer for its key. */
function answerPagesWith(
  ui: ReturnType<typeof scripted>,
  pagePerson: ReturnType<typeof questionPagePerson> | undefined,
  client: ParleyClient,
): TestClient['answerPages'] {
  return async (result) => {
    if (!pagePerson) throw new TypeError('answerPages() needs the person: leave out person: false.');
    const links = (result._meta?.[PAGES_META] ?? []) as readonly PageLink[];
    for (const link of links) {
      const answer = await ui.answerFor(link, client.server, { kind: 'tool', name: '' });
      await pagePerson.answer(link.url, answer);
    }
    return links.length;
  };
}

/** Where a result lists the question pages the person answers (`@parley/server`'s `PAGES_META`). */
const PAGES_META = 'dev.parley/pages';

class InProcessClient implements TestClient {
  constructor(
    private readonly client: ParleyClient,
    readonly asked: readonly AskRecord[],
    private readonly closeEndpoint: () => Promise<void>,
    readonly answerPages: TestClient['answerPages'],
    readonly host?: TestClient['host'],
  ) {}

  get server() {
    return this.client.server;
  }
  get era() {
    return this.client.era;
  }
  get protocolVersion() {
    return this.client.protocolVersion;
  }
  get eraNotice() {
    return this.client.eraNotice;
  }
  get capabilities() {
    return this.client.capabilities;
  }
  get instructions() {
    return this.client.instructions;
  }
  listTools: ParleyClient['listTools'] = () => this.client.listTools();
  listPrompts: ParleyClient['listPrompts'] = () => this.client.listPrompts();
  listResources: ParleyClient['listResources'] = () => this.client.listResources();
  listResourceTemplates: ParleyClient['listResourceTemplates'] = () => this.client.listResourceTemplates();
  callTool: ParleyClient['callTool'] = (...args) => this.client.callTool(...args);
  getPrompt: ParleyClient['getPrompt'] = (...args) => this.client.getPrompt(...args);
  readResource: ParleyClient['readResource'] = (...args) => this.client.readResource(...args);

  async close(): Promise<void> {
    try {
      await this.client.close();
    } finally {
      await this.closeEndpoint();
    }
  }
}
