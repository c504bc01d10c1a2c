export { type AeadBackend, webCryptoAead } from './aead.js';
export { fromBase64Url, toBase64Url } from './base64url.js';
export {
  KeyRing,
  type KeyRingOptions,
  type OpenFailure,
  type OpenResult,
  type SealSecret,
} from './key-ring.js';
