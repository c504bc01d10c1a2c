import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { inboundProblem } from '../http/inbound-guard.js';
import { INVALID_PARAMS, rpcError } from '../http/rpc-error.js';

/**
 * Wraps a transport so every inbound message passes {@link inboundProblem} first; a request that
 * fails is answered -32602 on the same transport and never reaches the protocol layer.
 */
export function guardTransport<T extends Transport>(inner: T): T {
  return new Proxy(inner, {
    // Methods run with the real transport as `this`, so transports with #private fields work too.
    get(target, property) {
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
    set(target, property, value) {
      if (property === 'onmessage' && typeof value === 'function') {
        const deliver = value as (message: JSONRPCMessage, extra?: unknown) => void;
        const guarded = (message: JSONRPCMessage, extra?: unknown) => {
          const problem = inboundProblem(message);
          if (problem === undefined) return deliver(message, extra);
          const id = (message as { id?: unknown }).id;
          void target.send(rpcError(id, INVALID_PARAMS, problem) as JSONRPCMessage).catch(() => {});
        };
        return Reflect.set(target, property, guarded, target);
      }
      return Reflect.set(target, property, value, target);
    },
  });
}
