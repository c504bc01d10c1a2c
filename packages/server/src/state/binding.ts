import { canonicalJson } from './canonical-json.js';

/** What a sealed state belongs to: one logical call, by one user, on one server. */
export interface StateBinding {
  readonly server: string;
  readonly method: 'tools/call' | 'prompts/get' | 'resources/read';
  /** The tool or prompt name, or the resource URI. */
  readonly target: string;
  readonly args: unknown;
  /** The verified principal, when the request was authenticated. */
  readonly principal: string | undefined;
}

/** What a Parley call's own state is sealed for. */
const STATE_PURPOSE = 'parley.state.v1';
/** What a direct tool call's state (`server.directToolCalls`) is sealed for: never opened as the other. */
export const DIRECT_PURPOSE = 'parley.direct.v1';

/**
 * The associated data a state is sealed with. It is not stored in the token: a state presented
 * with another server, method, target, arguments or user simply fails to authenticate.
 */
export function bindingBytes(binding: StateBinding, purpose = STATE_PURPOSE): Uint8Array {
  const parts = [
    purpose,
    binding.server,
    binding.method,
    binding.target,
    canonicalJson(binding.args ?? {}),
    binding.principal ?? '',
  ];
  // JSON-encoding the list keeps the parts unambiguous whatever characters they contain.
  // Buffer.from: the same UTF-8 bytes as TextEncoder, faster at this size.
  return Buffer.from(JSON.stringify(parts), 'utf8');
}
