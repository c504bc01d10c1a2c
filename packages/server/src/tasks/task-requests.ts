import { isRecord } from '@parley/core';
import type { TaskStore } from './task-store.js';

/** The extension identifier of tasks (SEP-2663). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** A JSON-RPC answer to a task request, with its HTTP status. */
export type TaskAnswer =
  | { readonly status: 200; readonly result: Record<string, unknown> }
  | {
      readonly status: 200 | 400 | 404;
      readonly error: { readonly code: number; readonly message: string; readonly data?: unknown };
    };

const REMOVED = new Set(['tasks/result', 'tasks/list']);
const SERVED = new Set(['tasks/get', 'tasks/update', 'tasks/cancel']);

/** Whether a method belongs to the tasks surface (served by {@link answerTaskRequest}). */
export function isTaskMethod(method: string): boolean {
  return SERVED.has(method) || REMOVED.has(method);
}

/** Whether these client capabilities declare the tasks extension. */
export function declaresTasks(clientCapabilities: unknown): boolean {
  return isRecord(clientCapabilities) && isRecord(clientCapabilities.extensions)
    ? isRecord(clientCapabilities.extensions[TASKS_EXTENSION])
    : false;
}

/** The `-32021` data naming the tasks extension. */
export const TASKS_REQUIRED = { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } as const;

const invalid = (message: string): TaskAnswer => ({ status: 200, error: { code: -32602, message } });

/**
 * Serves `tasks/get`, `tasks/update` and `tasks/cancel` (SEP-2663) for the caller who created the
 * task; `tasks/result` and `tasks/list`, removed by SEP-2663, are answered -32601.
 */
export function answerTaskRequest(
  store: TaskStore,
  method: string,
  params: unknown,
  clientCapabilities: unknown,
  principal: string | undefined,
): TaskAnswer {
  if (REMOVED.has(method)) {
    return {
      status: 404,
      error: {
        code: -32601,
        message: `Method not found: ${method} was removed by the tasks extension; use tasks/get.`,
      },
    };
  }
  if (!declaresTasks(clientCapabilities)) {
    return {
      status: 400,
      error: {
        code: -32021,
        message: `${method} needs the ${TASKS_EXTENSION} extension: declare it in _meta clientCapabilities.extensions.`,
        data: TASKS_REQUIRED,
      },
    };
  }
  const taskId = isRecord(params) ? params.taskId : undefined;
  if (typeof taskId !== 'string' || taskId.length === 0)
    return invalid('Invalid params: taskId must be a string.');
  const task = store.get(taskId, principal);
  if (!task)
    return invalid(
      `Unknown task ${JSON.stringify(taskId)}: it never existed, expired, or belongs to another user.`,
    );
  switch (method) {
    case 'tasks/get':
      return { status: 200, result: task.detailed() };
    case 'tasks/update': {
      const responses = isRecord(params) ? params.inputResponses : undefined;
      if (!isRecord(responses) || !Object.values(responses).every(isRecord))
        return invalid('Invalid params: inputResponses must map each key to a result object.');
      task.answer(responses);
      return { status: 200, result: { resultType: 'complete' } };
    }
    default:
      task.cancel();
      return { status: 200, result: { resultType: 'complete' } };
  }
}
