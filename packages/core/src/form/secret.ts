const HIDDEN = '[secret]';

/**
 * A secret the person typed on a page of the server (`ask.secret()`): a password, an API key, a
 * card number. The value is read only with {@link Secret.reveal}; everything else that turns it into
 * text (`String()`, template literals, `JSON.stringify`, `console.log`, `util.inspect`) shows
 * `[secret]`, so a handler that logs or returns the answer by mistake leaks nothing.
 *
 * @example
 * const key = new Secret('sk_live_4242'); // what ask.secret() answers with
 * key.reveal(); // 'sk_live_4242'
 * `${key}`; // '[secret]'
 * JSON.stringify({ key }); // '{"key":"[secret]"}'
 */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  /** The secret itself. Hand it straight to where it is used; never log, return or store it in clear. */
  reveal(): string {
    return this.#value;
  }

  /** Its length in characters (code points), e.g. to say "a 32-character key was linked". */
  get length(): number {
    return [...this.#value].length;
  }

  toString(): string {
    return HIDDEN;
  }

  toJSON(): string {
    return HIDDEN;
  }

  [Symbol.toPrimitive](): string {
    return HIDDEN;
  }

  /** What Node's `util.inspect` (and so `console.log`) shows. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `Secret(${HIDDEN})`;
  }
}

/** Whether a value is a {@link Secret}. */
export function isSecret(value: unknown): value is Secret {
  return value instanceof Secret;
}
