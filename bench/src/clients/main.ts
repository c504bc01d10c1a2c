/**
 * One client library driving survey flows in its own process, so its CPU time is its own:
 *
 *   node bench/dist/clients/main.js <bare|sdk|parley> <url> <questions> <durationMs> <warmupFlows>
 *
 * Prints one JSON line (a `ClientCost`).
 */
import { bareDriver } from './bare-driver.js';
import type { FlowDriver } from './driver.js';
import { CLIENT_KINDS, type ClientCost, type ClientKind } from './kinds.js';
import { parleyClientDriver } from './parley-client.js';
import { sdkClientDriver } from './sdk-client.js';

const drivers: Record<ClientKind, (url: string) => Promise<FlowDriver>> = {
  bare: bareDriver,
  sdk: sdkClientDriver,
  parley: parleyClientDriver,
};

const [kind, url, questionsText, durationText, warmupText] = process.argv.slice(2);
const make = drivers[kind as ClientKind];
if (!make || !url)
  throw new Error(`Usage: main.js <${CLIENT_KINDS.join('|')}> <url> <questions> <durationMs> <warmupFlows>`);
const questions = Number(questionsText);
const durationMs = Number(durationText);
const warmupFlows = Number(warmupText ?? 20);

const driver = await make(url);
for (let i = 0; i < warmupFlows; i++) await driver.flow(questions); // warm-up: connections, JIT
const cpuBefore = process.cpuUsage();
const started = process.hrtime.bigint();
const deadline = Date.now() + durationMs;
let flows = 0;
while (Date.now() < deadline) {
  await driver.flow(questions);
  flows++;
}
const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
const cpu = process.cpuUsage(cpuBefore);
await driver.close();
const rounds = flows * (questions + 1);
const cost: ClientCost = {
  flows,
  rounds,
  cpuPerRoundUs: (cpu.user + cpu.system) / rounds,
  wallPerRoundMs: wallMs / rounds,
};
process.stdout.write(`${JSON.stringify(cost)}\n`);
