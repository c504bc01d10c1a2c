import { parseArgs } from 'node:util';
import { runFleet } from './fleet.js';
import { formatReport, MIN_FLOWS, problemsOf } from './report.js';

// `npm run test:fleet`: the fleet test. Prints progress, then the report; exits 1 when it failed.
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      flows: { type: 'string', default: '900' },
      active: { type: 'string', default: '24' },
      'mixed-flows': { type: 'string', default: '240' },
      'mixed-active': { type: 'string', default: '64' },
      'sticky-flows': { type: 'string', default: '40' },
      seed: { type: 'string' },
    },
  });
  const flows = Number(values.flows);
  const active = Number(values.active);
  const mixedFlows = Number(values['mixed-flows']);
  const mixedActive = Number(values['mixed-active']);
  const stickyFlows = Number(values['sticky-flows']);
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  for (const [name, value] of [
    ['--flows', flows],
    ['--active', active],
    ['--seed', seed],
    ['--mixed-flows', mixedFlows],
    ['--mixed-active', mixedActive],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} takes a positive whole number.`);
  }
  if (!Number.isSafeInteger(stickyFlows) || stickyFlows < 0)
    throw new Error('--sticky-flows takes a whole number (0 skips the sticky-routing part).');
  // The parts run more than asked while faults are under way; the total is checked at the end.
  if (flows + 2 * (mixedFlows + stickyFlows) < MIN_FLOWS / 2)
    process.stderr.write(`Note: fewer than ${MIN_FLOWS} flows in all make the run fail.\n`);
  const report = await runFleet({
    flows,
    active,
    mixedFlows,
    mixedActive,
    stickyFlows,
    seed,
    log: (line) => process.stdout.write(`${line}\n`),
  });
  process.stdout.write(`\n${formatReport(report)}\n`);
  process.exitCode = problemsOf(report).length === 0 ? 0 : 1;
}

main().catch((error: unknown) => {
  process.stderr.write(
    `fleet test could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 2;
});
