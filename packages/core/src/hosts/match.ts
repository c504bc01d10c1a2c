import { HOST_PROFILES } from './profiles.js';
import type { ClientIdentity, HostProfile } from './types.js';
import { checkVersionRange, versionInRange } from './versions.js';

/**
 * `clientInfo.name` values no profile may be keyed on, with the reason: a name many hosts share
 * would give every one of them the rules of one.
 */
export const UNKEYABLE_NAMES: Readonly<Record<string, string>> = Object.freeze({
  mcp: 'the Python SDK’s default clientInfo (mcp 0.1.0), sent by Le Chat, Perplexity, LangChain and any app that sets none (PY1, M1)',
});

/** Which profiles a server uses. */
export interface HostTableOptions {
  /** Profiles of your own, matched before the built-in ones; one with a built-in’s `id` replaces it. */
  readonly profiles?: readonly HostProfile[];
  /** Whether the built-in profiles ({@link HOST_PROFILES}) are used too. Default `true`. */
  readonly builtIn?: boolean;
}

/**
 * The profiles a server matches clients against: `options.profiles` first (each checked), then the
 * built-in ones they do not replace. Throws a `TypeError` naming the fix for a profile that cannot
 * be used.
 *
 * @example
 * const table = hostTable({ profiles: [{ ...builtInProfile('claude-code')!, wait: undefined }] });
 * hostProfileFor(table, { name: 'claude-code', version: '2.1.259' })?.wait; // undefined: yours replaced it
 */
export function hostTable(options: HostTableOptions = {}): readonly HostProfile[] {
  const own = options.profiles ?? [];
  own.forEach(checkHostProfile);
  const replaced = new Set(own.map((profile) => profile.id));
  const builtIn =
    options.builtIn === false ? [] : HOST_PROFILES.filter((profile) => !replaced.has(profile.id));
  return Object.freeze([...own, ...builtIn]);
}

/**
 * The built-in profile with this `id` (`codex`, `vscode`, `goose`, ...), to build one of your own
 * from. `undefined` when there is none.
 *
 * @example
 * builtInProfile('codex')?.names; // ['codex-mcp-client']
 */
export function builtInProfile(id: string): HostProfile | undefined {
  return HOST_PROFILES.find((profile) => profile.id === id);
}

/**
 * The first profile of `table` whose names include the client's `clientInfo.name` (exactly) and
 * whose version range holds its `clientInfo.version`; `undefined` for a host no profile knows.
 *
 * @example
 * hostProfileFor(HOST_PROFILES, { name: 'codex-mcp-client', version: '0.154.0' })?.id; // 'codex'
 * hostProfileFor(HOST_PROFILES, { name: 'mcp', version: '0.1.0' }); // undefined: shared by many hosts
 */
export function hostProfileFor(
  table: readonly HostProfile[],
  client: ClientIdentity | undefined,
): HostProfile | undefined {
  const name = client?.name;
  if (typeof name !== 'string' || Object.hasOwn(UNKEYABLE_NAMES, name)) return undefined;
  const version = typeof client?.version === 'string' ? client.version : undefined;
  return table.find((profile) => profile.names.includes(name) && versionInRange(version, profile.versions));
}

function checkHostProfile(profile: HostProfile, index: number): void {
  const where = `hosts.profiles[${index}]${typeof profile?.id === 'string' ? ` (${profile.id})` : ''}`;
  if (typeof profile !== 'object' || profile === null)
    throw new TypeError(`${where} must be a host profile object.`);
  if (typeof profile.id !== 'string' || profile.id === '')
    throw new TypeError(`${where} needs an id: a short name like "my-host".`);
  if (
    !Array.isArray(profile.names) ||
    profile.names.length === 0 ||
    !profile.names.every((n) => typeof n === 'string')
  )
    throw new TypeError(`${where} needs names: the clientInfo.name values it matches, like ["my-host"].`);
  for (const name of profile.names)
    if (Object.hasOwn(UNKEYABLE_NAMES, name))
      throw new TypeError(
        `${where} is keyed on "${name}", which is ${UNKEYABLE_NAMES[name]}: a profile for it would reach every one of them. Ask the host to send a clientInfo of its own.`,
      );
  if (profile.versions !== undefined) {
    try {
      checkVersionRange(profile.versions);
    } catch (error) {
      throw new TypeError(`${where}: versions ${(error as Error).message}.`);
    }
  }
  for (const key of ['wire', 'forms', 'url'] as const)
    if (typeof profile[key] !== 'object' || profile[key] === null || !('value' in profile[key]))
      throw new TypeError(
        `${where} needs ${key}: { value, sources, seenOn } (start from builtInProfile(id) to change one fact).`,
      );
}
