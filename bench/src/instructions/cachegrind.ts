/**
 * Counts the instructions a bench server executes, with valgrind's cachegrind: a count that machine
 * load does not move, so a 3% difference can be read on a busy 2-core machine where two processes
 * of the same code differ by ±10% in flows/s.
 *
 * Each count is two runs of the server under cachegrind: one serves `warm` flows, the other the same
 * `warm` flows and then `flows` more. Their difference, by function, is the work of the measured
 * flows alone. It is split into what V8's compilers did (the JIT still optimizing; it settles after
 * a few thousand flows), what its garbage collector did, and the rest: the program's own work.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { IdSource, runFlow } from '../load/flow.js';
import { KeepAlivePoster } from '../load/http-post.js';
import type { ServerKind } from '../servers/kinds.js';

const run = promisify(execFile);

/** Instructions per measured flow, by who executed them. */
export interface InstructionCount {
  readonly compile: number;
  readonly gc: number;
  /** Everything else: the server's JavaScript, Node and V8's runtime, the kernel calls' user side. */
  readonly rest: number;
  readonly total: number;
}

export interface CountOptions {
  /** The server script (`bench/dist/servers/main.js` of this or another build). */
  readonly main: string;
  readonly kind: ServerKind;
  readonly warm: number;
  readonly flows: number;
  readonly questions: number;
  readonly concurrency: number;
}

// V8's tiers and compilers, and its collector, by the C++ names cachegrind reports for them.
const COMPILE =
  /compiler::|Compiler|Turbofan|Maglev|interpreter::|Baseline|Sparkplug|Deoptimiz|Assembler|Zone|CompilationJob|regexp::/;
const GC = /Scaveng|Marking|MarkCompact|Sweep|Heap::|heap::|Evacuat|MemoryAllocator|GCTracer|GlobalHandles/;

/** Fails with the fix when valgrind's tools are not installed. */
export async function checkValgrind(): Promise<void> {
  for (const tool of ['valgrind', 'cg_diff', 'cg_annotate']) {
    try {
      await run('sh', ['-c', `command -v ${tool}`]);
    } catch {
      throw new Error(`${tool} was not found: install valgrind (Debian: apt-get install valgrind).`);
    }
  }
}

/** Instructions per flow of `flows` flows after `warm` warm-up flows, by kind of work. */
export async function countInstructions(options: CountOptions): Promise<InstructionCount> {
  const stem = join(tmpdir(), `parley-cg-${process.pid}-${Date.now()}`);
  const files = [`${stem}.warm`, `${stem}.measured`, `${stem}.diff`];
  try {
    await serveUnderCachegrind(options, options.warm, files[0]!);
    await serveUnderCachegrind(options, options.warm + options.flows, files[1]!);
    const { stdout: diff } = await run('cg_diff', [files[0]!, files[1]!], { maxBuffer: 256 << 20 });
    await writeFile(files[2]!, diff);
    const { stdout } = await run('cg_annotate', ['--auto=no', '--threshold=0', files[2]!], {
      maxBuffer: 256 << 20,
    });
    return perFlow(classify(stdout), options.flows);
  } finally {
    await Promise.all(files.map((file) => rm(file, { force: true })));
  }
}

/** Sums cg_annotate's per-function lines (`  1,234 (0.1%)  file:function`) by kind of work. */
export function classify(annotated: string): InstructionCount {
  let compile = 0;
  let gc = 0;
  let rest = 0;
  let inFunctions = false;
  for (const line of annotated.split('\n')) {
    if (line.includes('file:function')) {
      inFunctions = true;
      continue;
    }
    const match = inFunctions ? /^\s*(-?[\d,]+)\s+\(/.exec(line) : null;
    if (!match) continue;
    const count = Number(match[1]!.replaceAll(',', ''));
    if (COMPILE.test(line)) compile += count;
    else if (GC.test(line)) gc += count;
    else rest += count;
  }
  return { compile, gc, rest, total: compile + gc + rest };
}

function perFlow(count: InstructionCount, flows: number): InstructionCount {
  return {
    compile: count.compile / flows,
    gc: count.gc / flows,
    rest: count.rest / flows,
    total: count.total / flows,
  };
}

/** Starts the server under cachegrind, drives `flows` flows through it, and stops it. */
async function serveUnderCachegrind(options: CountOptions, flows: number, out: string): Promise<void> {
  const child = spawn(
    'valgrind',
    [
      '--tool=cachegrind',
      '--cache-sim=no',
      '--branch-sim=no',
      `--cachegrind-out-file=${out}`,
      // V8 writes the code it runs: valgrind must see the new code, wherever it is written.
      '--smc-check=all-non-file',
      process.execPath,
      '--expose-gc',
      // The collector's and compiler's threads would be counted the same but in an order that varies.
      '--single-threaded',
      options.main,
      options.kind,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-2000);
  });
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout! });
  const [line] = (await Promise.race([
    once(lines, 'line'),
    exited.then(() => {
      throw new Error(
        `The ${options.kind} server under valgrind exited before it printed its URL: ${errors}`,
      );
    }),
  ])) as [string];
  lines.close();
  const { url } = JSON.parse(line) as { url: string };
  const poster = new KeepAlivePoster(url, options.concurrency);
  const ids = new IdSource();
  let left = flows;
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (left-- > 0) await runFlow(poster, options.questions, ids);
    }),
  );
  poster.close();
  child.kill('SIGTERM');
  await exited;
}
