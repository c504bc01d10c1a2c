import { parseArgs } from 'node:util';
import { formatGatewayReport, gatewayProblems } from './gateway-report.js';
import { runGatewayFleet } from './gateway-run.js';

// `npm run test:fleet:gateway`: the gateway fleet run. Prints progress, then the report; exits 1
// when it failed, 2 when it could not run.
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      flows: { type: 'string', default: '600' },
      active: { type: 'string', default: '24' },
      'concurrent-flows': { type: 'string', default: '300' },
      'concurrent-active': { type: 'string', default: '48' },
      seed: { type: 'string' },
    },
  });
  const flows = Number(values.flows);
  const active = Number(values.active);
  const concurrentFlows = Number(values['concurrent-flows']);
  const concurrentActive = Number(values['concurrent-active']);
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  for (const [name, value] of [
    ['--flows', flows],
    ['--active', active],
    ['--seed', seed],
    ['--concurrent-active', concurrentActive],
  ] as const) {
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} takes a positive whole number.`);
  }
  if (!Number.isSafeInteger(concurrentFlows) || concurrentFlows < 0)
    throw new Error('--concurrent-flows takes a whole number (0 skips the concurrent part).');
  const report = await runGatewayFleet({
    flows,
    active,
    concurrentFlows,
    concurrentActive,
    seed,
    log: (line) => process.stdout.write(`${line}\n`),
  });
  process.stdout.write(`\n${formatGatewayReport(report)}\n`);
  process.exitCode = gatewayProblems(report).length === 0 ? 0 : 1;
}

main()
  .catch((error: unknown) => {
    process.stderr.write(
      `gateway fleet run could not run: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 2;
  })
  // Flows counted as lost may still wait on a request that never ends.
  .finally(() => setTimeout(() => process.exit(), 100).unref());
