export {
  type BrightgridWithId,
  passBrightgridIdPage,
  signInAtBrightgridId,
  startBrightgridWithId,
} from './brightgrid-id.js';
export { CHROMIUM_ARGS } from './chromium.js';
export { freePort, onFreePort, PortTaken } from './free-port.js';
export { type GatewayProcess, type GatewayProcessOptions, startGatewayProcess } from './gateway-process.js';
export {
  connectionsReach,
  howRefused,
  openIdleConnections,
  peakResidentMiB,
  type RawOutcome,
  residentMiB,
  sendChunkedFlood,
  sendSlowBody,
  socketBufferBytes,
} from './hostile-http.js';
export { EVERY_FIELD_SCHEMA } from './lab-fixture/every-field-schema.js';
export { type Nginx, type NginxOptions, startNginx } from './nginx.js';
export { type BalancerConfig, balancerConfig } from './nginx-config.js';
export { type RedisServer, startRedis } from './redis-server.js';
export { type RogueSignIn, type RogueTokenRequest, startRogueSignIn } from './rogue-sign-in.js';
export { type NodeRun, runNode } from './run-node.js';
export { PROCESS_START_TIMEOUT_MS, SETTLE_TIMEOUT_MS } from './test-waits.js';
