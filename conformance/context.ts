import type { PreRegisteredClient } from '@parley/client/oauth';

/** A tool call a scenario asks for, with its arguments. */
export interface ToolCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/** What a scenario passes in MCP_CONFORMANCE_CONTEXT that this client uses. */
export interface ConformanceContext {
  /** Credentials registered beforehand, by issuer (auth/pre-registration). */
  readonly preRegistered?: Record<string, PreRegisteredClient>;
  /** The calls to make instead of calling every tool (http-custom-headers). */
  readonly toolCalls?: readonly ToolCall[];
}

/** Reads MCP_CONFORMANCE_CONTEXT; a scenario without one gets an empty context. */
export function conformanceContext(raw = process.env.MCP_CONFORMANCE_CONTEXT): ConformanceContext {
  if (raw === undefined || raw === '') return {};
  const parsed: unknown = JSON.parse(raw);
  if (!isRecord(parsed)) return {};
  const context: { preRegistered?: Record<string, PreRegisteredClient>; toolCalls?: ToolCall[] } = {};
  if (typeof parsed.client_id === 'string' && typeof parsed.issuer === 'string') {
    context.preRegistered = {
      [parsed.issuer]: {
        clientId: parsed.client_id,
        ...(typeof parsed.client_secret === 'string' && { clientSecret: parsed.client_secret }),
      },
    };
  }
  if (Array.isArray(parsed.toolCalls)) {
    context.toolCalls = parsed.toolCalls.filter(isRecord).map((call) => ({
      name: String(call.name),
      arguments: isRecord(call.arguments) ? call.arguments : {},
    }));
  }
  return context;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
