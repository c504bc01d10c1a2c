import { describe, expect, it } from 'vitest';
import { addsScope, chooseScope, scopeUnion } from './scopes.js';

describe('chooseScope', () => {
  const none = {
    challenged: undefined,
    previous: undefined,
    resourceScopes: undefined,
    serverScopes: undefined,
  };

  it('takes the challenge scope first, then every scope the resource lists, else none', () => {
    expect(chooseScope({ ...none, challenged: 'a', resourceScopes: ['x', 'y'], offlineAccess: true })).toBe(
      'a',
    );
    expect(chooseScope({ ...none, resourceScopes: ['x', 'y'], offlineAccess: true })).toBe('x y');
    expect(chooseScope({ ...none, offlineAccess: true })).toBeUndefined();
  });

  it('keeps the scopes asked for before when stepping up (SEP-2350)', () => {
    expect(chooseScope({ ...none, challenged: 'write', previous: 'read', offlineAccess: false })).toBe(
      'read write',
    );
  });

  it('adds offline_access only when the authorization server lists it', () => {
    const base = { ...none, challenged: 'read' };
    expect(chooseScope({ ...base, serverScopes: ['read', 'offline_access'], offlineAccess: true })).toBe(
      'read offline_access',
    );
    expect(chooseScope({ ...base, serverScopes: ['read'], offlineAccess: true })).toBe('read');
    expect(chooseScope({ ...base, serverScopes: ['offline_access'], offlineAccess: false })).toBe('read');
  });
});

describe('scope sets', () => {
  it('unions without repeats and treats extra spaces as separators', () => {
    expect(scopeUnion('a  b', undefined, 'b c')).toBe('a b c');
    expect(scopeUnion(undefined, '')).toBeUndefined();
  });

  it('sees whether a challenge asks for anything new', () => {
    expect(addsScope('admin', 'admin read')).toBe(false);
    expect(addsScope('admin write', 'admin')).toBe(true);
    expect(addsScope(undefined, 'admin')).toBe(false);
  });
});
