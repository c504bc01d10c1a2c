// Event streams through the fetch adapter to readers that stop reading (issue 24, finding 6): the
// stream errors and the exchange counts as aborted, as the node adapter drops the connection.
import { describe, expect, it } from 'vitest';
import { toFetchExchange } from './web-adapter.js';

const frame = `data: ${'x'.repeat(16 * 1024)}\n\n`;

function open(limits: { writeTimeoutMs: number; maxQueuedBytes: number }) {
  const { exchange, responder, response } = toFetchExchange(
    new Request('http://127.0.0.1/mcp'),
    undefined,
    limits,
  );
  let aborted = false;
  exchange.onAbort(() => {
    aborted = true;
  });
  const outlet = responder.eventStream({});
  return { outlet, response, aborted: () => aborted };
}

describe('a fetch-handler event stream', () => {
  it('drops a reader that takes nothing for writeTimeoutMs', async () => {
    const { outlet, response, aborted } = open({ writeTimeoutMs: 100, maxQueuedBytes: 1024 ** 3 });
    await response;
    let writes = 0;
    while (outlet.write(frame)) writes++;
    expect(writes).toBeLessThan(10);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(aborted()).toBe(true);
    expect(await outlet.drained()).toBe(false);
  });

  it('drops a reader at once when more than maxQueuedBytes piles up', async () => {
    const { outlet, aborted } = open({ writeTimeoutMs: 60_000, maxQueuedBytes: 128 * 1024 });
    for (let i = 0; i < 20 && !aborted(); i++) outlet.write(frame);
    expect(aborted()).toBe(true);
  });

  it('keeps a reader that reads, and tells a waiting writer when it caught up', async () => {
    const { outlet, response, aborted } = open({ writeTimeoutMs: 100, maxQueuedBytes: 1024 ** 3 });
    const reader = (await response).body!.getReader();
    while (outlet.write(frame)) {}
    const drained = outlet.drained();
    for (let i = 0; i < 3; i++) await reader.read();
    expect(await drained).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(aborted()).toBe(false);
    outlet.end();
  });
});
