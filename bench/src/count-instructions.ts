/**
 * Instructions per flow, counted with valgrind (cachegrind), for plain Parley, its feature variants
 * and, with `--base DIR`, another built checkout: the measure for a few-percent difference on a
 * machine whose load moves flows/s by more than that. Needs valgrind (`apt-get install valgrind`).
 *
 *   npm run bench:instructions                                  # parley, parley-use, parley-otel
 *   npm run bench:instructions -- --base ../parley-at-ff2aea0   # and Parley of another build
 *   npm run bench:instructions -- --kinds parley,parley-use --warm 3000 --flows 900 --jobs 2
 *
 * Each row is two runs under valgrind (`--warm` flows; `--warm` + `--flows` flows), so its count is
 * the measured flows' alone. The compiler column is V8 still optimizing code; read `rest` (and `gc`)
 * for what a request costs once the code is settled.
 */
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { checkValgrind, countInstructions, type InstructionCount } from './instructions/cachegrind.js';
import { FEATURE_KINDS, SERVER_KINDS, type ServerKind } from './servers/kinds.js';
import { SERVER_MAIN } from './servers/spawn.js';

const { values } = parseArgs({
  options: {
    kinds: { type: 'string', default: 'parley,parley-use,parley-otel' },
    base: { type: 'string' },
    warm: { type: 'string', default: '3000' },
    flows: { type: 'string', default: '900' },
    questions: { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '1' },
    jobs: { type: 'string', default: '1' },
  },
});

const known: readonly string[] = [...SERVER_KINDS, ...FEATURE_KINDS];
const kinds = values.kinds.split(',').map((kind) => kind.trim());
for (const kind of kinds)
  if (!known.includes(kind)) throw new Error(`Unknown kind ${kind}: use some of ${known.join(', ')}.`);

interface Row {
  readonly label: string;
  readonly main: string;
  readonly kind: ServerKind;
}
const rows: Row[] = kinds.map((kind) => ({ label: kind, main: SERVER_MAIN, kind: kind as ServerKind }));
if (values.base)
  rows.push({
    label: `parley at ${values.base}`,
    main: join(resolve(values.base), 'bench', 'dist', 'servers', 'main.js'),
    kind: 'parley',
  });

await checkValgrind();
const settings = {
  warm: Number(values.warm),
  flows: Number(values.flows),
  questions: Number(values.questions),
  concurrency: Number(values.concurrency),
};
console.error(
  `Counting ${rows.length} server(s) under valgrind: ${settings.warm} warm-up flows, then ${settings.flows} measured ` +
    `(${settings.questions} question(s), concurrency ${settings.concurrency}). Several minutes per server.`,
);

const counts = new Map<Row, InstructionCount>();
const queue = [...rows];
await Promise.all(
  Array.from({ length: Math.max(1, Number(values.jobs)) }, async () => {
    for (let row = queue.shift(); row; row = queue.shift()) {
      const started = Date.now();
      counts.set(row, await countInstructions({ ...settings, main: row.main, kind: row.kind }));
      console.error(`${row.label}: counted in ${Math.round((Date.now() - started) / 1000)} s`);
    }
  }),
);

const first = counts.get(rows[0]!)!;
const millions = (n: number) => `${(n / 1e6).toFixed(3)} M`;
const versus = (n: number, of: number) => `${n >= of ? '+' : ''}${(((n - of) / of) * 100).toFixed(1)}%`;
console.log(`| Server | compile | gc | rest | rest vs ${rows[0]!.label} | rest + gc vs ${rows[0]!.label} |`);
console.log('| --- | --- | --- | --- | --- | --- |');
for (const row of rows) {
  const count = counts.get(row)!;
  console.log(
    `| ${row.label} | ${millions(count.compile)} | ${millions(count.gc)} | ${millions(count.rest)} | ` +
      `${versus(count.rest, first.rest)} | ${versus(count.rest + count.gc, first.rest + first.gc)} |`,
  );
}
