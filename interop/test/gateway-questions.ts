// The questions the third-party upstreams behind the gateway ask (see startThirdPartyGateway), what
// the person is shown for each, and what the upstream reports back for each answer: the table the
// gateway tests check every host against.
import type { AuditLine } from './gateway.js';
import type { Plan } from './peers.js';

export type Action = 'accept' | 'decline' | 'cancel';
export type Revision = '2026-07-28' | '2025-11-25';

export interface GatewayQuestion {
  /** The tool as hosts of the gateway see it. */
  readonly tool: string;
  /** The message the person is shown: who asks, then what. */
  readonly message: string;
  readonly mode: 'form' | 'url';
  /** The revision the upstream asks on (under era `auto`, the one the gateway ends up using). */
  readonly upstream: Revision;
  /** What the person fills in to accept a form. */
  readonly content?: Record<string, unknown>;
  /** The link of a URL question. */
  readonly url?: string;
  /** What the upstream's tool returns when the person accepts. */
  readonly accepted: string;
}

const SIGN_IN = 'https://auth.example.com/start';

export const QUESTIONS: readonly GatewayQuestion[] = [
  {
    tool: 'fastmcp_confirm',
    message: 'FastMCP shop asks: Go ahead?',
    mode: 'form',
    upstream: '2025-11-25',
    content: { value: true },
    accepted: 'true',
  },
  {
    tool: 'fastmcp_guard_name',
    message: 'FastMCP shop asks: What is your name?',
    mode: 'form',
    upstream: '2026-07-28',
    content: { name: 'Cy' },
    accepted: 'Hello, Cy!',
  },
  {
    tool: 'pysdk_confirm',
    message: 'python-sdk-peer asks: Go ahead?',
    mode: 'form',
    upstream: '2025-11-25',
    content: { text: 'yes' },
    accepted: '{"text": "yes"}',
  },
  {
    tool: 'pysdk_sign_in',
    message: 'python-sdk-peer asks: Sign in to continue',
    mode: 'url',
    upstream: '2025-11-25',
    url: SIGN_IN,
    accepted: 'accept',
  },
  {
    tool: 'tsv1_confirm',
    message: 'ts-v1-peer asks: Go ahead?',
    mode: 'form',
    upstream: '2025-11-25',
    content: { ok: true },
    accepted: '{"ok":true}',
  },
  {
    tool: 'tsv1_sign_in',
    message: 'ts-v1-peer asks: Sign in to continue',
    mode: 'url',
    upstream: '2025-11-25',
    url: SIGN_IN,
    accepted: 'accept',
  },
  {
    tool: 'tsv2_confirm',
    message: 'Courier desk asks: Ship the order?',
    mode: 'form',
    upstream: '2026-07-28',
    content: { ok: true },
    accepted: '{"ok":true}',
  },
  {
    tool: 'tsv2_sign_in',
    message: 'Courier desk asks: Connect your courier account',
    mode: 'url',
    upstream: '2026-07-28',
    url: 'https://courier.example.com/connect',
    accepted: 'accept',
  },
  {
    tool: 'parley_confirm',
    message: 'parley-peer asks: Go ahead?',
    mode: 'form',
    upstream: '2026-07-28',
    content: { value: true },
    accepted: 'true',
  },
  {
    tool: 'parley_sign_in',
    message: 'parley-peer asks: Sign in to continue',
    mode: 'url',
    upstream: '2026-07-28',
    url: SIGN_IN,
    accepted: 'accept',
  },
];

const ACTIONS: readonly Action[] = ['accept', 'decline', 'cancel'];

/**
 * The person's answer to each question, shifted by `turn`. In the table's order, the three forms of
 * each upstream era get three different actions and the two links of each era two, whatever the
 * turn; hosts of one era on turns 0, 1 and 2 give every question every action.
 */
export function actionsFor(turn: number): Map<GatewayQuestion, Action> {
  return new Map(QUESTIONS.map((question, index) => [question, ACTIONS[(index + turn) % 3]!]));
}

/** What the upstream reports for an answer. */
export function outcomeOf(question: GatewayQuestion, action: Action): string {
  return action === 'accept' ? question.accepted : action;
}

/** Every question called at once, each answered by its message (python_client.py, ts-v1-client.mjs). */
export function planFor(actions: ReadonlyMap<GatewayQuestion, Action>): Plan {
  return {
    calls: QUESTIONS.map((question) => ({ tool: question.tool })),
    answers: Object.fromEntries(
      QUESTIONS.map((question) => {
        const action = actions.get(question)!;
        return [question.message, action === 'accept' ? { accept: question.content ?? {} } : { action }];
      }),
    ),
  };
}

/**
 * What the gateway's audit says of each question, in the table's order: `[tool, pairing, mode,
 * outcome]` for every event it printed about it (one each, when each was asked once).
 */
export function auditOf(audit: readonly AuditLine[]): string[][][] {
  return QUESTIONS.map((question) =>
    audit
      .filter((event) => event.name === question.tool)
      .map((event) => [event.name, event.pairing, event.mode, event.outcome]),
  );
}

/** {@link auditOf} as it should be: each question once, on its pairing, with the person's action. */
export function expectedAudit(actions: ReadonlyMap<GatewayQuestion, Action>, host: Revision): string[][][] {
  return QUESTIONS.map((question) => [
    [question.tool, `${host} > ${question.upstream}`, question.mode, actions.get(question)!],
  ]);
}
