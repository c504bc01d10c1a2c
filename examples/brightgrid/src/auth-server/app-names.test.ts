import { describe, expect, it } from 'vitest';
import { isLoopbackRedirect, nameSkeleton, redirectUriProblem, reservedNameProblem } from './app-names.js';

const EVIL = ['https://evil.example/cb'];
const LOOPBACK = ['http://127.0.0.1:49152/callback'];

describe('names a self-registered app may not take (issue 24, finding 4)', () => {
  it.each([
    'Parley',
    'Parley lab',
    'parley-lab',
    'P a r l e y   L a b',
    'Pаrley lab', // Cyrillic а
    'PARLEY',
    'ParIey lab', // capital I for l
    'Pärley', // an accent
    'Official Parley client',
  ])('refuses %j with a redirect off this computer', (name) => {
    expect(reservedNameProblem(name, EVIL)).toMatch(/belong to Parley's hosts/);
  });

  it('lets a Parley host register its name with a loopback redirect, as the lab and the CLI do', () => {
    expect(reservedNameProblem('Parley lab', LOOPBACK)).toBeUndefined();
    expect(reservedNameProblem('Parley (parley command)', ['http://[::1]:5000/cb'])).toBeUndefined();
    expect(reservedNameProblem('Parley lab', [...LOOPBACK, ...EVIL])).toMatch(/Parley/);
    expect(reservedNameProblem('Parley lab', [])).toMatch(/Parley/);
  });

  it.each(['Brightgrid store', 'brightgrid', 'Bright grid ID', 'Brightgr1d'])(
    'never lets an app take %j',
    (name) => {
      expect(reservedNameProblem(name, LOOPBACK)).toMatch(/Brightgrid's own apps/);
    },
  );

  it.each(['Shop Helper', 'Claude', 'Paris Lab', 'parlor'])('lets %j through', (name) => {
    expect(reservedNameProblem(name, EVIL)).toBeUndefined();
  });

  it('reduces a name to what a person reads', () => {
    expect(nameSkeleton('Pаrley-Lab 1')).toBe(nameSkeleton('parley lab l'));
  });
});

describe('redirect URIs (issue 24, finding 7)', () => {
  it.each([
    ['http://evil.example/cb', /plain http off this computer/],
    ['http://192.168.1.5/cb', /plain http off this computer/],
    ['https://user:pw@evil.example/cb', /user name or password/],
    ['https://alice@shop.example/cb', /user name or password/],
    ['http://user@127.0.0.1:9/cb', /user name or password/],
  ])('refuses %s', (uri, reason) => {
    expect(redirectUriProblem(uri)).toMatch(reason);
  });

  it.each([
    'https://shop.example/cb',
    'http://127.0.0.1:9/callback',
    'http://[::1]:9/cb',
    'http://localhost:9/cb',
    'com.example.app:/cb',
  ])('accepts %s', (uri) => {
    expect(redirectUriProblem(uri)).toBeUndefined();
  });

  it('knows a loopback redirect', () => {
    expect(isLoopbackRedirect('http://127.0.0.1:1/cb')).toBe(true);
    expect(isLoopbackRedirect('https://127.0.0.1:1/cb')).toBe(false);
    expect(isLoopbackRedirect('http://127.0.0.1.evil.example/cb')).toBe(false);
  });
});
