import type { CallState } from './call-state.js';
import type { Connection } from './connection.js';
import { describeCall, ParleyError } from './errors.js';
import type { ClientLimits } from './limits.js';

/** Fails the call when `count` is past `limits[name]`. */
export function checkLimit(
  connection: Connection,
  call: CallState,
  name: keyof ClientLimits,
  count: number,
  what: string,
): void {
  const limit = connection.settings.limits[name];
  if (count <= limit) return;
  throw new ParleyError(
    'too-large',
    `${connection.server.name} sent ${what} during ${describeCall(call.info)}: ${count} where the limit is ${limit}; nothing of it was shown. If this server is trusted to send that much, raise limits.${name} in connect()`,
    { server: connection.server.name, call: call.info },
  );
}
