import fc from 'fast-check';
import { type IssuedState, type Place, sameBinding } from './state-corpus.js';

/** One way to spoil a valid state: its bytes, its spelling, or where it is presented. */
export type Mutation =
  | { readonly kind: 'bit flip'; readonly bit: number }
  | { readonly kind: 'truncated'; readonly keep: number }
  | { readonly kind: 'start cut off'; readonly drop: number }
  | { readonly kind: 'extended (text)'; readonly suffix: string }
  | { readonly kind: 'extended (bytes)'; readonly bytes: Uint8Array }
  | { readonly kind: 'standard base64' }
  | { readonly kind: 'padded'; readonly pad: string }
  | { readonly kind: 'whitespace'; readonly at: number; readonly char: string }
  | { readonly kind: 'percent-encoded'; readonly at: number }
  | { readonly kind: 'case flipped'; readonly at: number }
  | { readonly kind: 'spliced with another state'; readonly other: number; readonly cut: number }
  | { readonly kind: 'key id relabelled' }
  | { readonly kind: 'presented elsewhere'; readonly place: number }
  | { readonly kind: 'not a string'; readonly value: unknown };

export type MutationKind = Mutation['kind'];

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('bit flip' as const), bit: fc.nat() }),
  fc.record({ kind: fc.constant('truncated' as const), keep: fc.nat() }),
  fc.record({ kind: fc.constant('start cut off' as const), drop: fc.integer({ min: 1, max: 64 }) }),
  fc.record({
    kind: fc.constant('extended (text)' as const),
    suffix: fc.string({ unit: fc.constantFrom(...BASE64URL), minLength: 1, maxLength: 24 }),
  }),
  fc.record({
    kind: fc.constant('extended (bytes)' as const),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 32 }),
  }),
  fc.record({ kind: fc.constant('standard base64' as const) }),
  fc.record({ kind: fc.constant('padded' as const), pad: fc.constantFrom('=', '==', '===') }),
  fc.record({
    kind: fc.constant('whitespace' as const),
    at: fc.nat(),
    char: fc.constantFrom(' ', '\n', '\t', '\r\n'),
  }),
  fc.record({ kind: fc.constant('percent-encoded' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('case flipped' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('spliced with another state' as const), other: fc.nat(), cut: fc.nat() }),
  fc.record({ kind: fc.constant('key id relabelled' as const) }),
  fc.record({ kind: fc.constant('presented elsewhere' as const), place: fc.nat() }),
  fc.record({
    kind: fc.constant('not a string' as const),
    value: fc.oneof(
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 3 }),
      fc.object({ maxDepth: 2 }),
    ),
  }),
);

/** A mutated state and where it is presented; `undefined` when the mutation changed nothing. */
export interface Presented {
  readonly place: Place;
  readonly requestState: unknown;
}

/**
 * Applies a mutation to a valid state. Every result is something the server must refuse: other
 * bytes or spelling at the state's own place, or the untouched state at a place with another
 * binding (tool, arguments, user, server or keys).
 */
export function mutate(
  state: IssuedState,
  mutation: Mutation,
  corpus: readonly IssuedState[],
  places: readonly Place[],
): Presented | undefined {
  const token = state.token;
  const bytes = Buffer.from(token, 'base64url');
  const at = (n: number) => n % token.length;
  let spoiled: string;
  switch (mutation.kind) {
    case 'bit flip': {
      const bit = mutation.bit % (bytes.length * 8);
      const flipped = Buffer.from(bytes);
      flipped[bit >> 3]! ^= 1 << (bit & 7);
      spoiled = flipped.toString('base64url');
      break;
    }
    case 'truncated':
      spoiled = token.slice(0, mutation.keep % token.length);
      break;
    case 'start cut off':
      spoiled = token.slice(mutation.drop);
      break;
    case 'extended (text)':
      spoiled = token + mutation.suffix;
      break;
    case 'extended (bytes)':
      spoiled = Buffer.concat([bytes, mutation.bytes]).toString('base64url');
      break;
    case 'standard base64':
      spoiled = bytes.toString('base64');
      break;
    case 'padded':
      spoiled = token + mutation.pad;
      break;
    case 'whitespace':
      spoiled = token.slice(0, at(mutation.at)) + mutation.char + token.slice(at(mutation.at));
      break;
    case 'percent-encoded': {
      const i = at(mutation.at);
      spoiled = `${token.slice(0, i)}%${token.charCodeAt(i).toString(16).toUpperCase()}${token.slice(i + 1)}`;
      break;
    }
    case 'case flipped': {
      const i = at(mutation.at);
      const char = token[i]!;
      const other = char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase();
      spoiled = token.slice(0, i) + other + token.slice(i + 1);
      break;
    }
    case 'spliced with another state': {
      const other = corpus[mutation.other % corpus.length]!.token;
      const cut = mutation.cut % Math.min(token.length, other.length);
      spoiled = token.slice(0, cut) + other.slice(cut);
      break;
    }
    case 'key id relabelled': {
      // Token layout: version, id length, id, IV, ciphertext. Same length id, another key's name.
      const relabelled = Buffer.from(bytes);
      relabelled.write('kx', 2, 'latin1');
      return { place: { ...state.place, target: 'relabel' }, requestState: relabelled.toString('base64url') };
    }
    case 'presented elsewhere': {
      const elsewhere = places.filter((place) => !sameBinding(state.place, place));
      return { place: elsewhere[mutation.place % elsewhere.length]!, requestState: token };
    }
    case 'not a string':
      return { place: state.place, requestState: mutation.value };
  }
  // A splice can rebuild another whole state of the same call (tokens share their first bytes): valid, so not a mutation.
  if (spoiled === token || corpus.some((other) => other.token === spoiled)) return undefined;
  return { place: state.place, requestState: spoiled };
}
