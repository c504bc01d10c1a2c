import { describe, expect, it } from 'vitest';
import { SESSION_BUS } from '../sessions/forward-wire.js';
import { BusSeal } from './bus-seal.js';

const secret = (fill: number) => Buffer.alloc(32, fill).toString('base64');
const CHANNEL = 'parley:session:to:r2-1';
const header = { t: 'req', id: 'm1', from: 'r1-1' };
const body = {
  method: 'POST',
  url: 'http://127.0.0.1:4000/mcp',
  headers: [['authorization', 'Bearer alice-secret']],
  until: 5,
};
const seal = (fill = 1, id = 'k1') => BusSeal.create([{ id, secret: secret(fill) }], SESSION_BUS);

// The gateway's bus (its own format) is tested in @parley/gateway (live-bus.test.ts).
describe('the seal of a fleet bus, on the session bus', () => {
  it('carries a message whole, its content unreadable on the channel', async () => {
    const bus = await seal();
    const { text } = await bus.seal(CHANNEL, header, body);
    expect(text).toMatch(/^ps1\.req\.m1\.r1-1\.[A-Za-z0-9_-]+$/);
    expect(text).not.toContain('alice-secret');
    expect(await bus.open(CHANNEL, text, 1e6)).toEqual({ message: { ...body, ...header } });
  });

  it('has keys of its own: the same fleet keys on another bus or a forger without them open nothing', async () => {
    const bus = await seal();
    const other = await BusSeal.create([{ id: 'k1', secret: secret(1) }], {
      ...SESSION_BUS,
      salt: 'another bus',
    });
    const notOpen =
      'a message that does not open with the fleet keys (forged, altered, or meant for another replica)';
    expect(await bus.open(CHANNEL, (await other.seal(CHANNEL, header, body)).text, 1e6)).toEqual({
      dropped: notOpen,
    });
    const forger = await seal(2);
    expect(await bus.open(CHANNEL, (await forger.seal(CHANNEL, header, body)).text, 1e6)).toEqual({
      dropped: notOpen,
    });
    const stranger = await seal(1, 'k9');
    expect(await bus.open(CHANNEL, (await stranger.seal(CHANNEL, header, body)).text, 1e6)).toEqual({
      dropped:
        'a message sealed with a key this replica does not have (is stateKeys / PARLEY_STATE_KEYS the same on every replica?)',
    });
    expect(await bus.open(CHANNEL, JSON.stringify({ ...header, ...body }), 1e6)).toEqual({
      dropped: 'a message that is not sealed for the session bus',
    });
  });

  it('drops what opens but its reader refuses, and what shows another kind than it sealed', async () => {
    const bus = await seal();
    const { text } = await bus.seal(CHANNEL, header, { ...body, method: 'PUT' });
    expect(await bus.open(CHANNEL, text, 1e6)).toEqual({
      dropped: 'a request whose method is not GET, POST or DELETE',
    });
    // Sealed as a cancel while it says it is a request: the associated data binds the kind.
    const cancel = await bus.seal(CHANNEL, { ...header, t: 'cancel' }, { req: 'm0', until: 5 });
    expect(await bus.open(CHANNEL, cancel.text.replace('ps1.cancel.', 'ps1.req.'), 1e6)).toEqual({
      dropped:
        'a message that does not open with the fleet keys (forged, altered, or meant for another replica)',
    });
  });

  it('refuses a format whose version cannot lead a message', async () => {
    await expect(
      BusSeal.create([{ id: 'k1', secret: secret(1) }], { ...SESSION_BUS, version: 'p.1' }),
    ).rejects.toThrow(/version is 1 to 16 lowercase letters and digits/);
  });
});
