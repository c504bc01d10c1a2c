import type { ServerProfile } from '../workloads/profile.js';
import { markdownTable } from './markdown-table.js';
import { n0, n1 } from './numbers.js';

/** A server's CPU profile under load: busy time by origin and by party, and its top functions. */
export function profileSection(title: string, profile: ServerProfile): string {
  const rows = (list: ServerProfile['topSelf']) =>
    list.slice(0, 10).map((row) => [`\`${row.functionName}\``, `\`${row.location}\``, `${n1(row.percent)}%`]);
  const origins = profile.byOrigin
    .slice(0, 8)
    .map((row) => `${row.origin} ${n0(row.percent)}%`)
    .join(', ');
  const parties = profile.byParty.map((row) => `${row.party} ${n0(row.percent)}%`).join(', ');
  const behalf = parties ? `; on whose behalf: ${parties}` : '';
  return [
    `**${title}** (${n0(profile.busyMs)} ms busy; by origin: ${origins}${behalf}; profile: \`${profile.file}\`)`,
    '',
    markdownTable(['Top self time', 'Where', 'Share of busy'], rows(profile.topSelf)),
    '',
    markdownTable(
      ['Top attributed time (own code + what it calls)', 'Where', 'Share of busy'],
      rows(profile.topAttributed),
    ),
  ].join('\n');
}
