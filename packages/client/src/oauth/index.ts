// @parley/client/oauth: sign in to MCP servers protected by OAuth 2.1.
export type { Authorize } from './authorization-code.js';
export { fileStore } from './file-store.js';
export { type OAuthSession, type OAuthSessionOptions, oauthSession } from './oauth-session.js';
export type { PreRegisteredClient } from './registration.js';
export { SignInError } from './sign-in-error.js';
export {
  memoryStore,
  type OAuthStore,
  type StoredAuth,
  type StoredClient,
  type StoredTokens,
  type TokenEndpointAuthMethod,
} from './store.js';
