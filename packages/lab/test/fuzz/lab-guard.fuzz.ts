// The lab's loopback server refuses requests without its token or from a foreign Origin: the
// cases people think of are in test/lab-server.test.ts ('serves the page only with the token',
// 'refuses API calls without the bearer token', 'refuses API calls from another origin, or with no
// Origin at all'). This fuzz run throws thousands of near-miss tokens and foreign origins at a real
// lab (the built `parley lab` process): every one is refused, and the real token from the lab's own
// origin still works.
import { request } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Running, startLabProcess } from '../helpers/processes.js';

let lab: Running & { url: string };
let origin: string;
let port: number;
let token: string;

beforeAll(async () => {
  lab = await startLabProcess();
  const url = new URL(lab.url);
  origin = url.origin;
  port = Number(url.port);
  token = url.searchParams.get('token')!;
});
afterAll(() => lab?.stop());

function send(path: string, method: string, headers: Record<string, string>, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** A token that is not the lab's: one character changed, cut, extended, re-cased, or anything. */
const nearMissToken = fc
  .oneof(
    fc.record({ at: fc.nat(), char: fc.constantFrom(...ALPHABET) }).map(({ at, char }) => (real: string) => {
      const i = at % real.length;
      return real.slice(0, i) + char + real.slice(i + 1);
    }),
    fc.nat().map((keep) => (real: string) => real.slice(0, keep % real.length)),
    fc
      .string({ unit: fc.constantFrom(...ALPHABET), minLength: 1, maxLength: 4 })
      .map((more) => (real: string) => real + more),
    fc.constant((real: string) => real.toUpperCase()),
    fc.constant((real: string) => ` ${real}`),
    fc.string({ maxLength: 60 }).map((any) => () => any),
  )
  .map((spoil) => spoil);
/** An Origin that is not the lab's own. */
const foreignOrigin = fc
  .record({
    scheme: fc.constantFrom('http', 'https', 'file', 'chrome-extension', 'ws'),
    host: fc.constantFrom(
      '127.0.0.1',
      'localhost',
      '[::1]',
      'evil.example',
      '127.0.0.1.evil.example',
      '0.0.0.0',
      '127.1',
    ),
    port: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 65535 })),
  })
  .map(({ scheme, host, port: p }) => `${scheme}://${host}:${p === 0 ? port : p}`)
  .filter(
    (candidate) =>
      !['127.0.0.1', 'localhost', '[::1]'].some((name) => candidate === `http://${name}:${port}`),
  );

it(
  'fuzz: refuses near-miss tokens (page and API) and foreign origins; the real token from its origin works',
  async () => {
    const counts = { pageTokens: 0, apiTokens: 0, origins: 0 };
    await fc.assert(
      fc.asyncProperty(nearMissToken, fc.boolean(), async (spoil, api) => {
        const candidate = spoil(token);
        fc.pre(candidate !== token);
        if (api) {
          const status = await send(
            '/api/servers',
            'POST',
            {
              'content-type': 'application/json',
              authorization: `Bearer ${candidate}`,
              origin,
            },
            '{"target":"node nothing.js"}',
          );
          expect(status).toBe(401);
          counts.apiTokens++;
        } else {
          expect(await send(`/?token=${encodeURIComponent(candidate)}`, 'GET', {})).toBe(401);
          counts.pageTokens++;
        }
      }),
      { numRuns: 3000 },
    );
    await fc.assert(
      fc.asyncProperty(foreignOrigin, async (foreign) => {
        const status = await send(
          '/api/servers',
          'POST',
          {
            'content-type': 'application/json',
            authorization: `Bearer ${token}`,
            origin: foreign,
          },
          '{}',
        );
        expect(status).toBe(403);
        counts.origins++;
      }),
      { numRuns: 1000 },
    );
    // The control: the real token opens the page, and the API answers its own origin (a bad body, not a refusal).
    expect(await send(`/?token=${token}`, 'GET', {})).toBe(200);
    expect(
      await send(
        '/api/servers',
        'POST',
        { 'content-type': 'application/json', authorization: `Bearer ${token}`, origin },
        '{}',
      ),
    ).toBe(400);
    console.log(
      `lab guard: ${counts.pageTokens} near-miss page tokens, ${counts.apiTokens} near-miss API tokens, ${counts.origins} foreign origins, all refused`,
    );
  },
  30 * 60_000,
);
