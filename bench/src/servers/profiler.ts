import { Session } from 'node:inspector/promises';

/**
 * The V8 CPU profiler (the one behind `node --cpu-prof`), started and stopped on request so a
 * profile covers the measured load only, not start-up and warm-up.
 */
let session: Session | undefined;

export async function startProfiling(intervalUs: number): Promise<void> {
  if (session) throw new Error('A profile is already running; stop it first.');
  const started = new Session();
  started.connect();
  await started.post('Profiler.enable');
  await started.post('Profiler.setSamplingInterval', { interval: intervalUs });
  await started.post('Profiler.start');
  session = started;
}

/** Stops the running profile and returns it as `.cpuprofile` JSON text. */
export async function stopProfiling(): Promise<string> {
  if (!session) throw new Error('No profile is running; start one first.');
  const running = session;
  session = undefined;
  const { profile } = await running.post('Profiler.stop');
  running.disconnect();
  return JSON.stringify(profile);
}
