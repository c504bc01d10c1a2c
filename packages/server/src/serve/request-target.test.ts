import { describe, expect, it } from 'vitest';
import { App } from '../app.js';
import { protectedResource } from '../oauth/protected-resource.js';
import { plainTargetOf, targetOf } from './request-target.js';

function app(): App {
  const made = new App({ name: 'targets', version: '1', log: () => {} });
  made.resources.add('vault://keys', {}, () => 'keys');
  made.resources.add('orders://{id}', {}, () => 'order');
  made.tools.add('review', { description: 'r' }, () => 'ok');
  return made;
}

const rpc = (method: string, params: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 1, method, params });

describe('targetOf', () => {
  it('names the tool, prompt or registered resource (URI or template) a request acts on', () => {
    const server = app();
    expect(targetOf(server, rpc('tools/call', { name: 'review' }), undefined)).toEqual({
      kind: 'tool',
      name: 'review',
    });
    expect(targetOf(server, rpc('prompts/get', { name: 'plan' }), undefined)).toEqual({
      kind: 'prompt',
      name: 'plan',
    });
    expect(targetOf(server, rpc('resources/read', { uri: 'orders://42' }), undefined)).toEqual({
      kind: 'resource',
      uri: 'orders://{id}',
    });
    expect(targetOf(server, rpc('resources/subscribe', { uri: 'vault://keys' }), undefined)).toEqual({
      kind: 'resource',
      uri: 'vault://keys',
    });
    const complete = rpc('completion/complete', { ref: { type: 'ref/resource', uri: 'orders://{id}' } });
    expect(targetOf(server, complete, undefined)).toEqual({ kind: 'resource', uri: 'orders://{id}' });
    expect(targetOf(server, rpc('tools/list', {}), undefined)).toBeUndefined();
    expect(targetOf(server, [rpc('tools/call', { name: 'review' })], undefined)).toBeUndefined();
  });

  it("names a task's tool for tasks/* requests of the task's own user only", () => {
    const server = app();
    const task = server.tasks.create({ principal: 'alice', tool: 'review', caller: 'user:alice' });
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel', 'tasks/result']) {
      expect(targetOf(server, rpc(method, { taskId: task.id }), 'alice')).toEqual({
        kind: 'tool',
        name: 'review',
      });
      expect(targetOf(server, rpc(method, { taskId: task.id }), 'mallory')).toBeUndefined();
    }
  });
});

describe("protectedResource's authorize handed a message directly", () => {
  const protection = protectedResource({
    authorizationServers: ['https://as.example'],
    resource: 'https://api.example/mcp',
    verify: async () => {
      throw new Error('unused');
    },
    requiredScopes: { tools: { book: ['write'] }, resources: { 'vault://keys': ['vault'] } },
  });
  const holding = (scopes: string[]) => ({ token: 't', clientId: 'c', scopes });

  it('checks every member of a batch and names every scope they need', () => {
    const batch = [rpc('tools/call', { name: 'book' }), rpc('resources/read', { uri: 'vault://keys' })];
    const refusal = protection.authorize(holding([]), batch);
    expect(refusal?.status).toBe(403);
    expect(refusal?.headers.get('www-authenticate')).toContain('scope="write vault"');
    expect(protection.authorize(holding(['write', 'vault']), batch)).toBeUndefined();
    expect(plainTargetOf(batch)).toBeUndefined();
  });

  it('refuses a request that needs a scope when there is no auth info at all', () => {
    expect(protection.authorize(undefined, rpc('tools/call', { name: 'book' }))?.status).toBe(403);
    expect(protection.authorize(undefined, rpc('tools/call', { name: 'free' }))).toBeUndefined();
  });

  it('uses the resolved target when the endpoint gives one', () => {
    const refusal = protection.authorize(holding([]), rpc('tasks/get', { taskId: 'x' }), {
      kind: 'tool',
      name: 'book',
    });
    expect(refusal?.status).toBe(403);
  });
});
