/** The servers every workload compares: Parley, the raw official SDK, and the bare node:http floor. */
export const SERVER_KINDS = ['parley', 'sdk', 'floor'] as const;
export type ServerKind = (typeof SERVER_KINDS)[number];
