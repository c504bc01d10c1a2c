import type { PreparedQuestion } from '@parley/core/form';
import {
  type HostProfile,
  type HostTableOptions,
  hostProfileFor,
  hostTable,
  type LoweredForm,
  lowerForm,
  opensPages,
} from '@parley/core/hosts';

/**
 * A call's client as the server knows it from a host profile, on the protocol revision it speaks:
 * how its forms are lowered (and adapted to that revision), how long it waits.
 */
export class CallHost {
  readonly profile: HostProfile;
  readonly protocolVersion: string;
  readonly #forms = new WeakMap<PreparedQuestion<unknown>, LoweredForm>();

  constructor(profile: HostProfile, protocolVersion: string) {
    this.profile = profile;
    this.protocolVersion = protocolVersion;
  }

  /** The question as this host is sent it (worked out once per question). */
  form(question: PreparedQuestion<unknown>): LoweredForm {
    let lowered = this.#forms.get(question);
    if (lowered === undefined) {
      lowered = lowerForm(question.schema, this.profile, { protocolVersion: this.protocolVersion });
      this.#forms.set(question, lowered);
    }
    return lowered;
  }

  /** Whether a question page may be sent to this host by URL mode (it declared it, and it is trusted). */
  opensPages(declaredUrl: boolean): boolean {
    return opensPages(this.profile, declaredUrl);
  }

  /**
   * How long this host gives a question sent now before it gives up (its profile's limit, less a
   * margin so the question can still move to a page in time), or `undefined` when it waits as long
   * as the person takes. `callStartedAt`: when the call's request arrived.
   */
  questionDeadline(callStartedAt: number, now: number): number | undefined {
    const wait = this.profile.wait?.value;
    if (wait?.kind !== 'limit') return undefined;
    const usable = wait.limitMs - Math.min(10_000, wait.limitMs / 5);
    return (wait.from === 'call' ? callStartedAt : now) + usable;
  }
}

const MAX_REMEMBERED = 256;

/** The host profiles a server matches its clients against (`createServer({ hosts })`). */
export class HostDirectory {
  readonly table: readonly HostProfile[];
  /** By profile and revision, so a question is lowered once for each. */
  readonly #hosts = new Map<string, CallHost>();
  /** By name, version and revision: on 2026-07-28 every request brings a new clientInfo object. */
  readonly #known = new Map<string, CallHost | null>();

  constructor(options: HostTableOptions | false | undefined) {
    this.table = options === false ? [] : hostTable(options);
  }

  /**
   * The host of a call, by the `clientInfo` it sent, on the revision it speaks; `undefined` for a
   * host no profile knows.
   */
  of(clientInfo: unknown, protocolVersion: string): CallHost | undefined {
    if (this.table.length === 0 || typeof clientInfo !== 'object' || clientInfo === null) return undefined;
    const { name, version } = clientInfo as { name?: unknown; version?: unknown };
    if (typeof name !== 'string') return undefined;
    const key = `${name}\0${typeof version === 'string' ? version : ''}\0${protocolVersion}`;
    const known = this.#known.get(key);
    if (known !== undefined) return known ?? undefined;
    const profile = hostProfileFor(this.table, {
      name,
      version: typeof version === 'string' ? version : undefined,
    });
    let host: CallHost | undefined;
    if (profile) {
      const index = `${this.table.indexOf(profile)}\0${protocolVersion}`;
      host = this.#hosts.get(index) ?? new CallHost(profile, protocolVersion);
      this.#hosts.set(index, host);
    }
    if (this.#known.size >= MAX_REMEMBERED) this.#known.clear();
    this.#known.set(key, host ?? null);
    return host;
  }
}
