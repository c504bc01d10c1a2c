import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiTokenAuth, bearerAuth } from './auth.js';
import { openStore, type Store } from './db.js';

let store: Store;
beforeEach(() => {
  store = openStore({ dir: ':memory:' });
});
afterEach(() => store.close());

const withAuthorization = (value: string) =>
  new Request('http://127.0.0.1/mcp', { headers: { authorization: value } });

describe('bearerAuth', () => {
  it('makes the token’s user the verified principal', async () => {
    const token = store.issueToken('bob');
    expect(await bearerAuth(store)(withAuthorization(`Bearer ${token}`))).toEqual({
      token,
      clientId: 'brightgrid-api-token',
      scopes: [],
      extra: { sub: 'bob' },
    });
  });

  it.each([
    ['no header', undefined],
    ['an unknown token', 'Bearer AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['another scheme', 'Basic YWxpY2U6d29uZGVybGFuZA=='],
    ['a token with spaces', 'Bearer abc def ghi jkl mno pqr stu'],
  ])('treats %s as anonymous', async (_case, header) => {
    store.issueToken('alice');
    const request = header === undefined ? new Request('http://127.0.0.1/mcp') : withAuthorization(header);
    expect(await bearerAuth(store)(request)).toBeUndefined();
  });
});

describe('apiTokenAuth', () => {
  it('refuses a token the store does not know (revoked, or never issued) with 401 invalid_token', async () => {
    const token = store.issueToken('alice');
    store.revokeTokens([token]);
    const refused = await apiTokenAuth(store)(withAuthorization(`Bearer ${token}`));
    expect(refused).toBeInstanceOf(Response);
    const response = refused as Response;
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_token');
  });

  it('keeps a known token’s user, and a request with no Authorization anonymous', async () => {
    const token = store.issueToken('bob');
    expect(await apiTokenAuth(store)(withAuthorization(`Bearer ${token}`))).toMatchObject({
      extra: { sub: 'bob' },
    });
    expect(await apiTokenAuth(store)(new Request('http://127.0.0.1/mcp'))).toBeUndefined();
  });
});
