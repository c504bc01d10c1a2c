// @parley/client/raw: the official SDK's client, connected the way Parley connects (targets, era
// negotiation, results without resultType read as complete), with none of Parley's question
// handling. For programs that carry questions on for someone else: a gateway, a relay, a proxy.

export { asksOnlyOverHandshake } from '../handshake-only.js';
export { connectSdk, type SdkConnection, type SdkConnectOptions } from '../sdk-connection.js';
export { describeTarget, type Target } from '../target.js';
export { translateError } from '../translate-error.js';
