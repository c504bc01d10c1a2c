export { BODY_UNREADABLE, bodyTooLarge, type CappedBody, readCappedBody } from './capped-body.js';
export {
  type HttpListenerOptions,
  type HttpServerLimits,
  httpServerOptions,
  SERVER_HTTP_LIMITS,
} from './server-limits.js';
export { type ClosingSocket, type ConnectionCapped, StreamConnections } from './stream-connections.js';
