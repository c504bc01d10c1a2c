import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { importClientKey } from './private-key.js';

describe('importClientKey', () => {
  it('reads PEM keys and picks the algorithm their type calls for', async () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    expect((await importClientKey(ec.export({ format: 'pem', type: 'pkcs8' }) as string)).alg).toBe('ES256');
    // A traditional "EC PRIVATE KEY" file works as well as PKCS #8.
    expect((await importClientKey(ec.export({ format: 'pem', type: 'sec1' }) as string)).alg).toBe('ES256');
    expect((await importClientKey(rsa.export({ format: 'pem', type: 'pkcs1' }) as string)).alg).toBe('RS256');
    expect((await importClientKey(rsa.export({ format: 'pem', type: 'pkcs8' }) as string, 'PS256')).alg).toBe(
      'PS256',
    );
  });

  it('reads a private JWK, its own alg first', async () => {
    const jwk = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ format: 'jwk' });
    const { key, alg } = await importClientKey({ ...jwk, alg: 'ES384' });
    expect(alg).toBe('ES384');
    expect(key.type).toBe('private');
  });

  it('refuses what is not a private key without quoting it', async () => {
    const publicPem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({
      format: 'pem',
      type: 'spki',
    }) as string;
    const refusal = importClientKey(publicPem);
    await expect(refusal).rejects.toThrow(/cannot be read: give a PEM private key/);
    await expect(refusal).rejects.not.toThrow(/BEGIN/);
    await expect(importClientKey('not a key')).rejects.toThrow(/cannot be read/);
  });

  it('refuses an algorithm the key cannot sign with', async () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
      format: 'pem',
      type: 'pkcs8',
    }) as string;
    await expect(importClientKey(ec, 'RS256')).rejects.toThrow(/cannot sign with RS256/);
  });
});
