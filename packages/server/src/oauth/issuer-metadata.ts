/**
 * The `jwks_uri` (or the introspection endpoint) from an authorization server's metadata, looked
 * up at the RFC 8414 and OpenID Connect well-known locations. The document's `issuer` must be the
 * issuer asked for.
 */
export async function issuerMetadata(issuer: string): Promise<Record<string, unknown>> {
  const base = new URL(issuer);
  const path = base.pathname === '/' ? '' : base.pathname.replace(/\/$/, '');
  const candidates = [
    new URL(`/.well-known/oauth-authorization-server${path}`, base),
    new URL(`${path}/.well-known/openid-configuration`, base),
  ];
  for (const url of candidates) {
    const response = await fetch(url, { headers: { accept: 'application/json' } });
    if (!response.ok) continue;
    const metadata = (await response.json()) as Record<string, unknown>;
    if (metadata.issuer !== issuer) {
      throw new Error(`The metadata at ${url.href} is for issuer ${String(metadata.issuer)}, not ${issuer}`);
    }
    return metadata;
  }
  throw new Error(
    `The authorization server ${issuer} publishes no metadata (tried ${candidates.join(', ')})`,
  );
}

export async function discoverJwksUri(issuer: string): Promise<string> {
  const uri = (await issuerMetadata(issuer)).jwks_uri;
  if (typeof uri !== 'string') throw new Error(`The authorization server ${issuer} publishes no jwks_uri`);
  return uri;
}
