import { describe, expect, it } from 'vitest';
import { allowedHosts, checkRequest } from './request-guard.js';

const hosts = allowedHosts(4280);

describe('checkRequest', () => {
  it('lets the lab page through: loopback Host with the lab port, same Origin', () => {
    expect(checkRequest({ method: 'GET', host: '127.0.0.1:4280', origin: undefined }, hosts)).toBeUndefined();
    expect(
      checkRequest({ method: 'POST', host: 'localhost:4280', origin: 'http://localhost:4280' }, hosts),
    ).toBeUndefined();
    expect(
      checkRequest({ method: 'POST', host: '[::1]:4280', origin: 'http://[::1]:4280' }, hosts),
    ).toBeUndefined();
  });

  it('refuses a Host that is not this lab (DNS rebinding) with 421', () => {
    for (const host of ['evil.example:4280', '127.0.0.1:4281', '127.0.0.1', undefined]) {
      const refusal = checkRequest({ method: 'GET', host, origin: undefined }, hosts);
      expect(refusal?.status).toBe(421);
      expect(refusal?.message).toContain('http://127.0.0.1:4280');
    }
  });

  it('refuses another origin, even on GET', () => {
    const refusal = checkRequest(
      { method: 'GET', host: '127.0.0.1:4280', origin: 'http://127.0.0.1:9999' },
      hosts,
    );
    expect(refusal?.status).toBe(403);
    expect(checkRequest({ method: 'POST', host: '127.0.0.1:4280', origin: 'null' }, hosts)?.status).toBe(403);
    expect(
      checkRequest({ method: 'POST', host: '127.0.0.1:4280', origin: 'https://127.0.0.1:4280' }, hosts)
        ?.status,
    ).toBe(403);
  });

  it('requires an Origin on requests that change something', () => {
    expect(checkRequest({ method: 'POST', host: '127.0.0.1:4280', origin: undefined }, hosts)?.status).toBe(
      403,
    );
  });

  it('compares host names without case', () => {
    expect(
      checkRequest({ method: 'GET', host: 'LOCALHOST:4280', origin: 'http://LocalHost:4280' }, hosts),
    ).toBeUndefined();
  });
});
