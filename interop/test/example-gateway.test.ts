// examples/gateway run as its README says: `parley gateway --config examples/gateway/gateway.json`
// from the repository root with the Python environment active (interop/.venv here), in front of the
// example's FastMCP server (server.py, asking with ctx.elicit) and Brightgrid over stdio; then asked
// by `parley call` (no terminal: --answers) and Parley's client on both eras.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, scripted } from '@parley/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARLEY, type RunningGateway, startGatewayProcess } from './gateway.js';
import { PYTHON, requirePython, run } from './peers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SEEDS = 'Garden centre asks: Which seeds, and how many packets?';
const PLANT = 'Garden centre asks: Which plant needs a watering plan?';
const DAYS = 'Garden centre asks: Water the fern every how many days?';
const RETURN = 'Brightgrid store asks: Book a return: tell us why, and when the courier should pick it up.';

describe('examples/gateway', () => {
  let gateway: RunningGateway;
  const dir = mkdtempSync(join(tmpdir(), 'interop-example-'));
  beforeAll(async () => {
    requirePython();
    // As after `source interop/.venv/bin/activate`: the config's `python3` is the environment's.
    const env = { ...process.env, PATH: `${dirname(PYTHON)}:${process.env.PATH ?? ''}` };
    gateway = await startGatewayProcess(['--config', 'examples/gateway/gateway.json'], ['garden', 'store'], {
      cwd: ROOT,
      env,
    });
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  /** `parley call <gateway> <tool> --era <era> --answers <answers>`. */
  async function call(tool: string, era: 'modern' | 'handshake', answers: Record<string, unknown>) {
    const file = join(dir, `${tool}-${era}-${Object.keys(answers).length}.json`);
    writeFileSync(file, JSON.stringify(answers));
    return run(process.execPath, [PARLEY, 'call', gateway.url, tool, '--era', era, '--answers', file]);
  }

  it('lists both upstreams’ tools under their names', async () => {
    const client = await connect(gateway.url, { ui: scripted({}) });
    try {
      const names = (await client.listTools()).map((tool) => tool.name);
      expect(names).toEqual(
        expect.arrayContaining(['garden_order_seeds', 'garden_plan_watering', 'store_book_return']),
      );
    } finally {
      await client.close();
    }
  });

  it.each([
    ['modern', '2026-07-28'],
    ['handshake', '2025-11-25'],
  ] as const)(
    'orders seeds and plans watering from FastMCP’s ctx.elicit, for a %s host',
    async (era, revision) => {
      const before = gateway.audit().length;
      const seeds = await call('garden_order_seeds', era, {
        [SEEDS]: { variety: 'basil', packets: 3, organic: true },
      });
      expect([seeds.code, seeds.stdout.trim()], seeds.stderr).toEqual([
        0,
        'Ordered 3 packet(s) of organic basil seeds.',
      ]);
      const plan = await call('garden_plan_watering', era, {
        [PLANT]: { value: 'fern' },
        [DAYS]: { value: 4 },
      });
      expect([plan.code, plan.stdout.trim()], plan.stderr).toEqual([0, 'Water the fern every 4 day(s).']);
      const declined = await call('garden_plan_watering', era, {
        [PLANT]: { value: 'fern' },
        [DAYS]: { action: 'decline' },
      });
      expect([declined.code, declined.stdout.trim()]).toEqual([0, 'No plan (decline).']);
      // FastMCP offers 2026-07-28 over stdio, but ctx.elicit asks only over the handshake: the gateway
      // called each tool again on a 2025 session.
      expect(
        gateway
          .audit()
          .slice(before)
          .map((event) => [event.name, event.pairing, event.outcome]),
      ).toEqual([
        ['garden_order_seeds', `${revision} > 2025-11-25`, 'accept'],
        ['garden_plan_watering', `${revision} > 2025-11-25`, 'accept'],
        ['garden_plan_watering', `${revision} > 2025-11-25`, 'accept'],
        ['garden_plan_watering', `${revision} > 2025-11-25`, 'accept'],
        ['garden_plan_watering', `${revision} > 2025-11-25`, 'decline'],
      ]);
    },
  );

  it('books a Brightgrid return, the fields left out filled with the form’s defaults', async () => {
    const booked = await call('store_book_return', 'modern', { [RETURN]: { reason: 'Broken', boxes: 1 } });
    expect(booked.code, booked.stderr).toBe(0);
    expect(booked.stdout.trim()).toMatch(
      /^Return #\d+ booked \(Broken\): the courier collects 1 box on \d{4}-\d{2}-\d{2}; the label goes to alice@brightgrid\.example\.$/,
    );
    expect(gateway.audit().at(-1)).toMatchObject({
      upstream: 'store',
      name: 'store_book_return',
      pairing: '2026-07-28 > 2026-07-28',
      outcome: 'accept',
    });
  });
});
