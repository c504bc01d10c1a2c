import { terminalLine } from '@parley/client/terminal';
import type { RequestedSchema } from '@parley/core/form';
import { HOST_SOURCES, type HostRoute, type HostView, hostMatrix } from '@parley/core/hosts';

const ROUTES: Record<HostRoute, string> = {
  'in-band': 'shown in the host',
  'page-url': 'on a page of the server, opened by URL mode',
  'page-link': 'on a page of the server, by a link in the result',
};

/** `[X3 code, C7 probe; seen on tui at e55429b4]`: the evidence of one change. */
function evidence(sources: readonly string[], seenOn: string): string {
  const cited = sources.map((key) => `${key} ${HOST_SOURCES[key]?.grade ?? 'source'}`).join(', ');
  return cited === '' ? `[${seenOn}]` : `[${cited}; seen on ${seenOn}]`;
}

/** One host's lines: where the question goes, what was changed for it, and why. */
function hostLines(view: HostView): string[] {
  const { profile } = view;
  const lines = [`  ${profile.title} (${profile.wire.value.clientInfo.name}): ${ROUTES[view.route]}`];
  if (view.why !== undefined) lines.push(`      because ${view.why}`);
  for (const change of view.changes) {
    const field = change.field === undefined ? '' : `${change.field}: `;
    lines.push(`      ${field}${change.text} ${evidence(change.sources, change.seenOn)}`);
  }
  for (const note of view.notes) lines.push(`      · ${note.text} ${evidence(note.sources, note.seenOn)}`);
  return lines;
}

/**
 * The host matrix of one form question as text: the question, then each profiled host with where
 * the question goes for it and every change made for it, with its sources. The server's strings
 * are made inert (no terminal escapes, no second line).
 *
 * @example
 * hostMatrixText('boxes', 'How many boxes?', prepareQuestion(ask.integer({ min: 1, max: 3 })).schema);
 */
export function hostMatrixText(key: string | undefined, message: string, schema: RequestedSchema): string {
  const title = `Question ${key === undefined ? '' : `${terminalLine(key)}: `}${terminalLine(message)}`;
  return [title, ...hostMatrix(schema).flatMap(hostLines)].join('\n');
}

/** The same matrix as JSON: each host's id, clientInfo name, route, what it is sent, and the changes. */
export function hostMatrixJson(key: string | undefined, message: string, schema: RequestedSchema) {
  return {
    ...(key !== undefined && { key }),
    message,
    requestedSchema: schema,
    hosts: hostMatrix(schema).map((view) => ({
      id: view.profile.id,
      name: view.profile.wire.value.clientInfo.name,
      route: view.route,
      ...(view.sent !== undefined && { sent: view.sent }),
      ...(view.why !== undefined && { why: view.why }),
      changes: view.changes,
      notes: view.notes,
    })),
  };
}
