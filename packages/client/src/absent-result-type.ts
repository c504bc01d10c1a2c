import type { Transport } from '@modelcontextprotocol/client';

/**
 * MCP 2026-07-28 §"resultType": clients MUST treat a result without `resultType` as `complete`
 * (servers from before the field existed leave it out). The SDK 2.4.0 modern codec rejects such a
 * result instead, so on modern connections each incoming result without the field gets
 * `resultType: 'complete'` before the SDK decodes it. Nothing else in the message is touched.
 */
export function treatAbsentResultTypeAsComplete(transport: Transport): void {
  const deliver = transport.onmessage;
  if (deliver === undefined) return;
  transport.onmessage = (message, extra) => {
    const result = 'result' in message ? message.result : undefined;
    if (
      typeof result === 'object' &&
      result !== null &&
      !Array.isArray(result) &&
      !('resultType' in result)
    ) {
      deliver({ ...message, result: { ...result, resultType: 'complete' } } as typeof message, extra);
      return;
    }
    deliver(message, extra);
  };
}
