import type { ServerContext } from '@modelcontextprotocol/server';
import { elicitationModes } from '@parley/core/capabilities';
import {
  type PreparedQuestion,
  prepareQuestion,
  type QuestionInput,
  sensitiveFields,
} from '@parley/core/form';
import { type AskItem, askPoint, type ItemResult } from '../ask/ask-item.js';
import { ElicitationUnavailable, type InputMode, SecretInFormError, ToolError } from '../errors.js';
import type { FlowKit } from '../flows/flow-kit.js';
import type { Json } from '../state/round-state.js';
import type { BatchItem, ElicitOptions, FlowTarget, ParleyContext, Principal } from '../types.js';

/** Where ask points go: the replay engine (2026-07-28) or the push engine (2025 eras). */
export interface AskEngine {
  ask(point: ReturnType<typeof askPoint>): Promise<ItemResult[]>;
  once<T extends Json>(name: string, fn: (key: string) => T | Promise<T>): Promise<T>;
}

export interface ContextFacts {
  readonly era: 'modern' | 'handshake';
  readonly protocolVersion: string;
  readonly user: Principal | undefined;
  readonly clientCapabilities: unknown;
  readonly clientInfo: { readonly name?: string; readonly version?: string } | undefined;
  readonly sdk: ServerContext;
  /** URL flows, when the server has them configured. */
  readonly flows: FlowKit | undefined;
}

const checkedForSecrets = new WeakSet<PreparedQuestion<unknown>>();

/** Prepares a form question, refusing one that asks for a secret. */
function formQuestion(question: QuestionInput): PreparedQuestion<unknown> {
  const prepared = prepareQuestion(question);
  if (!checkedForSecrets.has(prepared)) {
    const secrets = sensitiveFields(prepared.schema);
    if (secrets.length > 0) throw new SecretInFormError(secrets);
    checkedForSecrets.add(prepared);
  }
  return prepared;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function declaredModes(capabilities: unknown, protocolVersion: string): Record<InputMode, boolean> {
  const { form, url } = elicitationModes(capabilities, protocolVersion);
  const caps = isRecord(capabilities) ? capabilities : {};
  return { form, url, sampling: isRecord(caps.sampling), roots: isRecord(caps.roots) };
}

/** Builds the `ctx` a handler receives. */
export function createContext(facts: ContextFacts, engine: AskEngine): ParleyContext {
  const modes = declaredModes(facts.clientCapabilities, facts.protocolVersion);
  let asked = 0;
  const nextKey = (options: ElicitOptions | undefined) => {
    asked++;
    return options?.key ?? `q${asked}`;
  };
  const requireMode = (mode: InputMode) => {
    if (!modes[mode]) throw new ElicitationUnavailable(mode);
  };

  const toItem = (key: string, entry: BatchItem): AskItem => {
    if (Array.isArray(entry)) {
      const [message, question] = entry as readonly [string, QuestionInput];
      requireMode('form');
      return { kind: 'form', key, message, question: formQuestion(question) };
    }
    const item = entry as Exclude<BatchItem, readonly unknown[]>;
    requireMode(item.kind === 'form' ? 'form' : item.kind);
    switch (item.kind) {
      case 'form':
        return { kind: 'form', key, message: item.message, question: formQuestion(item.question) };
      case 'url':
        return { kind: 'url', key, message: item.message, url: item.url };
      case 'sampling':
        return { kind: 'sampling', key, params: item.params };
      case 'roots':
        return { kind: 'roots', key };
    }
  };

  const context: ParleyContext = {
    era: facts.era,
    protocolVersion: facts.protocolVersion,
    user: facts.user,
    client: {
      // What a client calls itself is untrusted and unbounded: 80 characters is plenty for a name.
      ...(typeof facts.clientInfo?.name === 'string' && { name: facts.clientInfo.name.slice(0, 80) }),
      ...(facts.clientInfo?.version !== undefined && { version: facts.clientInfo.version }),
    },
    signal: facts.sdk.mcpReq.signal,
    sdk: facts.sdk,
    can: (mode) => modes[mode],
    async elicit(message, question, options) {
      const key = nextKey(options);
      requireMode('form');
      const item: AskItem = { kind: 'form', key, message, question: formQuestion(question) };
      const [result] = await engine.ask(askPoint([item], false));
      return result as never;
    },
    async elicitAll(batch) {
      asked++;
      const items = Object.entries(batch).map(([key, entry]) => toItem(key, entry));
      if (items.length === 0) throw new TypeError('ctx.elicitAll() needs at least one question.');
      const results = await engine.ask(askPoint(items, true));
      return Object.fromEntries(items.map((item, index) => [item.key, results[index]])) as never;
    },
    async elicitUrl(message: string, target: string | URL | FlowTarget, options?: ElicitOptions) {
      const key = nextKey(options);
      requireMode('url');
      if (typeof target === 'string' || target instanceof URL) {
        const [result] = await engine.ask(
          askPoint([{ kind: 'url', key, message, url: String(target) }], false),
        );
        return result as never;
      }
      const kit = facts.flows;
      if (!kit)
        throw new TypeError(
          'URL flows need createServer({ flows: { publicUrl, session, signIn } }) and server.flow(kind, page).',
        );
      const principal = facts.user?.id;
      if (principal === undefined) {
        throw new ToolError(
          'This step needs a signed-in user, so it can only be done when the server knows who is calling ' +
            '(authenticate the HTTP endpoint, or set stdioUser for a local server).',
        );
      }
      // Created once per logical call: replay reads the same flow id from the journal.
      const id = await engine.once(
        `flow:${key}:${target.flow}`,
        async () => (await kit.create(target.flow, principal, target.data ?? null)).id,
      );
      const flow = { id, kit, principal };
      const [result] = await engine.ask(
        askPoint([{ kind: 'url', key, message, url: kit.urlFor(id), flow }], false),
      );
      return result as never;
    },
    once(name, fn) {
      return engine.once(name, fn);
    },
    async sample(params, options) {
      const key = nextKey(options);
      requireMode('sampling');
      const [result] = await engine.ask(askPoint([{ kind: 'sampling', key, params }], false));
      return result as never;
    },
    async roots(options) {
      const key = nextKey(options);
      requireMode('roots');
      const [result] = await engine.ask(askPoint([{ kind: 'roots', key }], false));
      return result as never;
    },
  };
  return context;
}
