/**
 * Workload (c), in process: what sealing and opening a round's `requestState` costs.
 *
 * `StateCodec` is internal to @parley/server, so this harness reaches into the built
 * `packages/server/dist` for measurement only (nothing else in the project does that). The raw
 * SDK's public `createRequestStateCodec` is timed the same way for comparison.
 */
import { createCipheriv, createDecipheriv } from 'node:crypto';
import { createRequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import { KeyRing } from '@parley/core/seal';
import { bindingBytes } from '../../../packages/server/dist/state/binding.js';
import { nodeAead } from '../../../packages/server/dist/state/node-aead.js';
import { encodePayload } from '../../../packages/server/dist/state/payload.js';
import {
  firstRoundState,
  type JournalEntry,
  type RoundState,
} from '../../../packages/server/dist/state/round-state.js';
import { StateCodec } from '../../../packages/server/dist/state/state-codec.js';
import { BENCH_KEY, BENCH_KEY_BASE64 } from '../servers/bench-key.js';
import { median, quartiles } from '../stats.js';
import { answerOf, TOOL } from '../survey.js';

export interface CodecTiming {
  /** Questions in the flow; each round opens the last state and seals the next. */
  readonly questions: number;
  /** Median over the timed windows of the mean seal + open time per round of the flow, in microseconds. */
  readonly parleyUs: number;
  /** The lower and upper quartile of Parley's windows: how much this machine moved the figure. */
  readonly parleySpreadUs?: readonly [number, number];
  readonly sdkUs: number;
  /**
   * The primitive alone, for scale: node:crypto AES-256-GCM encrypt + decrypt of a payload the size
   * of the state, nothing else (the IV is not drawn from the system per call: Parley draws its IVs
   * from a pool). What this machine charges for the cryptography itself.
   */
  readonly aesGcmUs: number;
}

export interface CodecOptions {
  readonly flows: readonly number[];
  /** Flows timed per window. */
  readonly iterations: number;
  /** Windows of the raw SDK's codec per flow length; Parley's and AES-GCM's get three times as many. */
  readonly repeats: number;
}

/**
 * The state Parley holds after `answered` answers of the survey, journaled as the server journals
 * them: an accepted one-field form is its values in field order, `["answer 1"]`.
 */
function parleyState(answered: number): RoundState {
  const journal: JournalEntry[] = Array.from({ length: answered }, (_, i) => [
    2_000_000_000 + i,
    [answerOf(i)],
  ]);
  return {
    ...firstRoundState(),
    rounds: answered + 1,
    journal,
    pending: { fingerprint: 3_000_000_000 + answered, tries: 0 },
  };
}

/**
 * AES-256-GCM encrypt + decrypt of `plaintext` with node:crypto, and nothing else: the IV is a
 * counter in a buffer made once (a cost-only harness; never a way to pick IVs for real).
 */
export function aesGcmRoundTrip(key: Buffer, iv: Buffer, plaintext: Buffer): Buffer {
  iv.writeUInt32BE((iv.readUInt32BE(8) + 1) >>> 0, 8);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(AES_AAD);
  const head = cipher.update(plaintext);
  cipher.final();
  const decipher = createDecipheriv('aes-256-gcm', key, iv).setAAD(AES_AAD).setAuthTag(cipher.getAuthTag());
  const opened = decipher.update(head);
  decipher.final();
  return opened;
}

const AES_AAD = Buffer.from('bench');

type Round = (answered: number) => unknown;

/** Rounds run before a codec is timed, so the first flow length measured is not timed cold. */
const WARM_ROUNDS = 3_000;

async function warm(questions: number, round: Round) {
  for (let warmed = 0; warmed < WARM_ROUNDS; warmed += questions) {
    for (let answered = 0; answered < questions; answered++) await round(answered);
  }
}

/** One timed window: the mean µs per round over `iterations` flows. */
async function timeFlows(iterations: number, questions: number, round: Round) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) {
    for (let answered = 0; answered < questions; answered++) await round(answered);
  }
  return Number(process.hrtime.bigint() - started) / 1e3 / (iterations * questions);
}

/** One flow length's three codecs, and the windows timed for each. */
interface FlowCodecs {
  readonly questions: number;
  readonly parley: Round;
  readonly sdk: Round;
  readonly aes: Round;
  readonly parleyRuns: number[];
  readonly sdkRuns: number[];
  readonly aesRuns: number[];
}

/** Times seal + open per round for flows of each length, for Parley's codec and the SDK's. */
export async function measureStateCodecs(options: CodecOptions): Promise<CodecTiming[]> {
  const ring = await KeyRing.create(KeyRing.parse(`bench:${BENCH_KEY_BASE64}`), { backend: nodeAead });
  const parley = new StateCodec(ring, { ttlSeconds: 600, maxChars: 16_384, clockSkewSeconds: 30 });
  const sdk = createRequestStateCodec<{ answers: string[] }>({
    key: BENCH_KEY,
    ttlSeconds: 600,
    bind: (ctx) => `${ctx.mcpReq.method}\0${ctx.http?.authInfo?.clientId ?? ''}`,
  });
  // The two fields the bench's bind callback reads; the rest of a ServerContext is not touched.
  const ctx = { mcpReq: { method: 'tools/call' }, http: undefined } as unknown as ServerContext;
  const key = Buffer.from(BENCH_KEY);
  const iv = Buffer.alloc(12);

  const flows = options.flows.map((questions): FlowCodecs => {
    const binding = {
      server: 'bench-parley',
      method: 'tools/call' as const,
      target: TOOL,
      args: { questions },
      principal: undefined,
    };
    // Built before the clock starts: what is timed is sealing and opening, not making the states.
    const states = Array.from({ length: questions }, (_, k) => parleyState(k));
    const answerLists = Array.from({ length: questions }, (_, k) =>
      Array.from({ length: k }, (_, i) => answerOf(i)),
    );
    // The bytes Parley's codec encrypts for each state (its compact payload).
    const plaintexts = states.map((state) => Buffer.from(encodePayload(state, 2_000_000_000)));
    return {
      questions,
      parley: async (answered) => {
        // As a server round does: the call's binding bytes once, then open and seal with them.
        const bytes = bindingBytes(binding);
        const opened = await parley.open(await parley.seal(states[answered]!, bytes), bytes);
        if (!opened.ok) throw new Error(`Parley's codec refused its own state: ${opened.reason}.`);
      },
      sdk: async (answered) => {
        await sdk.verify(await sdk.mint({ answers: answerLists[answered]! }, ctx), ctx);
      },
      aes: (answered) => aesGcmRoundTrip(key, iv, plaintexts[answered]!),
      parleyRuns: [],
      sdkRuns: [],
      aesRuns: [],
    };
  });
  for (const flow of flows)
    for (const round of [flow.parley, flow.sdk, flow.aes]) await warm(flow.questions, round);
  // Short windows, interleaved across codecs and flow lengths: a burst of load from elsewhere on the
  // machine (or the tail of the workload before) lands in a few windows of every row alike instead
  // of in the whole of one.
  for (let repeat = 0; repeat < options.repeats; repeat++) {
    for (let share = 0; share < 3; share++) {
      for (const flow of flows) {
        flow.parleyRuns.push(await timeFlows(options.iterations, flow.questions, flow.parley));
        flow.aesRuns.push(await timeFlows(options.iterations, flow.questions, flow.aes));
      }
    }
    for (const flow of flows)
      flow.sdkRuns.push(await timeFlows(options.iterations, flow.questions, flow.sdk));
  }
  return flows.map((flow) => ({
    questions: flow.questions,
    parleyUs: median(flow.parleyRuns),
    parleySpreadUs: quartiles(flow.parleyRuns),
    sdkUs: median(flow.sdkRuns),
    aesGcmUs: median(flow.aesRuns),
  }));
}
