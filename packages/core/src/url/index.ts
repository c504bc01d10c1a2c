export { type HostDisplayParts, splitHostForDisplay } from './display.js';
export { inspectUrl } from './inspect.js';
export { isLoopbackHost } from './ip.js';
export {
  DEEP_SUBDOMAIN_LABELS,
  LONG_URL_LENGTH,
  type UrlInspection,
  type UrlWarning,
  type UrlWarningCode,
} from './types.js';
