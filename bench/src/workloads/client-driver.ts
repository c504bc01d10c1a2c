/**
 * Workload (e): what the client library itself costs per round. Each client runs in its own
 * process against the same Parley server, and its own CPU time per round is read inside that
 * process; the bench's bare loop is the floor.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { ClientCost, ClientKind } from '../clients/kinds.js';

const CLIENT_MAIN = fileURLToPath(new URL('../clients/main.js', import.meta.url));

/** Runs one client library for `durationMs` after `warmupFlows` flows, and reads its cost. */
export async function measureClient(
  kind: ClientKind,
  url: string,
  questions: number,
  durationMs: number,
  warmupFlows: number,
): Promise<ClientCost> {
  const { stdout } = await promisify(execFile)(process.execPath, [
    CLIENT_MAIN,
    kind,
    url,
    String(questions),
    String(durationMs),
    String(warmupFlows),
  ]);
  return JSON.parse(stdout) as ClientCost;
}
