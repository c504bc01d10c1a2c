import type { TimelineEntry } from '../../protocol.js';

function bytes(count: number): string {
  return `${count.toLocaleString('en-US')} byte${count === 1 ? '' : 's'}`;
}

function list(items: readonly string[] | undefined): string {
  return items && items.length > 0 ? items.join(', ') : 'none';
}

/**
 * One line of a call's timeline, in words. Timelines show the shape of a round (keys, sizes,
 * actions, timings), never what a person typed or what the request state holds.
 */
export function timelineText(entry: TimelineEntry): string {
  const took = entry.ms !== undefined ? ` (${Math.round(entry.ms)} ms)` : '';
  switch (entry.type) {
    case 'request':
      return `Request ${entry.method ?? ''}`.trim();
    case 'input-required': {
      const state =
        entry.stateBytes === null || entry.stateBytes === undefined
          ? 'no request state'
          : `request state ${bytes(entry.stateBytes)}`;
      return `Input required: ${list(entry.keys)}; ${state}${took}`;
    }
    case 'elicitation':
      return `Server asked (elicitation/create, ${entry.mode ?? 'form'})${entry.key ? `: ${entry.key}` : ''}`;
    case 'skipped':
      return `Not shown${entry.key ? `: ${entry.key}` : ''}: ${entry.reason ?? ''}`.trim();
    case 'answers':
      return `Answers sent: ${list(entry.answers?.map((answer) => `${answer.key ?? answer.method ?? '?'} ${answer.action}`))}`;
    case 'url-complete':
      return 'The server said the web page flow finished';
    case 'result':
      return `${entry.isError ? 'Tool error' : 'Result'}${took}`;
    case 'error':
      return `Failed: ${entry.message ?? ''}${took}`;
    default:
      return entry.type;
  }
}
