import { randomBytes } from 'node:crypto';
import type { Transport } from '@modelcontextprotocol/client';

/**
 * The SDK 2.4 client decodes only `complete` and `input_required` results: a `tools/call` answered
 * with a task (`resultType: "task"`, the tasks extension) fails inside it. On the gateway's upstream
 * connections such a result is carried through as a complete tool result with the task in its
 * `_meta` under a key made for this connection (an upstream cannot guess it, so it cannot pass a
 * plain result off as a task). Returns that key.
 */
export function carryTaskResults(transport: Transport): string {
  const key = `dev.parley.gateway/task-${randomBytes(12).toString('base64url')}`;
  const deliver = transport.onmessage;
  if (deliver === undefined) return key;
  transport.onmessage = (message, extra) => {
    const result = 'result' in message ? (message.result as Record<string, unknown> | undefined) : undefined;
    if (typeof result === 'object' && result !== null && result.resultType === 'task') {
      deliver(
        {
          ...message,
          result: { resultType: 'complete', content: [], _meta: { [key]: result } },
        } as typeof message,
        extra,
      );
      return;
    }
    deliver(message, extra);
  };
  return key;
}
