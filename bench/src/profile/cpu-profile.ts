/** The parts of a V8 `.cpuprofile` (as written by `node --cpu-prof`) that self-time needs. */
export interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: {
      readonly functionName: string;
      readonly url: string;
      /** 0-based. */
      readonly lineNumber: number;
      /** 0-based. */
      readonly columnNumber: number;
    };
    readonly children?: readonly number[];
  }[];
  readonly startTime: number;
  readonly endTime: number;
  /** The node id sampled at each tick. */
  readonly samples?: readonly number[];
  /** Microseconds since the previous sample, one per sample. */
  readonly timeDeltas?: readonly number[];
}

/** Whether parsed JSON has the shape of a CPU profile. */
export function isCpuProfile(value: unknown): value is CpuProfile {
  const profile = value as CpuProfile | null;
  return (
    typeof profile === 'object' &&
    profile !== null &&
    Array.isArray(profile.nodes) &&
    (profile.samples === undefined || Array.isArray(profile.samples)) &&
    (profile.timeDeltas === undefined || Array.isArray(profile.timeDeltas))
  );
}
