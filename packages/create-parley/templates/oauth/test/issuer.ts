import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

/** A stand-in authorization server for the tests: it publishes one signing key and mints tokens. */
export interface TestIssuer {
  readonly issuer: string;
  readonly jwksUri: string;
  token(claims: { audience: string; scope: string; subject?: string }): Promise<string>;
  close(): Promise<void>;
}

export async function startTestIssuer(): Promise<TestIssuer> {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwks = JSON.stringify({
    keys: [{ ...(await exportJWK(publicKey)), kid: 'test', alg: 'ES256', use: 'sig' }],
  });
  const http = createServer((request, response) => {
    const found = request.url === '/jwks';
    response.writeHead(found ? 200 : 404, { 'content-type': 'application/json' }).end(found ? jwks : '{}');
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    issuer,
    jwksUri: `${issuer}/jwks`,
    token: ({ audience, scope, subject = 'alice' }) =>
      new SignJWT({ scope, client_id: 'test-client' })
        .setProtectedHeader({ alg: 'ES256', kid: 'test', typ: 'at+jwt' })
        .setIssuer(issuer)
        .setAudience(audience)
        .setSubject(subject)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(privateKey),
    close: () => new Promise((resolve) => http.close(() => resolve())),
  };
}
