/**
 * Workload (c), in process: what sealing and opening a round's `requestState` costs.
 *
 * `StateCodec` is internal to @parley/server, so this harness reaches into the built
 * `packages/server/dist` for measurement only (nothing else in the project does that). The raw
 * SDK's public `createRequestStateCodec` is timed the same way for comparison.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { createRequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import { KeyRing } from '@parley/core/seal';
import { bindingBytes } from '../../../packages/server/dist/state/binding.js';
import { nodeAead } from '../../../packages/server/dist/state/node-aead.js';
import {
  firstRoundState,
  type JournalEntry,
  type RoundState,
} from '../../../packages/server/dist/state/round-state.js';
import { StateCodec } from '../../../packages/server/dist/state/state-codec.js';
import { BENCH_KEY, BENCH_KEY_BASE64 } from '../servers/bench-key.js';
import { median } from '../stats.js';
import { answerOf, TOOL } from '../survey.js';

export interface CodecTiming {
  /** Questions in the flow; each round opens the last state and seals the next. */
  readonly questions: number;
  /** Median over repeats of the mean seal + open time per round of the flow, in microseconds. */
  readonly parleyUs: number;
  readonly sdkUs: number;
  /**
   * The primitive alone, for scale: node:crypto AES-256-GCM encrypt + decrypt of a payload the size
   * of the state, nothing else. What this machine charges for the cryptography itself.
   */
  readonly aesGcmUs: number;
}

export interface CodecOptions {
  readonly flows: readonly number[];
  /** Flows timed per repeat. */
  readonly iterations: number;
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

/** AES-256-GCM encrypt + decrypt of `size` bytes with node:crypto, and nothing else. */
function aesGcmRoundTrip(key: Buffer, size: number): void {
  const iv = randomBytes(12);
  const aad = Buffer.from('bench');
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(aad);
  const sealed = Buffer.concat([cipher.update(Buffer.alloc(size, 1)), cipher.final()]);
  const decipher = createDecipheriv('aes-256-gcm', key, iv).setAAD(aad).setAuthTag(cipher.getAuthTag());
  Buffer.concat([decipher.update(sealed), decipher.final()]);
}

/** Rounds run before a codec is timed, so the first flow length measured is not timed cold. */
const WARM_ROUNDS = 3_000;

async function timeFlows(iterations: number, questions: number, round: (answered: number) => Promise<void>) {
  for (let warm = 0; warm < WARM_ROUNDS; warm += questions) {
    for (let answered = 0; answered < questions; answered++) await round(answered);
  }
  const started = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) {
    for (let answered = 0; answered < questions; answered++) await round(answered);
  }
  return Number(process.hrtime.bigint() - started) / 1e3 / (iterations * questions);
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

  const timings: CodecTiming[] = [];
  for (const questions of options.flows) {
    const binding = {
      server: 'bench-parley',
      method: 'tools/call' as const,
      target: TOOL,
      args: { questions },
      principal: undefined,
    };
    const parleyRuns: number[] = [];
    const sdkRuns: number[] = [];
    const aesRuns: number[] = [];
    // Built before the clock starts: what is timed is sealing and opening, not making the states.
    const states = Array.from({ length: questions }, (_, k) => parleyState(k));
    const answerLists = Array.from({ length: questions }, (_, k) =>
      Array.from({ length: k }, (_, i) => answerOf(i)),
    );
    const stateBytes = states.map((state) => JSON.stringify(state).length);
    const key = Buffer.from(BENCH_KEY);
    for (let repeat = 0; repeat < options.repeats; repeat++) {
      parleyRuns.push(
        await timeFlows(options.iterations, questions, async (answered) => {
          // As a server round does: the call's binding bytes once, then open and seal with them.
          const bytes = bindingBytes(binding);
          const opened = await parley.open(await parley.seal(states[answered]!, bytes), bytes);
          if (!opened.ok) throw new Error(`Parley's codec refused its own state: ${opened.reason}.`);
        }),
      );
      sdkRuns.push(
        await timeFlows(options.iterations, questions, async (answered) => {
          await sdk.verify(await sdk.mint({ answers: answerLists[answered]! }, ctx), ctx);
        }),
      );
      aesRuns.push(
        await timeFlows(options.iterations, questions, async (answered) => {
          aesGcmRoundTrip(key, stateBytes[answered]!);
        }),
      );
    }
    timings.push({
      questions,
      parleyUs: median(parleyRuns),
      sdkUs: median(sdkRuns),
      aesGcmUs: median(aesRuns),
    });
  }
  return timings;
}
