import { KeyRing } from '@parley/core/seal';
import { describe, expect, it } from 'vitest';
import type { FlowStore } from '../flows/flow-types.js';
import { MemoryFlowStore } from '../flows/memory-store.js';
import { QuestionPages, type QuestionPagesDeps } from './question-pages.js';

function pages(store?: FlowStore): QuestionPages {
  const deps: QuestionPagesDeps = {
    server: { name: 'shop' },
    options: store ? { store } : {},
    flows: undefined,
    log: () => {},
    ring: () => KeyRing.ephemeral(),
    stateTtlSeconds: 60,
    startListener: undefined,
  };
  return new QuestionPages(deps);
}

const key = { scope: 'user:ada', binding: new TextEncoder().encode('["parley.state.v1","shop"]') };
const call = { state: 'sealed-state', formsFailed: false, urlFailed: true };

/** A store that is not this process's memory: another replica may have parked a call in it. */
function sharedStore(): FlowStore {
  const values = new Map<string, string>();
  const memory = new MemoryFlowStore();
  return {
    create: (flow, max) => memory.create(flow, max),
    get: (id) => memory.get(id),
    settle: (id, settlement) => memory.settle(id, settlement),
    putValue: async (k, value) => void values.set(k, value),
    getValue: async (k) => values.get(k),
    deleteValue: async (k) => void values.delete(k),
  };
}

describe('QuestionPages.mayHoldParked', () => {
  it('is false for a memory store nothing was parked in, and true once a call is', async () => {
    const store = new MemoryFlowStore();
    const first = pages(store);
    expect(first.mayHoldParked).toBe(false);
    await first.park(key, call);
    expect(first.mayHoldParked).toBe(true);
    // Pages of another server that share the store see it too.
    expect(pages(store).mayHoldParked).toBe(true);
    expect(await first.unpark(key)).toEqual(call);
    // Its own memory store: nothing parked there.
    expect(pages().mayHoldParked).toBe(false);
  });

  it('is always true for a store other processes can write', async () => {
    const store = sharedStore();
    const other = pages(store);
    expect(other.mayHoldParked).toBe(true);
    // What another replica parked is found here.
    await pages(store).park(key, call);
    expect(await other.unpark(key)).toEqual(call);
    expect(await other.unpark(key)).toBeUndefined();
  });
});
