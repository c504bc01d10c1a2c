export { type CappedBody, readCappedBody } from './capped-body.js';
export {
  type HttpServerLimits,
  httpServerOptions,
  SERVER_HTTP_LIMITS,
  type TimeoutOptions,
} from './server-limits.js';
