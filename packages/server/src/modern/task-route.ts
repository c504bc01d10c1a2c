import { CLIENT_CAPABILITIES_META_KEY, type JSONRPCRequest } from '@modelcontextprotocol/server';
import type { App } from '../app.js';
import type { HttpResponder } from '../http/http-exchange.js';
import { rpcError } from '../http/rpc-error.js';
import { answerTaskRequest } from '../tasks/task-requests.js';

const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/**
 * Answers a 2026-07-28 `tasks/*` request over HTTP, for the verified caller only. The task lives in
 * this process: a fleet routes these requests by their `Mcp-Name` (the task id) to the replica
 * that created the task.
 */
export function serveTaskRequest(
  app: App,
  message: JSONRPCRequest,
  principal: string | undefined,
  respond: HttpResponder,
): void {
  const params = (message.params ?? {}) as Record<string, unknown>;
  const meta = (params._meta ?? {}) as Record<string, unknown>;
  const answer = answerTaskRequest(
    app.tasks,
    message.method,
    params,
    meta[CLIENT_CAPABILITIES_META_KEY],
    principal,
  );
  if ('error' in answer) {
    const { code, message: text, data } = answer.error;
    respond.json(answer.status, rpcError(message.id, code, text, data));
    return;
  }
  respond.json(200, {
    jsonrpc: '2.0',
    id: message.id,
    result: { ...answer.result, _meta: { [SERVER_INFO]: app.info } },
  });
}
