import { describe, expect, it } from 'vitest';
import { builtInProfile, hostProfileFor, hostTable, UNKEYABLE_NAMES } from './match.js';
import { HOST_PROFILES } from './profiles.js';
import { HOST_SOURCES } from './sources.js';
import type { HostFact, HostProfile } from './types.js';

const REQUIRED_HOSTS = [
  'Visual Studio Code',
  'github-copilot-developer',
  'claude-code',
  'claude-ai',
  'codex-mcp-client',
  'cursor-vscode',
  'gemini-cli-mcp-client',
  'goose-desktop',
  '@librechat/api-client',
  'mcp-inspector',
  'mcpjam-inspector',
  'mcp-use',
  'fast-agent-mcp',
];

/** Every fact of a profile, wherever it sits. */
function factsOf(profile: HostProfile): HostFact<unknown>[] {
  const top = [profile.wire, profile.forms, profile.url, profile.rootKeys, profile.defaults];
  const more = [
    profile.falsyDefaults,
    profile.untouched,
    profile.emptyForm,
    profile.wait,
    ...(profile.notes ?? []),
  ];
  return [...top, ...more, ...Object.values(profile.fields ?? {})].filter(
    (fact): fact is HostFact<unknown> => fact !== undefined,
  );
}

describe('the host table', () => {
  it('covers every host the issue names', () => {
    for (const name of REQUIRED_HOSTS)
      expect(hostProfileFor(HOST_PROFILES, { name, version: '1.0.0' })).toBeDefined();
  });

  it('gives every fact a source that exists and the versions it was seen on', () => {
    for (const profile of HOST_PROFILES)
      for (const fact of factsOf(profile)) {
        expect(fact.sources.length, `${profile.id}: ${JSON.stringify(fact.value)}`).toBeGreaterThan(0);
        for (const key of fact.sources) expect(HOST_SOURCES[key], `${profile.id} cites ${key}`).toBeDefined();
        expect(fact.seenOn).not.toBe('');
      }
  });

  it('never keys a profile on a shared name, and has one id per profile', () => {
    const ids = HOST_PROFILES.map((profile) => profile.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const profile of HOST_PROFILES)
      for (const name of profile.names) expect(Object.hasOwn(UNKEYABLE_NAMES, name)).toBe(false);
  });

  it('replays each host’s own clientInfo name', () => {
    for (const profile of HOST_PROFILES) expect(profile.names).toContain(profile.wire.value.clientInfo.name);
  });
});

describe('hostProfileFor', () => {
  it('matches the exact name, whatever the version where the version says nothing', () => {
    // cursor-vscode always says 1.0.0: its profile has no range, so any version reaches it.
    expect(hostProfileFor(HOST_PROFILES, { name: 'cursor-vscode', version: '1.0.0' })?.id).toBe('cursor');
    expect(hostProfileFor(HOST_PROFILES, { name: 'cursor-vscode', version: '9.9.9' })?.id).toBe('cursor');
    expect(hostProfileFor(HOST_PROFILES, { name: 'Cursor-vscode' })).toBeUndefined();
    expect(hostProfileFor(HOST_PROFILES, { name: 'Visual Studio Code - Insiders' })).toBeUndefined();
  });

  it('never matches the Python SDK’s default name, nor a client that sent none', () => {
    expect(hostProfileFor(HOST_PROFILES, { name: 'mcp', version: '0.1.0' })).toBeUndefined();
    expect(hostProfileFor(HOST_PROFILES, undefined)).toBeUndefined();
    expect(hostProfileFor(HOST_PROFILES, { version: '1.0.0' })).toBeUndefined();
  });

  it('keys Claude Code by version: before about 2.1.108 it declared a URL mode it answered cancel', () => {
    expect(hostProfileFor(HOST_PROFILES, { name: 'claude-code', version: '2.1.87' })?.url.value).toBe(
      'distrusted',
    );
    expect(hostProfileFor(HOST_PROFILES, { name: 'claude-code', version: '2.1.221' })?.id).toBe(
      'claude-code',
    );
    expect(hostProfileFor(HOST_PROFILES, { name: 'claude-code', version: 'dev' })?.id).toBe('claude-code');
  });

  it('keys by version range', () => {
    const old: HostProfile = {
      ...builtInProfile('copilot-cli')!,
      id: 'copilot-cli-old',
      versions: '<1.0.25',
    };
    const table = hostTable({ profiles: [old] });
    expect(hostProfileFor(table, { name: 'github-copilot-developer', version: '1.0.0' })?.id).toBe(
      'copilot-cli-old',
    );
    expect(hostProfileFor(table, { name: 'github-copilot-developer', version: '1.0.83' })?.id).toBe(
      'copilot-cli',
    );
  });
});

describe('hostTable', () => {
  it('puts the author’s profiles first, replacing a built-in one by id', () => {
    const mine: HostProfile = { ...builtInProfile('codex')!, wait: undefined };
    const table = hostTable({ profiles: [mine] });
    expect(table[0]).toBe(mine);
    expect(table.filter((profile) => profile.id === 'codex')).toHaveLength(1);
    expect(hostTable({ builtIn: false })).toEqual([]);
  });

  it('refuses a profile it cannot use, naming the fix', () => {
    const codex = builtInProfile('codex')!;
    expect(() => hostTable({ profiles: [{ ...codex, names: ['mcp'] }] })).toThrow(/Python SDK.*Ask the host/);
    expect(() => hostTable({ profiles: [{ ...codex, names: [] }] })).toThrow(/needs names/);
    expect(() => hostTable({ profiles: [{ ...codex, versions: 'latest' }] })).toThrow(
      /versions .*comparators/,
    );
    expect(() => hostTable({ profiles: [{ ...codex, forms: undefined as never }] })).toThrow(/needs forms/);
  });
});
