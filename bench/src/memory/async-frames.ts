/**
 * What an `async` frame costs a call that waits (`npm run bench:frames`): 20,000 calls each wait on
 * a promise whose resolver is held (as a pending 2025 request's is, by its transport), through three
 * nested functions written either as plain promises (one `.then` at the bottom) or as `async`
 * functions that `await` each other. Heap per waiting call, after full GCs. This is why the code on
 * the path of a pending 2025 question is written without `async` (see ARCHITECTURE.md): each
 * suspended frame keeps its registers and its own promise for as long as the person takes.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const CALLS = 20_000;
const resolvers: ((value: number) => void)[] = [];
const waiting = () => new Promise<number>((resolve) => resolvers.push(resolve));

async function awaitedInner(x: number, y: number): Promise<number> {
  const value = await waiting();
  return value + x + y;
}
async function awaitedMiddle(x: number, y: number): Promise<number> {
  const value = await awaitedInner(x, y);
  return value;
}
async function awaitedOuter(x: number, y: number): Promise<number> {
  const value = await awaitedMiddle(x, y);
  return value;
}

function plainInner(x: number, y: number): Promise<number> {
  return waiting().then((value) => value + x + y);
}
function plainMiddle(x: number, y: number): Promise<number> {
  return plainInner(x, y);
}
function plainOuter(x: number, y: number): Promise<number> {
  return plainMiddle(x, y);
}

function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Heap per waiting call made by `call`, in bytes. */
function bytesPerCall(call: (x: number, y: number) => Promise<number>): number {
  resolvers.length = 0;
  const before = heapUsed();
  for (let i = 0; i < CALLS; i++) void call(i, i + 1);
  return (heapUsed() - before) / CALLS;
}

const rows: [string, (x: number, y: number) => Promise<number>][] = [
  ['three functions, plain promises', plainOuter],
  ['three async functions', awaitedOuter],
];
// Twice each, interleaved: the second reading is the one quoted (code compiled, heap settled).
const readings = new Map<string, number>();
for (let turn = 0; turn < 2; turn++) for (const [name, call] of rows) readings.set(name, bytesPerCall(call));
console.log(`Heap per waiting call (${CALLS.toLocaleString('en')} calls, node ${process.version}):`);
for (const [name, bytes] of readings) console.log(`  ${name.padEnd(32)} ${bytes.toFixed(0)} bytes`);
