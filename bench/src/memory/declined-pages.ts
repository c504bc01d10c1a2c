// What question pages that were opened and declined keep in a server's heap (issue 41, finding 3).
// A tool echoes a 2 KB argument into its question; a client that opens URLs but shows no forms
// calls it as alice, and alice declines each page. Run with `node --expose-gc`:
//
//   node --expose-gc bench/dist/memory/declined-pages.js [pages] [url|link] [kept]   (default 1,200 url)
//
// `url`: the client opens URLs (the page comes as a URL-mode question); `link`: it declares no
// elicitation, so each call parks (its sealed state kept too) with the page's link in its result.
// `kept`: questionPages.maxKeptPerUser (raise it to see what each kept page costs).
// Prints how many pages opened, how many were refused, the flows the store holds, and the heap
// growth after a full collection (the server and the client share this process; what the client
// allocates is garbage by then).
import { randomBytes } from 'node:crypto';
import { ask, createServer, MemoryFlowStore } from '@parley/server';
import * as z from 'zod/v4';

const pages = Number(process.argv[2] ?? 1200);
const mode = process.argv[3] === 'link' ? 'link' : 'url';
const kept = process.argv[4] === undefined ? undefined : Number(process.argv[4]);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('Run with node --expose-gc.');

const store = new MemoryFlowStore();
const server = createServer({
  name: 'echo-desk',
  version: '1.0.0',
  log: () => {},
  questionPages: {
    store,
    person: () => 'alice',
    signIn: () => '/signin',
    ...(kept !== undefined && { maxKeptPerUser: kept }),
  },
});
server.tool('echo_question', { input: z.object({ text: z.string() }) }, async ({ text }, ctx) => {
  const boxes = await ctx.elicit(`About "${text}": how many boxes?`, ask.integer({ title: 'Boxes' }));
  return boxes.action === 'accept' ? `${boxes.value} boxes.` : `Nothing (${boxes.action}).`;
});
const listening = await server.listen({
  authenticate: () => ({ token: 'alice', clientId: 'bench', scopes: [], extra: { sub: 'alice' } }),
});

const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': mode === 'url' ? { elicitation: { url: {} } } : {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
};

async function openAndDecline(id: number): Promise<'declined' | 'refused'> {
  const text = randomBytes(1024).toString('hex');
  const response = await fetch(listening.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'echo_question',
      authorization: 'Bearer alice',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'echo_question', arguments: { text }, _meta: meta },
    }),
  });
  const reply = (await response.json()) as {
    result?: {
      inputRequests?: Record<string, { params: { url: string } }>;
      _meta?: { 'dev.parley/pages'?: { url: string }[] };
    };
  };
  const url =
    mode === 'url'
      ? Object.values(reply.result?.inputRequests ?? {})[0]?.params.url
      : reply.result?._meta?.['dev.parley/pages']?.[0]?.url;
  if (url === undefined) return 'refused';
  const page = await (await fetch(url)).text();
  const island = /<script type="application\/json" id="parley-question">([^<]*)<\/script>/.exec(page);
  const { csrf, answerUrl } = JSON.parse(island![1]!) as { csrf: string; answerUrl: string };
  const answered = await fetch(answerUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      origin: new URL(url).origin,
      'sec-fetch-site': 'same-origin',
    },
    body: JSON.stringify({ csrf, action: 'decline' }),
  });
  await answered.text();
  return 'declined';
}

const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
await openAndDecline(0); // warm: the first page starts what every page shares
const before = heap();
const outcomes = { declined: 0, refused: 0 };
for (let index = 1; index <= pages; index++) outcomes[await openAndDecline(index)]++;
const after = heap();
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
console.log(
  `${mode}: ${pages} pages: ${outcomes.declined} opened and declined, ${outcomes.refused} refused; ` +
    `the store holds ${store.size} flows; heap ${mib(before)} -> ${mib(after)} MiB ` +
    `(+${mib(after - before)} MiB, ${((after - before) / pages / 1024).toFixed(1)} KiB a page)`,
);
await listening.close();
