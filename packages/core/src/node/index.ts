/**
 * `@parley/core/node`: the Node HTTP kit Parley's servers and tools share (`node:http` listener
 * options with limits, a capped body reader, stream connection caps). Node only; the root and the
 * other subpaths stay runtime-neutral.
 */
export { BODY_UNREADABLE, bodyTooLarge, type CappedBody, readCappedBody } from './capped-body.js';
export {
  type HttpListenerOptions,
  type HttpServerLimits,
  httpServerOptions,
  SERVER_HTTP_LIMITS,
} from './server-limits.js';
export { type ClosingSocket, type ConnectionCapped, StreamConnections } from './stream-connections.js';
