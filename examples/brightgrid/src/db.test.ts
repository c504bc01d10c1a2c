import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from './db.js';

const opened: Store[] = [];
function open(dir = mkdtempSync(join(tmpdir(), 'brightgrid-db-')), now?: () => Date) {
  const store = openStore({ dir, ...(now && { now }) });
  opened.push(store);
  return store;
}
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

const aReturn = {
  reason: 'Broken',
  email: 'alice@example.com',
  boxes: 2,
  pickupDate: '2030-01-02',
  giftWrap: false,
} as const;

describe('Store', () => {
  it('seeds the demo users with their passwords, and refuses wrong or unknown ones', async () => {
    const store = open();
    expect(store.user('alice')).toEqual({
      name: 'alice',
      displayName: 'Alice Liddell',
      email: 'alice@brightgrid.example',
    });
    expect((await store.checkPassword('alice', 'wonderland'))?.name).toBe('alice');
    expect((await store.checkPassword('bob', 'bricklayer'))?.name).toBe('bob');
    expect(await store.checkPassword('alice', 'bricklayer')).toBeUndefined();
    expect(await store.checkPassword('mallory', 'wonderland')).toBeUndefined();
  });

  it('keeps what was booked when the folder is opened again, without seeding twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'brightgrid-db-'));
    const first = open(dir);
    const booked = first.addReturn('alice', aReturn);
    first.setProductTags('BG-300', ['gift', 'new']);
    first.close();
    opened.splice(opened.indexOf(first), 1);
    const again = open(dir);
    expect(again.returns('alice')).toEqual([booked]);
    expect(again.product('BG-300')?.tags).toEqual(['gift', 'new']);
    expect((await again.checkPassword('alice', 'wonderland'))?.name).toBe('alice');
    expect(again.destinations()).toHaveLength(4);
  });

  it('lists a user’s returns newest first, and only theirs', () => {
    const store = open(undefined, () => new Date('2026-08-01T10:00:00Z'));
    const one = store.addReturn('alice', aReturn);
    const two = store.addReturn('alice', { ...aReturn, reason: 'Wrong item', boxes: 1, giftWrap: true });
    store.addReturn('bob', aReturn);
    expect(store.returns('alice')).toEqual([two, one]);
    expect(two).toMatchObject({ user: 'alice', giftWrap: true, bookedAt: '2026-08-01T10:00:00.000Z' });
  });

  it('adds the idempotency key to a database made before it existed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'brightgrid-db-'));
    const old = new Database(join(dir, 'brightgrid.sqlite'));
    old.exec(`CREATE TABLE returns (
      id INTEGER PRIMARY KEY, user TEXT NOT NULL, reason TEXT NOT NULL, email TEXT NOT NULL,
      boxes INTEGER NOT NULL CHECK (boxes BETWEEN 1 AND 3), pickup_date TEXT NOT NULL,
      gift_wrap INTEGER NOT NULL, booked_at TEXT NOT NULL)`);
    old.close();
    const store = open(dir);
    const booked = store.addReturn('alice', aReturn, 'call-9.book');
    expect(store.addReturn('alice', aReturn, 'call-9.book')).toEqual(booked);
  });

  it('books once per idempotency key, across processes sharing the folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'brightgrid-db-'));
    const a = open(dir);
    const b = open(dir);
    const first = a.addReturn('alice', aReturn, 'call-1.book');
    expect(b.addReturn('alice', { ...aReturn, boxes: 3 }, 'call-1.book')).toEqual(first);
    const flight = a.addFlight('alice', 'OSL', '2030-02-01', 'call-2.book');
    expect(b.addFlight('alice', 'OSL', '2030-02-01', 'call-2.book')).toEqual(flight);
    const window = '2030-03-01T09:00:00Z';
    const deployment = a.addDeployment(
      'bob',
      { service: 'api', version: '1.2.0', environment: 'staging', notify: true, window },
      'call-3.schedule',
    );
    expect(
      b.addDeployment(
        'bob',
        { service: 'api', version: '9.9.9', environment: 'staging', notify: false, window },
        'call-3.schedule',
      ),
    ).toEqual(deployment);
    expect(a.returns('alice')).toHaveLength(1);
    expect(a.flights('alice')).toHaveLength(1);
    expect(a.deployments('bob')).toHaveLength(1);
    // Without a key, every call books.
    a.addReturn('alice', aReturn);
    expect(b.returns('alice')).toHaveLength(2);
  });

  it('refuses a return of more than three boxes at the database', () => {
    expect(() => open().addReturn('alice', { ...aReturn, boxes: 4 })).toThrow(/CHECK constraint/);
  });

  it('issues API tokens it can resolve, and stores only their hashes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'brightgrid-db-'));
    const store = open(dir);
    const token = store.issueToken('bob');
    expect(store.userForToken(token)).toBe('bob');
    expect(store.userForToken(`${token}x`)).toBeUndefined();
    store.close();
    opened.splice(opened.indexOf(store), 1);
    const files = readdirSync(dir).map((name) => readFileSync(join(dir, name)).toString('latin1'));
    expect(files.some((bytes) => bytes.includes(token))).toBe(false);
  });

  it('ends API tokens when revoked and after a day', () => {
    let now = new Date('2026-08-01T10:00:00Z');
    const store = openStore({ dir: ':memory:', now: () => now });
    opened.push(store);
    const [kept, revoked] = [store.issueToken('alice'), store.issueToken('alice')];
    store.revokeTokens([revoked]);
    expect(store.userForToken(revoked)).toBeUndefined();
    now = new Date('2026-08-02T09:59:59Z');
    expect(store.userForToken(kept)).toBe('alice');
    now = new Date('2026-08-02T10:00:01Z');
    expect(store.userForToken(kept)).toBeUndefined();
  });

  it('ends web sessions when asked and when they expire', () => {
    let now = new Date('2026-08-01T10:00:00Z');
    const store = openStore({ dir: ':memory:', now: () => now, sessionSeconds: 60 });
    opened.push(store);
    const session = store.startWebSession('alice');
    expect(store.webSession(session.id)).toEqual({ user: 'alice', csrf: session.csrf });
    now = new Date('2026-08-01T10:01:01Z');
    expect(store.webSession(session.id)).toBeUndefined();
    now = new Date('2026-08-01T10:00:00Z');
    store.endWebSession(session.id);
    expect(store.webSession(session.id)).toBeUndefined();
  });

  it('books flights at the catalogue fare and refuses unknown destinations', () => {
    const store = open();
    const flight = store.addFlight('alice', 'OSL', '2030-03-04');
    expect(flight).toMatchObject({ city: 'Oslo', fareEur: 164, date: '2030-03-04' });
    expect(store.flights('alice')).toEqual([flight]);
    expect(() => store.addFlight('alice', 'XXX', '2030-03-04')).toThrow(/No destination XXX/);
  });

  it('records deployments with their booleans intact', () => {
    const store = open();
    const deployment = store.addDeployment('bob', {
      service: 'checkout',
      version: '1.2.3',
      environment: 'production',
      notify: false,
      window: '2030-01-01T09:00:00+01:00',
    });
    expect(store.deployments('bob')).toEqual([deployment]);
    expect(deployment.notify).toBe(false);
  });

  it('replaces product tags, refusing unknown products and tags', () => {
    const store = open();
    expect(store.product('BG-100')?.tags).toEqual(['bestseller']);
    expect(store.setProductTags('BG-100', ['sale', 'eco']).tags).toEqual(['eco', 'sale']);
    expect(() => store.setProductTags('BG-999', ['eco'])).toThrow(/No product BG-999/);
    expect(() => store.setProductTags('BG-100', ['nonsense'])).toThrow(/FOREIGN KEY/);
    expect(store.product('BG-100')?.tags).toEqual(['eco', 'sale']);
  });

  it('remembers one store link per user', () => {
    const store = open();
    expect(store.storeLink('alice')).toBeUndefined();
    store.linkStoreAccount('alice', 'Lab');
    const link = store.linkStoreAccount('alice', 'Parley lab');
    expect(store.storeLink('alice')).toEqual(link);
  });
});
