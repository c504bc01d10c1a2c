/** Splits a space-separated scope string into its scopes (RFC 6749 §3.3). */
export function scopeList(scope: string | undefined): string[] {
  return scope === undefined ? [] : scope.split(' ').filter((item) => item !== '');
}

/** The union of scope strings, in first-seen order; `undefined` when there is none. */
export function scopeUnion(...scopes: ReadonlyArray<string | undefined>): string | undefined {
  const union = [...new Set(scopes.flatMap(scopeList))];
  return union.length === 0 ? undefined : union.join(' ');
}

/** Whether `wanted` asks for a scope `had` did not. */
export function addsScope(wanted: string | undefined, had: string | undefined): boolean {
  const before = new Set(scopeList(had));
  return scopeList(wanted).some((scope) => !before.has(scope));
}

/**
 * The scope to ask for, as the MCP specification says: the one the server's challenge named;
 * else every scope its protected resource metadata lists; else none (the parameter is left
 * out). `offline_access` is added when the authorization server lists it, so the host can
 * refresh the token instead of asking the person again.
 */
export function chooseScope(options: {
  readonly challenged: string | undefined;
  readonly previous: string | undefined;
  readonly resourceScopes: readonly string[] | undefined;
  readonly serverScopes: readonly string[] | undefined;
  readonly offlineAccess: boolean;
}): string | undefined {
  const base =
    options.challenged !== undefined
      ? scopeUnion(options.previous, options.challenged)
      : scopeUnion(options.previous, options.resourceScopes?.join(' '));
  if (base === undefined) return undefined;
  const offline = options.offlineAccess && options.serverScopes?.includes('offline_access') === true;
  return offline ? scopeUnion(base, 'offline_access') : base;
}
