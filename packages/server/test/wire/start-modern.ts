import type { FixtureEnv } from './fixture-env.js';
import { startHttpWire } from './http-wire.js';
import type { ModernWire } from './modern-envelope.js';
import { startStdioWire } from './stdio-wire.js';

export type Transport = 'stdio' | 'http';

/** Starts a fixture process on `transport` and returns a 2026-07-28 connection to it. */
export function startModernWire(transport: Transport, env: FixtureEnv = {}): Promise<ModernWire> {
  return transport === 'stdio' ? startStdioWire(env) : startHttpWire(env);
}
