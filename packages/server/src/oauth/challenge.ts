/** What a refusal says, in the `WWW-Authenticate` Bearer challenge (RFC 6750 §3, RFC 9728 §5.1). */
export interface Challenge {
  readonly status: 401 | 403;
  readonly resourceMetadata: string;
  readonly error?: 'invalid_request' | 'invalid_token' | 'insufficient_scope';
  readonly description?: string;
  readonly scope?: readonly string[];
}

/** A refusal: the challenge header, and the same error as a JSON body for people reading logs. */
export function challengeResponse(challenge: Challenge): Response {
  const parameters: [string, string][] = [['resource_metadata', challenge.resourceMetadata]];
  if (challenge.scope !== undefined && challenge.scope.length > 0)
    parameters.push(['scope', challenge.scope.join(' ')]);
  if (challenge.error !== undefined) parameters.push(['error', challenge.error]);
  if (challenge.description !== undefined) parameters.push(['error_description', challenge.description]);
  const header = `Bearer ${parameters.map(([name, value]) => `${name}="${quoted(value)}"`).join(', ')}`;
  const body = {
    error: challenge.error ?? 'unauthorized',
    error_description: challenge.description ?? 'Sign in to use this server: send an OAuth access token',
  };
  return new Response(JSON.stringify(body), {
    status: challenge.status,
    headers: { 'content-type': 'application/json', 'www-authenticate': header, 'cache-control': 'no-store' },
  });
}

/** A quoted-string value: no control characters, `"` and `\` escaped. */
function quoted(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  return value.replace(/[\u0000-\u001f\u007f]/g, ' ').replace(/["\\]/g, (char) => `\\${char}`);
}
