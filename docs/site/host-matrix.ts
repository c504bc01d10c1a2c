// The host matrix page (docs/hosts.md), written from the host profile table of @parley/core/hosts:
// never edited by hand. The docs build writes it, and a test fails when the committed page and the
// table differ.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ask, prepareQuestion } from '@parley/core/form';
import {
  HOST_PROFILES,
  HOST_SOURCES,
  type HostFact,
  type HostProfile,
  type HostView,
  hostMatrix,
} from '@parley/core/hosts';

/** Where the page lives in the repository. */
export const HOST_MATRIX_PAGE = 'docs/hosts.md';

const code = (value: unknown) => `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;

/** A source key as a link to its entry in the list of sources at the end of the page. */
const cite = (keys: readonly string[]) =>
  keys.map((key) => `[${key}](#source-${key.toLowerCase()})`).join(', ');

function factLine(label: string, fact: HostFact<unknown> | undefined): string[] {
  if (!fact) return [];
  const note = fact.note === undefined ? '' : `: ${fact.note}`;
  return [`| ${label} | ${code(fact.value)}${note} | ${cite(fact.sources)} | ${fact.seenOn} |`];
}

function hostSection(profile: HostProfile): string[] {
  const wire = profile.wire.value;
  const fields = profile.fields ?? {};
  return [
    `### ${profile.title}`,
    '',
    `\`clientInfo.name\`: ${profile.names.map((name) => code(name)).join(', ')}` +
      (profile.versions ? `, versions ${code(profile.versions)}` : ', every version') +
      `. Profile id ${code(profile.id)}.`,
    ...(profile.keying ? ['', `Keying: ${profile.keying}.`] : []),
    '',
    '| fact | value | sources | seen on |',
    '| --- | --- | --- | --- |',
    `| sends | ${code(wire.clientInfo)} on ${code(wire.protocolVersion)}, capabilities ${code(wire.capabilities)}${profile.wire.note ? `: ${profile.wire.note}` : ''} | ${cite(profile.wire.sources)} | ${profile.wire.seenOn} |`,
    ...factLine('forms', profile.forms),
    ...factLine('URL mode', profile.url),
    ...factLine('numbers', fields.number),
    ...factLine('multi-select', fields.multiSelect),
    ...factLine('titled choices', fields.choiceLabels),
    ...factLine('formats', fields.formats),
    ...factLine('lengths and counts', fields.limits),
    ...factLine('field labels', fields.labels),
    ...factLine('root keys', profile.rootKeys),
    ...factLine('defaults', profile.defaults),
    ...factLine('falsy defaults', profile.falsyDefaults),
    ...factLine('untouched optional fields', profile.untouched),
    ...factLine('empty form', profile.emptyForm),
    ...factLine('waiting', profile.wait),
    ...(profile.notes ?? []).flatMap((note) => factLine('also', note)),
    '',
  ];
}

const ROUTE: Record<HostView['route'], string> = {
  'in-band': 'in the host',
  'page-url': 'page (URL mode)',
  'page-link': 'page (link in the result)',
};

/** One row per host for the example form: where it goes, and what Parley changes for it. */
function exampleRows(views: readonly HostView[]): string[] {
  return views.map((view) => {
    const changes = view.changes.map(
      (change) => `${change.field ? `${code(change.field)}: ` : ''}${change.text} (${cite(change.sources)})`,
    );
    const what = view.route === 'in-band' ? changes.join('; ') || 'sent as written' : view.why;
    return `| ${view.profile.title} | ${ROUTE[view.route]} | ${what} |`;
  });
}

const short = (fact: HostFact<unknown> | undefined): string => {
  if (!fact) return '?';
  const value = fact.value as unknown;
  if (typeof value === 'string') return `${value} (${cite(fact.sources)})`;
  const wait = value as { kind?: string; limitMs?: number; from?: string };
  if (wait.kind === 'limit')
    return `${(wait.limitMs ?? 0) / 1000} s from the ${wait.from} (${cite(fact.sources)})`;
  if (wait.kind !== undefined) return `${wait.kind} (${cite(fact.sources)})`;
  return `${code(value)} (${cite(fact.sources)})`;
};

/** One row per host: the facts that decide how a form reaches it. `?`: not known. */
function overviewRows(): string[] {
  return HOST_PROFILES.map((profile) => {
    const fields = profile.fields ?? {};
    const cells = [
      profile.forms,
      profile.url,
      fields.number,
      fields.multiSelect,
      fields.choiceLabels,
      profile.defaults,
      profile.untouched,
      profile.wait,
    ].map(short);
    return `| ${profile.title} (${code(profile.names[0])}) | ${cells.join(' | ')} |`;
  });
}

/** The whole page, from the table. */
export function hostMatrixMarkdown(): string {
  const example = ask.form({
    reason: ask.choice({ broken: 'It arrived broken', wrong: 'Wrong item' }, { title: 'Reason' }),
    boxes: ask.integer({ title: 'Boxes', min: 1, max: 3 }),
    note: ask.text({ title: 'Note for the courier', default: 'Leave at the door', optional: true }),
    tags: ask.many({ fragile: 'Fragile', heavy: 'Heavy' }, { title: 'Labels', optional: true }),
  });
  const lines = [
    '# Host matrix',
    '',
    '<!-- Written from HOST_PROFILES (@parley/core/hosts) by docs/site/host-matrix.ts: do not edit by hand. -->',
    '',
    'What each MCP host Parley knows declares and does with a form, as the host profiles of',
    '[`@parley/core/hosts`](../packages/core/README.md#host-profiles) say it, each fact with its',
    'sources and the host versions they saw. A Parley server lowers each form for the host that calls',
    '(see [Host profiles](../packages/server/README.md#host-profiles)); `parley hosts <server> <tool>`',
    "prints this for a tool's own questions; `testClient(server, { host })` is each host in a test.",
    'A host that is not here gets every form as written.',
    '',
    '## At a glance',
    '',
    '`?` means not known: Parley then sends the form as the spec has it.',
    '',
    '| host | forms | URL mode | numbers | multi-select | titled choices | defaults | untouched fields | waiting |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...overviewRows(),
    '',
    '## One form in every host',
    '',
    'A return form with a titled choice, an integer, an optional text with a default and an optional',
    'multi-select, as each host meets it on the revision it speaks:',
    '',
    '| host | where | what Parley changes |',
    '| --- | --- | --- |',
    ...exampleRows(hostMatrix(prepareQuestion(example).schema)),
    '',
    '## The hosts',
    '',
    ...HOST_PROFILES.flatMap(hostSection),
    '## What is not in the table, and why',
    '',
    '- JetBrains’ Copilot plugin: only a crowd-sourced capability and an open feature request; that it',
    '  declares forms it cannot show is a guess.',
    '- Mastra and Cloudflare agents: their `clientInfo.name` is the application’s own, so no profile can',
    '  reach them; their `-32601` for a form they declared is already sent down the ladder to a page.',
    '- fast-agent’s auto-cancel mode and Codex with `approval_policy = never`: they decline or cancel',
    '  every question, but nothing they send tells those modes apart (noted on their profiles).',
    '- Windsurf, Le Chat, Perplexity, ChatGPT and the other hosts that declare nothing: Parley already',
    '  asks their person on a page; Le Chat and Perplexity send the Python SDK’s shared `mcp`, which no',
    '  profile may be keyed on.',
    '- Booleans always sent with a default: VS Code drops a `false` default anyway and Goose sends',
    '  `false` for an untouched box, which is what the person saw; that the VS Code carousel picks',
    '  "True" by itself is one reviewer’s remark, not yet seen.',
    '- VS Code’s rendering since the 2026-03 carousel, Cursor’s and Copilot CLI’s: not known yet, so',
    '  their forms go as written.',
    '',
    '## Sources',
    '',
    'From the research (`host-quirks.md`, newest source read 2026-09-17). `code`: read in the',
    "host's source at that commit; `probe`: the host's own bytes captured on the wire; `report`: an",
    'issue, a pull request or a post (closed-source hosts have only these). The `PL` sources are',
    "Parley's own hosts, read in this repository.",
    '',
    ...Object.values(HOST_SOURCES).map(
      (source) =>
        `- <a id="source-${source.key.toLowerCase()}"></a>**${source.key}** (${source.grade}): ${source.cite}`,
    ),
    '',
  ];
  return lines.join('\n');
}

/** Writes the page when it differs from the table (the docs build calls it). */
export function writeHostMatrix(root: string): void {
  const file = join(root, HOST_MATRIX_PAGE);
  const page = hostMatrixMarkdown();
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {}
  if (current !== page) writeFileSync(file, page);
}
