import type { ServerContext } from '@modelcontextprotocol/server';
import type { QuestionInput } from '@parley/core/form';
import { type AskItem, type AskPoint, askPoint, type ItemResult } from '../ask/ask-item.js';
import { isDeclared, kindOf, requireDeclared } from '../ask/kind-table.js';
import { SUSPEND } from '../eras/replay-engine.js';
import { ToolError } from '../errors.js';
import type { FlowKit } from '../flows/flow-kit.js';
import type { Json } from '../state/round-state.js';
import type { TaskRecord } from '../tasks/task-record.js';
import type { BatchItem, ElicitOptions, FlowTarget, ParleyContext, Principal } from '../types.js';
import { type GuardRound, NO_GUARD_ROUND } from './guard.js';
import { NotificationSequence, sideChannels } from './side-channels.js';

/** Where ask points go: the replay engine (2026-07-28) or the push engine (2025 eras). */
export interface AskEngine {
  ask(point: AskPoint): Promise<ItemResult[]>;
  once<T extends Json>(name: string, fn: (key: string) => T | Promise<T>): Promise<T>;
}

/** How a call becomes a task (the tasks extension); `eras/task-start.ts` implements it. */
export interface TaskHooks {
  /** The task, once the call became one. */
  readonly current: TaskRecord | undefined;
  runAsTask(): Promise<void>;
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
  /** The guard-style round: answers to what the last `inputRequired()` asked, and the author's data. */
  readonly guard?: GuardRound;
  /** How the call becomes a task (`ctx.runAsTask()`). */
  readonly task: TaskHooks;
  /**
   * Where this run of the handler is in the call's notifications, when the handler has run before
   * (a later 2026-07-28 round, a later guard round on the 2025 eras). Absent: a first run.
   */
  readonly notifications?: NotificationSequence;
}

/**
 * The items of a `ctx.elicitAll` batch (or of `inputRequired(questions)`), each checked against
 * what the client declared (`can`).
 */
export function batchItems(
  batch: Readonly<Record<string, BatchItem>>,
  can: (kind: string) => boolean,
): AskItem[] {
  const kindFor = (name: string) => {
    const kind = kindOf({ kind: name });
    requireDeclared(kind, can);
    return kind;
  };
  const items = Object.entries(batch).map(([key, entry]) => {
    if (Array.isArray(entry)) {
      const [message, question] = entry as readonly [string, QuestionInput];
      return kindFor('form').item(key, { kind: 'form', message, question });
    }
    const fields = entry as unknown as Readonly<Record<string, unknown>> & { readonly kind: string };
    return kindFor(fields.kind).item(key, fields);
  });
  if (items.length === 0) throw new TypeError('A batch of questions needs at least one question.');
  return items;
}

const firstOf = (results: readonly ItemResult[]): ItemResult => results[0]!;

/** Builds the `ctx` a handler receives. */
export function createContext(facts: ContextFacts, engine: AskEngine): ParleyContext {
  const declared = new Map<string, boolean>();
  const can = (name: string): boolean => {
    let yes = declared.get(name);
    if (yes === undefined) {
      yes = isDeclared(name, facts.clientCapabilities, facts.protocolVersion);
      declared.set(name, yes);
    }
    return yes;
  };
  let asked = 0;
  const nextKey = (options: ElicitOptions | undefined) => {
    asked++;
    return options?.key ?? `q${asked}`;
  };
  /** The table's entry for `name`, once the client is known to have declared what it needs. */
  const kindFor = (name: string) => {
    const kind = kindOf({ kind: name });
    requireDeclared(kind, can);
    return kind;
  };
  const notifications = facts.notifications ?? new NotificationSequence();
  // No `await` here nor in the methods that return it: a suspended async frame per pending
  // question is memory (a 2025-era call may wait on the person for minutes).
  const ask = (point: AskPoint): Promise<ItemResult[]> =>
    engine.ask(point).catch((error: unknown) => {
      if (error === SUSPEND) notifications.stop();
      throw error;
    });
  const askOne = (item: AskItem): Promise<ItemResult> => ask(askPoint([item], false)).then(firstOf);

  const channels = sideChannels(facts.sdk, notifications, () => facts.task.current !== undefined);
  const context: ParleyContext = {
    era: facts.era,
    protocolVersion: facts.protocolVersion,
    user: facts.user,
    client: {
      // What a client calls itself is untrusted and unbounded: 80 characters is plenty for a name.
      ...(typeof facts.clientInfo?.name === 'string' && { name: facts.clientInfo.name.slice(0, 80) }),
      ...(facts.clientInfo?.version !== undefined && { version: facts.clientInfo.version }),
    },
    get signal() {
      return facts.task.current?.abort.signal ?? facts.sdk.mcpReq.signal;
    },
    sdk: facts.sdk,
    can,
    async elicit(message, question, options) {
      const key = nextKey(options);
      return askOne(kindFor('form').item(key, { kind: 'form', message, question })) as never;
    },
    async elicitAll(batch) {
      asked++;
      if (Object.keys(batch).length === 0)
        throw new TypeError('ctx.elicitAll() needs at least one question.');
      const items = batchItems(batch, can);
      const results = await ask(askPoint(items, true));
      return Object.fromEntries(items.map((item, index) => [item.key, results[index]])) as never;
    },
    async elicitUrl(message: string, target: string | URL | FlowTarget, options?: ElicitOptions) {
      const key = nextKey(options);
      const url = kindFor('url');
      if (typeof target === 'string' || target instanceof URL)
        return askOne(url.item(key, { kind: 'url', message, url: String(target) })) as never;
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
      return askOne(url.item(key, { kind: 'url', message, url: kit.urlFor(id), flow })) as never;
    },
    async answers(questions) {
      const items = batchItems(questions, can);
      return (await (facts.guard ?? NO_GUARD_ROUND).answers(
        items,
        askPoint(items, true).fingerprint,
      )) as never;
    },
    data() {
      return (facts.guard ?? NO_GUARD_ROUND).data as never;
    },
    once(name, fn) {
      return engine.once(name, fn);
    },
    runAsTask: () => facts.task.runAsTask(),
    closeStream: () => facts.sdk.http?.closeSSE?.(),
    progress: channels.progress,
    log: channels.log,
    async sample(params, options) {
      const key = nextKey(options);
      return askOne(kindFor('sampling').item(key, { kind: 'sampling', params })) as never;
    },
    async roots(options) {
      const key = nextKey(options);
      return askOne(kindFor('roots').item(key, { kind: 'roots' })) as never;
    },
  };
  return context;
}
