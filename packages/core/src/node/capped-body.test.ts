import { describe, expect, it } from 'vitest';
import { readCappedBody } from './capped-body.js';

async function* chunks(count: number, size: number, seen: { pulled: number }) {
  for (let i = 0; i < count; i++) {
    seen.pulled++;
    yield new Uint8Array(size).fill(65);
  }
}

describe('readCappedBody', () => {
  it('reads a body under the cap whole', async () => {
    const seen = { pulled: 0 };
    const read = await readCappedBody(chunks(3, 10, seen), 30);
    expect(read).toMatchObject({ ok: true });
    expect(read.ok && read.bytes.byteLength).toBe(30);
  });

  it('refuses a declared length over the cap without reading anything', async () => {
    const seen = { pulled: 0 };
    const read = await readCappedBody(chunks(3, 10, seen), 30, '31');
    expect(read).toMatchObject({ ok: false, reason: 'too-large' });
    expect(seen.pulled).toBe(0);
  });

  it('stops pulling an undeclared (chunked) body at the first chunk past the cap', async () => {
    const seen = { pulled: 0 };
    const read = await readCappedBody(chunks(1_000_000, 1024, seen), 4096);
    expect(read).toMatchObject({ ok: false, reason: 'too-large' });
    expect(seen.pulled).toBe(5);
  });

  it('cuts off a body that lies about its length', async () => {
    const seen = { pulled: 0 };
    expect(await readCappedBody(chunks(10, 1024, seen), 4096, '10')).toMatchObject({ reason: 'too-large' });
  });

  it('reports a stream that fails mid-way as unreadable', async () => {
    async function* failing() {
      yield new Uint8Array(1);
      throw new Error('socket hang up');
    }
    expect(await readCappedBody(failing(), 10)).toMatchObject({ ok: false, reason: 'unreadable' });
  });

  it('reads a web ReadableStream too', async () => {
    const stream = new Blob(['hello']).stream();
    const read = await readCappedBody(stream as unknown as AsyncIterable<Uint8Array>, 5);
    expect(read.ok && new TextDecoder().decode(read.bytes)).toBe('hello');
  });
});
