import type * as oauth from 'oauth4webapi';
import { describe, expect, it } from 'vitest';
import { dpopAlgorithm, dpopHandle, newDpopKey } from './dpop.js';
import { parseChallenges } from './www-authenticate.js';

const as = (algs?: string[]): oauth.AuthorizationServer => ({
  issuer: 'https://as.example',
  ...(algs !== undefined && { dpop_signing_alg_values_supported: algs }),
});
const signals = (challenge: string, options: { algs?: string[]; required?: boolean } = {}) => ({
  policy: 'auto' as const,
  challenges: parseChallenges(challenge),
  required: options.required ?? false,
  as: as(options.algs),
});

describe('dpopAlgorithm', () => {
  it('binds tokens when the server offers DPoP and the authorization server signs one of our algorithms', () => {
    expect(dpopAlgorithm(signals('DPoP algs="ES256"', { algs: ['PS256', 'ES256'] }))).toBe('ES256');
    expect(dpopAlgorithm(signals('Bearer scope="a", DPoP algs="PS256"', { algs: ['PS256'] }))).toBe('PS256');
  });

  it('keeps bearer tokens when the server does not ask, whatever the authorization server offers', () => {
    expect(dpopAlgorithm(signals('Bearer scope="a"', { algs: ['ES256'] }))).toBeUndefined();
    expect(dpopAlgorithm({ ...signals('Bearer', { algs: ['ES256'] }), policy: 'always' })).toBe('ES256');
  });

  it('tries DPoP when the server accepts nothing else, even if the authorization server does not say', () => {
    expect(dpopAlgorithm(signals('DPoP algs="ES256"'))).toBe('ES256');
    expect(dpopAlgorithm(signals('Bearer', { required: true }))).toBe('ES256');
    // The server also takes bearer tokens and the authorization server offers no DPoP: bearer.
    expect(dpopAlgorithm(signals('Bearer, DPoP'))).toBeUndefined();
  });

  it('refuses with the reason when the server requires DPoP and it cannot be had', () => {
    expect(() => dpopAlgorithm(signals('DPoP', { algs: ['EdDSA'] }))).toThrow(/signs DPoP proofs with none/);
    expect(() => dpopAlgorithm({ ...signals('DPoP'), policy: 'never' })).toThrow(/dpop: 'never'/);
    expect(dpopAlgorithm({ ...signals('Bearer, DPoP'), policy: 'never' })).toBeUndefined();
  });
});

describe('DPoP keys', () => {
  it('keeps a key as JSON a store can hold and signs proofs with it after a round trip', async () => {
    const key = await newDpopKey('ES256');
    const stored = JSON.parse(JSON.stringify(key)) as typeof key;
    expect(Object.keys(stored.jwk).sort()).toEqual(['crv', 'd', 'kty', 'x', 'y']);
    const handle = await dpopHandle(stored);
    expect(await handle.calculateThumbprint()).toMatch(/^[\w-]{43}$/);
  });

  it('refuses a stored key it cannot read, naming the fix', async () => {
    await expect(dpopHandle({ alg: 'ES256', jwk: { kty: 'EC', crv: 'P-256' } })).rejects.toThrow(
      /sign out of the server and sign in again/,
    );
  });
});
