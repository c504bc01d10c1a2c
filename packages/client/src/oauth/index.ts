// @parley/client/oauth: sign in to MCP servers protected by OAuth 2.1.
export type { Authorize } from './authorization-code.js';
export { type ClientCredentialsOptions, clientCredentials } from './client-credentials.js';
export type { DpopPolicy } from './dpop.js';
export {
  type EnterpriseManagedOptions,
  enterpriseManaged,
  type IdentityProvider,
} from './enterprise-managed.js';
export { fileStore } from './file-store.js';
export type { Grant, GrantRequest, GrantResult } from './grant.js';
export {
  type HeadlessSignInOptions,
  type InteractiveSignInOptions,
  type OAuthSession,
  type OAuthSessionCommonOptions,
  type OAuthSessionOptions,
  oauthSession,
} from './oauth-session.js';
export type { ClientPrivateKey } from './private-key.js';
export type { PreRegisteredClient } from './registration.js';
export { SignInError } from './sign-in-error.js';
export {
  memoryStore,
  type OAuthStore,
  type StoredAuth,
  type StoredClient,
  type StoredDpopKey,
  type StoredTokens,
  type TokenEndpointAuthMethod,
} from './store.js';
export {
  type AssertionSource,
  type WorkloadIdentityOptions,
  workloadIdentity,
} from './workload-identity.js';
