import type { CallRequest } from '../request/call-request.js';
import { bindingBytes, type StateBinding } from '../state/binding.js';
import type { CallSpec } from './era.js';

/**
 * What a call's sealed state is bound to (server, method, target, arguments, user), with its bytes
 * (canonical JSON of the arguments) worked out once, when a state is first opened or sealed: a call
 * that asks nothing never computes them.
 */
export class CallBinding {
  readonly facts: StateBinding;
  #bytes: Uint8Array | undefined;

  constructor(request: CallRequest, spec: CallSpec) {
    this.facts = {
      server: request.app.info.name,
      method: spec.method,
      target: spec.target,
      args: spec.args,
      principal: request.user?.id,
    };
  }

  bytes(): Uint8Array {
    this.#bytes ??= bindingBytes(this.facts);
    return this.#bytes;
  }
}
