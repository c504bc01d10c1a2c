// A server that offers 2026-07-28 but whose tools can only ask on the handshake era (FastMCP 4.0's
// ctx.elicit) fails with its own error; parley names the way out (issue 14, finding 8).
import { describe, expect, it } from 'vitest';
import { fixture, runParley } from './run-parley.js';

const rogue = `node "${fixture('rogue-server.mjs')}"`;

describe('parley against a tool that only works on the handshake era', () => {
  it('tells the person to try --era handshake', async () => {
    const run = await runParley(['call', rogue, 'handshake_only']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('unavailable on 2026-07-28 connections');
    expect(run.stderr).toBe(
      'parley: handshake_only reported an error\n' +
        'parley: rogue answered on 2026-07-28 that this tool needs the older handshake era; try again with --era handshake\n',
    );
  });

  it('says nothing more for an ordinary tool error', async () => {
    const run = await runParley(['call', `node "${fixture('stdio-server.mjs')}"`, 'fail']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('parley: fail reported an error\n');
  });
});
