// @parley/server/oauth: serve a Parley server as an OAuth 2.1 protected resource.

export type { RequestTarget } from '../serve/request-target.js';
export type { Challenge } from './challenge.js';
export type { DpopOptions } from './dpop-proof.js';
export { type IntrospectionVerifierOptions, introspectionVerifier } from './introspection-verifier.js';
export { type JwtVerifierOptions, jwtVerifier } from './jwt-verifier.js';
export {
  type ProtectedResource,
  type ProtectedResourceOptions,
  protectedResource,
  type RequiredScopes,
} from './protected-resource.js';
export { InvalidTokenError, type TokenVerifier, type VerifyContext } from './token-verifier.js';
