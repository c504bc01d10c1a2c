/**
 * CPU profiles of workload (a) at concurrency 16: which functions of each server spend the time.
 * The server's own V8 profiler (the one `node --cpu-prof` uses) runs only while the measured load
 * runs, after warm-up. The `.cpuprofile` files land in bench/results/ (kept out of git); open them
 * in Chrome DevTools or VS Code for the full picture.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runLoad } from '../load/run-load.js';
import { isCpuProfile } from '../profile/cpu-profile.js';
import { type ProfileSummary, summarizeProfile } from '../profile/self-time.js';
import { SourceLocator } from '../profile/source-location.js';
import type { ServerKind } from '../servers/kinds.js';
import type { ServerProcess } from '../servers/spawn.js';

const SDK = ['@modelcontextprotocol/server', '@modelcontextprotocol/core'];
const PARLEY = ['@parley/server', '@parley/core'];
/** The gateway is a Parley server to its hosts and the SDK's client (through `@parley/client`) to its upstream. */
const GATEWAY = ['@parley/gateway'];
const SDK_CLIENT = ['@modelcontextprotocol/client'];

/** Whose functions count as the server's own code, for total (inclusive) time. */
const FIRST_PARTY: Record<ServerKind, readonly string[]> = {
  parley: PARLEY,
  sdk: [...SDK, 'bench'],
  floor: ['bench'],
  'json-floor': ['bench'],
  'sdk-floor': [...SDK, 'bench'],
  'parley-use': PARLEY,
  'parley-otel': [...PARLEY, '@opentelemetry/api'],
  'parley-features': [...PARLEY, '@opentelemetry/api'],
  'sdk-sessions': [...SDK, 'bench'],
  gateway: GATEWAY,
  'client-floor': ['bench'],
  'forward-floor': ['bench'],
};

/** The `byParty` name of the official SDK's work. */
export const SDK_PARTY = 'the SDK';

/** On whose behalf each server's time is spent (`byParty`): the server's own code, and the SDK's. */
const PARTIES: Record<ServerKind, Readonly<Record<string, readonly string[]>>> = {
  parley: { Parley: PARLEY, [SDK_PARTY]: SDK },
  'parley-use': { Parley: PARLEY, [SDK_PARTY]: SDK },
  'parley-otel': { Parley: [...PARLEY, '@opentelemetry/api'], [SDK_PARTY]: SDK },
  'parley-features': { Parley: [...PARLEY, '@opentelemetry/api'], [SDK_PARTY]: SDK },
  sdk: { "the bench's tool": ['bench'], [SDK_PARTY]: SDK },
  'sdk-sessions': { "the bench's tool": ['bench'], [SDK_PARTY]: SDK },
  floor: { 'the floor': ['bench'] },
  'json-floor': { 'the floor': ['bench'] },
  'sdk-floor': { 'the floor': ['bench'], [SDK_PARTY]: SDK },
  gateway: {
    'the gateway': GATEWAY,
    Parley: [...PARLEY, '@parley/client'],
    [SDK_PARTY]: [...SDK, ...SDK_CLIENT],
  },
  'client-floor': { [SDK_PARTY]: SDK_CLIENT },
  'forward-floor': {},
};

export interface ServerProfile extends ProfileSummary {
  /** The profile file, relative to the repository root. */
  readonly file: string;
}

/**
 * Profiles a warmed-up server under (a)'s flow at concurrency 16, and summarizes where its time
 * went. `name` is the profile's file name (default: `<kind>-a-c16`).
 */
export async function profileServer(
  server: ServerProcess,
  durationMs: number,
  resultsDir: string,
  repoRoot: string,
  name = `${server.kind}-a-c16`,
): Promise<ServerProfile> {
  const file = `${name}.cpuprofile`;
  await server.startProfile();
  let text: string;
  try {
    await runLoad(server, { questions: 1, concurrency: 16, durationMs });
  } finally {
    text = await server.stopProfile();
  }
  const path = join(resultsDir, file);
  await writeFile(path, text);
  const profile: unknown = JSON.parse(text);
  if (!isCpuProfile(profile)) throw new Error(`${server.kind} answered something that is not a CPU profile.`);
  const summary = summarizeProfile(profile, new SourceLocator(repoRoot), {
    limit: 15,
    firstParty: FIRST_PARTY[server.kind],
    parties: PARTIES[server.kind],
  });
  return { ...summary, file: join('bench', 'results', file) };
}
