/** The client libraries workload (e) compares, each driving the same survey flows. */
export const CLIENT_KINDS = ['bare', 'sdk', 'parley'] as const;
export type ClientKind = (typeof CLIENT_KINDS)[number];

/** What one client costs per round, measured inside the client's own process. */
export interface ClientCost {
  readonly flows: number;
  readonly rounds: number;
  /** Client CPU time (user + system) per round, microseconds. */
  readonly cpuPerRoundUs: number;
  /** Wall time per round, milliseconds (includes the server and the network). */
  readonly wallPerRoundMs: number;
}
