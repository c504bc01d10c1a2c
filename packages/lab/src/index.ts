// @parley/lab: the browser host for MCP elicitation. `startLab` serves the lab page on loopback;
// the reusable form renderer is `@parley/lab/renderer`.

export type { CallKind, EraChoice } from './protocol.js';
export { type LabOptions, type LabTarget, type RunningLab, startLab } from './server/start-lab.js';
