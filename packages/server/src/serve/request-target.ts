import { isRecord } from '@parley/core';
import type { App } from '../app.js';

/**
 * What one JSON-RPC request acts on, as this server resolves it: the tool, prompt or resource whose
 * scopes (or any other per-thing rule) the caller must meet. A resource is named by what was
 * registered to serve it: its URI, or the URI template that matches it.
 */
export type RequestTarget =
  | { readonly kind: 'tool'; readonly name: string }
  | { readonly kind: 'prompt'; readonly name: string }
  | { readonly kind: 'resource'; readonly uri: string };

const TASK_METHODS: ReadonlySet<string> = new Set([
  'tasks/get',
  'tasks/update',
  'tasks/cancel',
  'tasks/result',
]);

/**
 * What a request acts on from its own text alone: names and URIs as given, no registry. Used where
 * no server is at hand; the endpoint resolves with {@link targetOf}.
 */
export function plainTargetOf(message: unknown): RequestTarget | undefined {
  if (!isRecord(message) || typeof message.method !== 'string') return undefined;
  const params = isRecord(message.params) ? message.params : {};
  switch (message.method) {
    case 'tools/call':
      return typeof params.name === 'string' ? { kind: 'tool', name: params.name } : undefined;
    case 'prompts/get':
      return typeof params.name === 'string' ? { kind: 'prompt', name: params.name } : undefined;
    case 'resources/read':
    case 'resources/subscribe':
      return typeof params.uri === 'string' ? { kind: 'resource', uri: params.uri } : undefined;
    case 'completion/complete': {
      const ref = isRecord(params.ref) ? params.ref : {};
      if (ref.type === 'ref/prompt' && typeof ref.name === 'string')
        return { kind: 'prompt', name: ref.name };
      if (ref.type === 'ref/resource' && typeof ref.uri === 'string')
        return { kind: 'resource', uri: ref.uri };
      return undefined;
    }
    default:
      return undefined;
  }
}

/**
 * What a request acts on, resolved the way the server will serve it: a resource URI becomes the
 * resource or template that serves it, and a `tasks/*` request acts on the tool whose call became
 * the task (when `principal` holds that task; anyone else is told it does not exist).
 */
export function targetOf(
  app: App,
  message: unknown,
  principal: string | undefined,
): RequestTarget | undefined {
  if (isRecord(message) && typeof message.method === 'string' && TASK_METHODS.has(message.method)) {
    const taskId = isRecord(message.params) ? message.params.taskId : undefined;
    const task = typeof taskId === 'string' ? app.tasks.get(taskId, principal) : undefined;
    return task ? { kind: 'tool', name: task.tool } : undefined;
  }
  const plain = plainTargetOf(message);
  if (plain?.kind !== 'resource') return plain;
  return { kind: 'resource', uri: app.resources.registeredAs(plain.uri) ?? plain.uri };
}
