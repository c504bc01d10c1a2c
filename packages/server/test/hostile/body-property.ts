import { request } from 'node:http';
import fc from 'fast-check';
import { expect } from 'vitest';
import { callBody, callHeaders } from './rpc.js';

/** What one raw HTTP request got back. */
interface RawReply {
  readonly status: number;
  readonly body: string;
}

/** POSTs raw bytes to `url`, with a declared length or streamed in chunks (no length at all). */
export function postRaw(url: string, bytes: Uint8Array, streamed: boolean): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = callHeaders({ tool: 'asks' });
    delete headers.host;
    if (!streamed) headers['content-length'] = String(bytes.length);
    // A fresh connection each time: after a refusal the server may close the one it answered on.
    let answered = false;
    const req = request(url, { method: 'POST', headers, agent: false }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    // The server may answer (413) and close before it read everything: a write failing once the
    // answer is in is not a failure here.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    if (!streamed) {
      req.end(bytes);
      return;
    }
    for (let offset = 0; offset < bytes.length; offset += 16 * 1024)
      req.write(bytes.subarray(offset, offset + 16 * 1024));
    req.end();
  });
}

const encoder = new TextEncoder();
/** Byte sequences that are not UTF-8: a lone continuation byte, an overlong form, a surrogate, 0xFF, a cut-off sequence. */
const INVALID_UTF8 = [
  [0x80],
  [0xc0, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xff],
  [0xe2, 0x82],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
];

/** A hostile body and the refusal it must get. */
type HostileBody = {
  kind: string;
  bytes: Uint8Array;
  streamed: boolean;
  status: number;
  code: number;
  message: RegExp;
};

/** Valid JSON nested `depth` levels deep at one of the places a request carries data. */
function deepBody(depth: number, where: 'arguments' | 'answer' | '_meta' | 'top', objects: boolean): string {
  const open = objects ? '{"a":' : '[';
  const close = objects ? '}' : ']';
  const deep = `${open.repeat(depth)}${objects ? '1' : ''}${close.repeat(depth)}`;
  const body = JSON.parse(callBody({ tool: 'asks' })) as { params: Record<string, unknown> };
  const marker = '"__deep__"';
  if (where === 'top') return deep;
  if (where === 'arguments') body.params.arguments = { x: '__deep__' };
  if (where === 'answer')
    body.params.inputResponses = { q: { action: 'accept', content: { value: '__deep__' } } };
  if (where === '_meta') (body.params._meta as Record<string, unknown>).deep = '__deep__';
  return JSON.stringify(body).replace(marker, deep);
}

function hostileBodies(limit: number): fc.Arbitrary<HostileBody> {
  const parseError = { status: 400, code: -32700 };
  return fc.oneof(
    // Invalid UTF-8 spliced into an otherwise valid request.
    fc
      .record({ bad: fc.constantFrom(...INVALID_UTF8), at: fc.nat(), streamed: fc.boolean() })
      .map(({ bad, at, streamed }) => {
        const text = encoder.encode(callBody({ tool: 'asks', args: { note: 'x'.repeat(40) } }));
        const i = text.indexOf(0x78) + (at % 40); // inside the note string
        const bytes = new Uint8Array([...text.subarray(0, i), ...bad, ...text.subarray(i)]);
        return { kind: 'invalid UTF-8', bytes, streamed, ...parseError, message: /not valid UTF-8/ };
      }),
    // JSON nested deeper than the endpoint reads.
    fc
      .record({
        depth: fc.oneof(fc.integer({ min: 101, max: 2_000 }), fc.integer({ min: 2_000, max: 30_000 })),
        where: fc.constantFrom('arguments' as const, 'answer' as const, '_meta' as const, 'top' as const),
        objects: fc.boolean(),
      })
      .map(({ depth, where, objects }) => ({
        kind: 'nested too deep',
        bytes: encoder.encode(deepBody(depth, where, objects)),
        streamed: false,
        ...parseError,
        message: /nests JSON more than 100 levels deep/,
      }))
      .filter((body) => body.bytes.length <= limit),
    // Over the body limit, declared or streamed.
    fc
      .record({ over: fc.integer({ min: 1, max: 3 * limit }), streamed: fc.boolean() })
      .map(({ over, streamed }) => {
        const padding = 'x'.repeat(limit + over);
        return {
          kind: streamed ? 'over the limit (streamed)' : 'over the limit (declared)',
          bytes: encoder.encode(callBody({ tool: 'asks', args: { padding } })),
          streamed,
          status: 413,
          code: -32600,
          message: new RegExp(`larger than ${limit} bytes`),
        };
      }),
    // Random bytes: whatever they are, a clear JSON-RPC error.
    fc.uint8Array({ minLength: 1, maxLength: 512 }).map((bytes) => ({
      kind: 'random bytes',
      bytes,
      streamed: false,
      ...parseError,
      message: /^Parse error: /,
    })),
  );
}

/**
 * Sends `runs` hostile bodies over real HTTP to an endpoint whose body limit is `limit`: each is
 * refused with its clear JSON-RPC error and status, and the server keeps serving.
 */
export async function checkHostileBodies(
  url: string,
  limit: number,
  runs: number,
  seed?: number,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  await fc.assert(
    fc.asyncProperty(hostileBodies(limit), async (body) => {
      const reply = await postRaw(url, body.bytes, body.streamed);
      const message = JSON.parse(reply.body) as { error?: { code: number; message: string } };
      // Random bytes that happen to be JSON get the JSON-RPC error for what they are instead.
      if (body.kind === 'random bytes' && message.error?.code !== -32700) {
        expect(reply.status).toBeGreaterThanOrEqual(400);
        expect(message.error?.message).toBeTruthy();
      } else {
        expect(reply.status, body.kind).toBe(body.status);
        expect(message.error?.code, body.kind).toBe(body.code);
        expect(message.error?.message, body.kind).toMatch(body.message);
      }
      counts.set(body.kind, (counts.get(body.kind) ?? 0) + 1);
    }),
    { numRuns: runs, ...(seed !== undefined && { seed }) },
  );
  const alive = await postRaw(url, encoder.encode(callBody({ tool: 'asks' })), false);
  expect(alive.status).toBe(200);
  return counts;
}
