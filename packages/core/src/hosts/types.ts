// The shape of a host profile: what one MCP host (a client people use) declares and what it really
// does with a form, each claim with its evidence. The table of profiles is data (profiles.ts); the
// lowering (lower.ts), the server's routing and the test kit's emulator all read these facts.

/** How strong a source is: read in the host's code, seen in a probe of the wire, or reported. */
export type EvidenceGrade = 'code' | 'probe' | 'report' | 'inferred';

/** One citation of the research (`../shared/research/host-quirks.md`, §2). */
export interface HostSource {
  /** The citation key, as the research writes it (`X3`, `V2`, ...). */
  readonly key: string;
  /** Where to read it: a URL, or `owner/repo path @ commit`. */
  readonly cite: string;
  readonly grade: EvidenceGrade;
}

/** One fact about a host: its value, the sources it rests on, and the host versions they saw. */
export interface HostFact<T> {
  readonly value: T;
  /** Keys into {@link HOST_SOURCES} (or an author's own words for a profile of their own). */
  readonly sources: readonly string[];
  /** The host versions the sources saw it on, as they say them (`0.142.4`, `QuickPick UI, before 2026-03`). */
  readonly seenOn: string;
  readonly note?: string;
}

/**
 * Whether a host shows form questions:
 * - `shown`: declared and rendered;
 * - `not-declared`: no form mode declared (Parley asks on a question page);
 * - `distrusted`: declared, but the evidence says it cannot be relied on: treated as "cannot ask in-band".
 */
export type FormsSupport = 'shown' | 'not-declared' | 'distrusted';

/**
 * What a host does with a URL-mode question:
 * - `opened`: consent, then the page opens; the host answers when the person comes back;
 * - `accept-on-open`: `accept` as soon as the URL opens (Parley waits for its own completion anyway);
 * - `not-declared`: no URL mode;
 * - `distrusted`: declared whatever the host can do: Parley sends its question pages by link instead.
 */
export type UrlSupport = 'opened' | 'accept-on-open' | 'not-declared' | 'distrusted';

/** How a host shows one kind of field: as the spec means it, not at all, or as a free text box. */
export type FieldSupport = 'shown' | 'unsupported' | 'text';

/** How a host labels a titled choice's options. */
export type ChoiceLabels = 'titles' | 'values' | 'text';

/**
 * Which defaults a host pre-fills in the form it shows: all of them, none (a field the person left
 * alone comes back without a value), or only choices and yes/no (a text default is not shown).
 */
export type DefaultsShown = 'prefilled' | 'not-prefilled' | 'choices-only';

/** Values a host sends for optional fields the person never touched (and that have no default). */
export interface UntouchedValues {
  readonly text?: '';
  readonly boolean?: false;
  /** `minimum`: the field's minimum, or 0 when it has none. */
  readonly number?: 'minimum' | null;
}

/**
 * How long a host waits while a question is pending: `limitMs` after the call began (`from: 'call'`,
 * the host's request timeout) or after the question was sent (`from: 'question'`); `paused`: the host
 * stops its clock while a question waits; `none`: it waits as long as the person takes.
 */
export type HostWait =
  | { readonly kind: 'limit'; readonly limitMs: number; readonly from: 'call' | 'question' }
  | { readonly kind: 'paused' }
  | { readonly kind: 'none' };

/** What a host sends when it connects: the test kit replays it byte for byte. */
export interface HostWire {
  readonly clientInfo: { readonly name: string; readonly version: string; readonly title?: string };
  /** The protocol revision it asks for in `initialize`. */
  readonly protocolVersion: string;
  /** Its `capabilities`, exactly as declared. */
  readonly capabilities: Readonly<Record<string, unknown>>;
}

/** How a host shows each kind of field, where that is known. */
export interface HostFields {
  /** Number and integer fields. */
  readonly number?: HostFact<FieldSupport>;
  /** Multi-select (`type: 'array'`) fields. */
  readonly multiSelect?: HostFact<FieldSupport>;
  /** Titled single choices (`oneOf` and `enumNames`). */
  readonly choiceLabels?: HostFact<ChoiceLabels>;
  /** Whether `email`, `uri`, `date`, `date-time` are checked (Parley checks them on the server anyway). */
  readonly formats?: HostFact<'checked' | 'unchecked'>;
  /** Whether min/max lengths and item counts are enforced (Parley checks them on the server anyway). */
  readonly limits?: HostFact<'checked' | 'unchecked'>;
  /** What a field is labelled with. */
  readonly labels?: HostFact<'titles' | 'keys'>;
}

/**
 * One host's profile. Every fact is optional: an absent fact is unknown, and Parley then sends the
 * form as the spec has it.
 */
export interface HostProfile {
  /** A stable short name: `codex`, `vscode`, `goose`. */
  readonly id: string;
  /** The host as people call it. */
  readonly title: string;
  /** The `clientInfo.name` values it sends, matched exactly (case-sensitive). */
  readonly names: readonly string[];
  /** The `clientInfo.version` range it covers (`>=1.0.25`, `<2.1.108 || >=3`); default every version. */
  readonly versions?: string;
  /** Why its name or version cannot be told apart further, when it cannot. */
  readonly keying?: string;
  /** What it sends when it connects (the test kit's emulator replays it). */
  readonly wire: HostFact<HostWire>;
  readonly forms: HostFact<FormsSupport>;
  readonly url: HostFact<UrlSupport>;
  readonly fields?: HostFields;
  /** Keys at a form's root besides `type`, `properties`, `required`. */
  readonly rootKeys?: HostFact<'ignored' | 'rejected'>;
  readonly defaults?: HostFact<DefaultsShown>;
  /** Defaults that are `false`, `0` or `""` are not shown at all. */
  readonly falsyDefaults?: HostFact<'dropped'>;
  readonly untouched?: HostFact<UntouchedValues>;
  /** A form with no fields (a bare confirmation). */
  readonly emptyForm?: HostFact<'shown' | 'auto-accepted' | 'accept-only'>;
  readonly wait?: HostFact<HostWait>;
  /** What else is known that Parley does not act on (shown in the host matrix). */
  readonly notes?: readonly HostFact<string>[];
}

/** What identifies the client of a call: its self-reported `clientInfo`. */
export interface ClientIdentity {
  readonly name?: string | undefined;
  readonly version?: string | undefined;
}
