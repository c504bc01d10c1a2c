import type { ListenOptions } from '@parley/server';
import type { Store } from './db.js';

/**
 * Verifies `Authorization: Bearer <token>` against the store's API tokens. The user becomes the
 * request's verified principal (`extra.sub`); a missing or unknown token makes the request anonymous.
 */
export function bearerAuth(store: Store): NonNullable<ListenOptions['authenticate']> {
  return (request) => {
    const match = /^Bearer ([A-Za-z0-9_-]{20,200})$/.exec(request.headers.get('authorization') ?? '');
    const user = match ? store.userForToken(match[1]!) : undefined;
    if (!match || !user) return undefined;
    return { token: match[1]!, clientId: 'brightgrid-api-token', scopes: [], extra: { sub: user } };
  };
}
