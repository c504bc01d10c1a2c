import type { TimelineEntry } from '../protocol.js';

const KEPT = [
  'type',
  'round',
  'at',
  'ms',
  'method',
  'keys',
  'stateBytes',
  'mode',
  'key',
  'reason',
  'isError',
  'message',
];

/**
 * Copies the parts of a client call event that the timeline shows. Events never hold what a person
 * typed; this also leaves out the call's arguments and anything a later client version may add.
 */
export function timelineEntry(event: object): TimelineEntry {
  const source = event as Record<string, unknown>;
  const entry: Record<string, unknown> = {};
  for (const key of KEPT) if (source[key] !== undefined) entry[key] = source[key];
  if (Array.isArray(source.answers)) {
    entry.answers = source.answers.map((answer: Record<string, unknown>) => ({
      ...(typeof answer.key === 'string' && { key: answer.key }),
      ...(typeof answer.method === 'string' && { method: answer.method }),
      action: String(answer.action),
    }));
  }
  return entry as unknown as TimelineEntry;
}
