import { frozenCopy } from '../form/json.js';
import type { HostFact, HostProfile } from './types.js';

function fact<T>(value: T, sources: readonly string[], seenOn: string, note?: string): HostFact<T> {
  return { value, sources, seenOn, ...(note !== undefined && { note }) };
}

const NONE = { kind: 'none' } as const;
const noUrl = (sources: readonly string[], seenOn: string) => fact('not-declared' as const, sources, seenOn);

/** A host that declares no elicitation: Parley asks its person on a page of the server. */
function declaresNothing(host: {
  readonly id: string;
  readonly title: string;
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly protocolVersion: string;
  readonly capabilities?: Readonly<Record<string, unknown>>;
  readonly sources: readonly string[];
  readonly seenOn: string;
  readonly keying?: string;
  readonly wireNote?: string;
}): HostProfile {
  const { sources, seenOn } = host;
  return {
    id: host.id,
    title: host.title,
    names: [host.clientInfo.name],
    ...(host.keying !== undefined && { keying: host.keying }),
    wire: fact(
      {
        clientInfo: host.clientInfo,
        protocolVersion: host.protocolVersion,
        capabilities: host.capabilities ?? {},
      },
      sources,
      seenOn,
      host.wireNote,
    ),
    forms: fact('not-declared', sources, seenOn, 'a question goes to a page of the server (the ladder)'),
    url: noUrl(sources, seenOn),
  };
}

/**
 * One of Parley's own hosts (the terminal, the lab): every field kind shown and checked as the spec
 * has it, every default pre-filled (its `ElicitationUI` says `defaults: 'prefilled'`), URL mode
 * opened after consent, its request timer paused while a question waits.
 */
function parleyHost(host: {
  readonly id: string;
  readonly title: string;
  readonly name: string;
  readonly keying?: string;
  readonly wireSources: readonly string[];
  readonly wireNote: string;
  readonly formSources: readonly string[];
}): HostProfile {
  const seenOn = 'this repository';
  const shows = <T>(value: T) => fact(value, host.formSources, seenOn);
  return {
    id: host.id,
    title: host.title,
    names: [host.name],
    ...(host.keying !== undefined && { keying: host.keying }),
    wire: fact(
      {
        clientInfo: { name: host.name, version: '0.1.0' },
        protocolVersion: '2025-11-25',
        capabilities: { elicitation: { form: {}, url: {} }, sampling: {} },
      },
      host.wireSources,
      seenOn,
      host.wireNote,
    ),
    forms: shows('shown'),
    url: shows('opened'),
    fields: {
      number: shows('shown'),
      multiSelect: shows('shown'),
      choiceLabels: shows('titles'),
      formats: shows('checked'),
      limits: shows('checked'),
      labels: shows('titles'),
    },
    defaults: shows('prefilled'),
    wait: fact(
      { kind: 'paused' },
      host.wireSources,
      seenOn,
      'its request timer stops while a question waits',
    ),
  };
}

/** Claude Code as it is now; an older build's profile differs in its URL mode only. */
const CLAUDE_CODE: HostProfile = {
  id: 'claude-code',
  title: 'Claude Code (CLI, and the Code tab of Claude Desktop)',
  names: ['claude-code'],
  keying:
    'the CLI, the build inside Claude Desktop and the Agent SDK all send claude-code (C1, C5): a rule for one reaches all',
  wire: fact(
    {
      clientInfo: { name: 'claude-code', version: '2.1.221', title: 'Claude Code' },
      protocolVersion: '2025-11-25',
      capabilities: { roots: { listChanged: true }, elicitation: {} },
    },
    ['C1'],
    '2.1.221, 2.1.233',
  ),
  forms: fact(
    'shown',
    ['C7', 'C1'],
    '2.1.x (2026-05 probe)',
    'forms reported auto-declined or cancelled at once in some builds and terminals (C4)',
  ),
  url: noUrl(['C2', 'C3'], 'since about 2.1.108, on both eras'),
  fields: {
    number: fact('shown', ['C7'], '2.1.x (2026-05 probe)'),
    multiSelect: fact('shown', ['C7'], '2.1.x (2026-05 probe)'),
    choiceLabels: fact('titles', ['C7'], '2.1.x (2026-05 probe)'),
  },
  defaults: fact('prefilled', ['C7'], '2.1.x (2026-05 probe)'),
  wait: fact(
    { kind: 'limit', limitMs: 60_000, from: 'call' },
    ['C5'],
    '2.1.259 inside Claude Desktop',
    'the Desktop build draws nothing and cancels the call after 60 s; the CLI waits. They send the same name, ' +
      'so Parley moves a question still unanswered near 60 s to its page',
  ),
};

/**
 * The hosts Parley knows, from the research in `host-quirks.md` (newest source read 2026-09-17).
 * Each fact names its sources ({@link HOST_SOURCES}) and the host versions they saw. A fact the
 * research marks unknown is left out, and Parley then sends the form as the spec has it.
 */
export const HOST_PROFILES: readonly HostProfile[] = frozenCopy<HostProfile[]>([
  {
    id: 'vscode',
    title: 'VS Code (GitHub Copilot Chat)',
    names: ['Visual Studio Code'],
    keying:
      'the name is productService.nameLong: Insiders and forks send their own (V1, inferred), and these rules do not reach them',
    wire: fact(
      {
        clientInfo: { name: 'Visual Studio Code', version: '1.130.0' },
        protocolVersion: '2025-11-25',
        capabilities: {
          elicitation: { form: {}, url: {} },
          tasks: { requests: { elicitation: { create: {} } } },
        },
      },
      ['V1', 'M1'],
      '1.130.0 (probed); 2025-11-25 since 1.107 (V5)',
    ),
    forms: fact('shown', ['V1', 'V2'], 'QuickPick UI, before 2026-03'),
    url: fact(
      'accept-on-open',
      ['V2'],
      'QuickPick UI, before 2026-03',
      'accept means "opened": Parley waits for its own page or flow to finish',
    ),
    fields: {
      number: fact('shown', ['V2'], 'QuickPick UI, before 2026-03'),
      multiSelect: fact('shown', ['V2'], 'QuickPick UI, before 2026-03'),
      choiceLabels: fact(
        'values',
        ['V2'],
        'QuickPick UI, before 2026-03',
        'an option is labelled with its value, its title shown beside it: choose readable values',
      ),
      formats: fact('unchecked', ['V2'], 'QuickPick UI, before 2026-03', 'email is only "contains @"'),
      limits: fact('unchecked', ['V2'], 'QuickPick UI, before 2026-03', 'minItems and maxItems not enforced'),
    },
    rootKeys: fact('ignored', ['V2'], 'QuickPick UI, before 2026-03'),
    defaults: fact(
      'not-prefilled',
      ['V2'],
      'QuickPick UI, before 2026-03',
      'a default is offered as a "Default value" pick, not filled in',
    ),
    falsyDefaults: fact('dropped', ['V2'], 'QuickPick UI, before 2026-03'),
    untouched: fact(
      { number: null },
      ['V2'],
      'QuickPick UI, before 2026-03',
      'an optional number left at "None" is NaN, which JSON sends as null (inferred from the code)',
    ),
    emptyForm: fact('shown', ['V2'], 'QuickPick UI, before 2026-03'),
    wait: fact(NONE, ['V2'], 'QuickPick UI, before 2026-03'),
    notes: [
      fact(
        'since 2026-03 questions show in the chat "question carousel"; how it renders each field is not known yet',
        ['V3'],
        'VS Code after 2026-03-09',
      ),
    ],
  },
  {
    id: 'copilot-cli',
    title: 'GitHub Copilot CLI',
    names: ['github-copilot-developer'],
    keying: 'sent a fixed version 1.0.0 until about 1.0.2x, so older builds cannot be told apart (P1)',
    wire: fact(
      {
        clientInfo: { name: 'github-copilot-developer', version: '1.0.25' },
        protocolVersion: '2025-11-25',
        capabilities: { elicitation: { form: {}, url: {} }, sampling: {} },
      },
      ['P1'],
      '1.0.25 (0.0.401 declared nothing)',
    ),
    forms: fact('shown', ['P1', 'P3'], '1.0.25 to 1.0.83'),
    url: fact('opened', ['P1'], '1.0.25', 'declared; what it shows is not known'),
    fields: {
      choiceLabels: fact('titles', ['P3'], '2026', 'titled oneOf choices work'),
    },
  },
  {
    ...CLAUDE_CODE,
    id: 'claude-code-before-2.1.108',
    title: 'Claude Code (before about 2.1.108)',
    versions: '<2.1.108',
    wire: fact(
      {
        clientInfo: { name: 'claude-code', version: '2.1.87', title: 'Claude Code' },
        protocolVersion: '2025-11-25',
        capabilities: { roots: { listChanged: true }, elicitation: { form: {}, url: {} } },
      },
      ['C2'],
      '2.1.87',
    ),
    url: fact(
      'distrusted',
      ['C2'],
      '2.1.87',
      'declared URL mode and answered a URL question cancel; narrowed to forms only around 2.1.108',
    ),
  },
  CLAUDE_CODE,
  declaresNothing({
    id: 'claude-desktop',
    title: 'Claude Desktop chat and claude.ai',
    clientInfo: { name: 'claude-ai', version: '0.1.0' },
    protocolVersion: '2025-11-25',
    sources: ['D1', 'M1'],
    seenOn: '0.1.0 (2026-03 and 2026-08 probes)',
  }),
  {
    id: 'codex',
    title: 'OpenAI Codex (CLI and app server)',
    names: ['codex-mcp-client'],
    wire: fact(
      {
        clientInfo: { name: 'codex-mcp-client', version: '0.154.0', title: 'Codex' },
        protocolVersion: '2025-06-18',
        capabilities: { elicitation: { form: {} } },
      },
      ['X1'],
      '0.148.0-alpha.15, 0.154.0',
    ),
    forms: fact(
      'shown',
      ['X1', 'X3'],
      'crate at 9c16a437 and e55429b4',
      'with approval_policy = never every question is declined without asking anyone (X2)',
    ),
    url: noUrl(['X1'], 'crate at 9c16a437 (a 0.148 probe declared url too, M1)'),
    fields: {
      number: fact(
        'unsupported',
        ['X3', 'C7'],
        'tui at e55429b4',
        'falls back to an approve/decline prompt with no field',
      ),
      multiSelect: fact(
        'unsupported',
        ['X3', 'C7'],
        'tui at e55429b4',
        'falls back to an approve/decline prompt with no field',
      ),
      choiceLabels: fact('titles', ['X3'], 'tui at e55429b4'),
      formats: fact('unchecked', ['X3', 'C7'], 'tui at e55429b4'),
      limits: fact('unchecked', ['C7'], '2026-05 probe'),
    },
    rootKeys: fact(
      'rejected',
      ['X4'],
      '0.142.4',
      'a root title (or any unknown root key) rejects the whole question',
    ),
    defaults: fact('choices-only', ['X3'], 'tui at e55429b4', 'a text default is not shown'),
    emptyForm: fact(
      'auto-accepted',
      ['X2'],
      'crate at 65431b76',
      'with full-access auto-approval a form with no fields is accepted with {} without asking anyone',
    ),
    wait: fact({ kind: 'paused' }, ['X1', 'X7'], 'crate at 9c16a437', 'the 120 s tool timeout stops'),
  },
  {
    id: 'cursor',
    title: 'Cursor',
    names: ['cursor-vscode'],
    keying: 'always sends version 1.0.0, whatever the app version (M1, U3): no rule can be keyed by version',
    wire: fact(
      {
        clientInfo: { name: 'cursor-vscode', version: '1.0.0' },
        protocolVersion: '2025-11-25',
        capabilities: { elicitation: { form: {} } },
      },
      ['M1', 'U3'],
      'app 3.14.27 (2026-08 probe)',
    ),
    forms: fact('shown', ['M1'], 'app 3.14.27', 'declared; how it renders each field is not known'),
    url: noUrl(['M1'], 'app 3.14.27'),
  },
  declaresNothing({
    id: 'gemini-cli',
    title: 'Gemini CLI',
    clientInfo: { name: 'gemini-cli-mcp-client', version: '0.5.0' },
    protocolVersion: '2025-11-25',
    capabilities: { roots: {} },
    sources: ['G1', 'G2'],
    seenOn: 'snapshot 5411f113 (2026-08-21)',
    wireNote: 'the version is the CLI version; 0.5.0 is an example',
  }),
  {
    id: 'goose',
    title: 'Goose Desktop',
    names: ['goose-desktop', 'goose'],
    keying:
      'the CLI is reported to send goose (A1, crowd-sourced); the Desktop app was probed as goose-desktop',
    wire: fact(
      {
        clientInfo: { name: 'goose-desktop', version: '1.38.0' },
        protocolVersion: '2025-03-26',
        capabilities: { elicitation: {}, roots: {}, sampling: {} },
      },
      ['O1', 'M1'],
      '1.38.0 (probed)',
      'negotiates 2025-03-26, which predates elicitation, and still answers elicitation/create',
    ),
    forms: fact('shown', ['O1', 'O3'], 'ui at 414c29b7'),
    url: noUrl(['O1', 'O2'], 'crate at 01aaa821'),
    fields: {
      number: fact('shown', ['O3'], 'ui at 414c29b7'),
      multiSelect: fact('text', ['O3'], 'ui at 414c29b7', 'a text box; a string is sent'),
      choiceLabels: fact('text', ['O3'], 'ui at 414c29b7', 'a titled choice is a free text box'),
      formats: fact('unchecked', ['O3'], 'ui at 414c29b7'),
      limits: fact('checked', ['O3'], 'ui at 414c29b7'),
      labels: fact(
        'keys',
        ['O3'],
        'ui at 414c29b7',
        'a field is labelled with its key; its title is not shown',
      ),
    },
    rootKeys: fact('ignored', ['O3'], 'ui at 414c29b7'),
    defaults: fact('prefilled', ['O3'], 'ui at 414c29b7'),
    untouched: fact(
      { text: '', boolean: false, number: 'minimum' },
      ['O3'],
      'ui at 414c29b7',
      'optional fields nobody touched are sent as "", false, or the minimum (0 without one)',
    ),
    emptyForm: fact(
      'accept-only',
      ['O2'],
      'ui at 154bf8ab',
      'a form with no fields has a lone Accept button',
    ),
    wait: fact(
      { kind: 'limit', limitMs: 300_000, from: 'question' },
      ['O1', 'O2'],
      'crate at 01aaa821, ui at 154bf8ab',
      'then answers -32603 "timed out"',
    ),
  },
  declaresNothing({
    id: 'librechat',
    title: 'LibreChat',
    clientInfo: { name: '@librechat/api-client', version: '1.2.3' },
    protocolVersion: '2025-11-25',
    sources: ['L1'],
    seenOn: 'several index versions',
    keying: 'the version is hardcoded 1.2.3 (L1)',
  }),
  {
    id: 'inspector',
    title: 'MCP Inspector (web)',
    names: ['mcp-inspector'],
    keying: 'the web app sends the fallback version 0.0.0 (I1)',
    wire: fact(
      {
        clientInfo: { name: 'mcp-inspector', version: '0.0.0' },
        protocolVersion: '2025-11-25',
        capabilities: {
          elicitation: { form: {}, url: {} },
          tasks: { requests: { elicitation: { create: {} } } },
        },
      },
      ['I1'],
      'v2 snapshot 86d5f58e (2026-08-19)',
    ),
    forms: fact('shown', ['I1', 'I2'], 'v2 snapshot 86d5f58e'),
    url: fact('opened', ['I1'], 'v2 snapshot 86d5f58e'),
    fields: {
      number: fact('shown', ['I2'], 'v2 snapshot 86d5f58e'),
      multiSelect: fact('shown', ['I2'], 'v2 snapshot 86d5f58e'),
      choiceLabels: fact('titles', ['I2'], 'v2 snapshot 86d5f58e'),
      formats: fact('unchecked', ['I2'], 'v2 snapshot 86d5f58e', 'no input per format'),
      limits: fact('checked', ['I2'], 'v2 snapshot 86d5f58e'),
    },
    defaults: fact('prefilled', ['I2'], 'v2 snapshot 86d5f58e'),
  },
  declaresNothing({
    id: 'inspector-cli',
    title: 'MCP Inspector (CLI)',
    clientInfo: { name: 'inspector-cli', version: '2.3.0' },
    protocolVersion: '2025-11-25',
    sources: ['I1'],
    seenOn: 'v2 snapshot 86d5f58e',
  }),
  {
    id: 'mcpjam',
    title: 'MCPJam Inspector',
    names: ['mcpjam-inspector'],
    keying:
      'MCPJam can also send another host’s clientInfo and capabilities to emulate it (M1): the server then lowers for that host, as it should',
    wire: fact(
      {
        clientInfo: { name: 'mcpjam-inspector', version: '1.0.0' },
        protocolVersion: '2025-11-25',
        capabilities: { elicitation: {} },
      },
      ['M1', 'M2'],
      'snapshot 6d550c02 (2026-08-22)',
    ),
    forms: fact('shown', ['M2', 'M3'], 'snapshot 6d550c02'),
    url: noUrl(['M2'], 'snapshot 6d550c02'),
    fields: {
      number: fact('shown', ['M3'], 'snapshot 6d550c02'),
      multiSelect: fact('shown', ['M3'], 'snapshot 6d550c02'),
      choiceLabels: fact('titles', ['M3'], 'snapshot 6d550c02'),
      formats: fact('checked', ['M3'], 'snapshot 6d550c02'),
      limits: fact('checked', ['M3'], 'snapshot 6d550c02'),
    },
    defaults: fact('prefilled', ['M3'], 'snapshot 6d550c02'),
    wait: fact({ kind: 'paused' }, ['M2'], 'snapshot 6d550c02'),
  },
  {
    id: 'mcp-use',
    title: 'mcp-use (TypeScript client)',
    names: ['mcp-use'],
    wire: fact(
      {
        clientInfo: { name: 'mcp-use', version: '1.0.0', title: 'mcp-use' },
        protocolVersion: '2025-11-25',
        capabilities: { elicitation: { form: {}, url: {} } },
      },
      ['E1'],
      'snapshot 5865e5c1 (2026-08-21)',
      'the version is the package version; 1.0.0 is an example. The application draws the forms',
    ),
    forms: fact('shown', ['E1'], 'snapshot 5865e5c1'),
    url: fact(
      'distrusted',
      ['E1'],
      'snapshot 5865e5c1',
      'url is declared whenever a callback is given, whatever the callback handles',
    ),
  },
  {
    id: 'fast-agent',
    title: 'fast-agent',
    names: ['fast-agent-mcp'],
    wire: fact(
      {
        clientInfo: { name: 'fast-agent-mcp', version: '0.3.0' },
        protocolVersion: '2025-11-25',
        capabilities: { elicitation: { form: {}, url: {} } },
      },
      ['FA1', 'PY1'],
      'snapshot 610a2f57 (2026-08-18)',
      'the version is the package version; 0.3.0 is an example',
    ),
    forms: fact(
      'shown',
      ['FA1'],
      'snapshot 610a2f57',
      'in its auto-cancel mode it declares forms and cancels every one; that mode does not show in clientInfo',
    ),
    url: fact(
      'distrusted',
      ['PY1'],
      'Python SDK with a callback',
      'the Python SDK declares url whenever any elicitation callback exists',
    ),
    fields: {
      number: fact('shown', ['FA1'], 'snapshot 610a2f57'),
      multiSelect: fact('shown', ['FA1'], 'snapshot 610a2f57'),
      choiceLabels: fact('titles', ['FA1'], 'snapshot 610a2f57'),
      formats: fact('checked', ['FA1'], 'snapshot 610a2f57'),
      limits: fact('checked', ['FA1'], 'snapshot 610a2f57'),
    },
    defaults: fact('prefilled', ['FA1'], 'snapshot 610a2f57'),
  },
  parleyHost({
    id: 'parley-cli',
    title: 'Parley CLI (the terminal host)',
    name: 'parley-cli',
    keying:
      'the CLI names itself parley-cli; the client library’s default name, parley, is sent by any program built on it with a UI of its own, so it is not keyed. With an answers file, or with no terminal, the client fills the defaults itself, so the server never sees one left out',
    wireSources: ['PL1'],
    wireNote: 'the version is the package version; roots are declared too when --roots is given',
    formSources: ['PL2'],
  }),
  parleyHost({
    id: 'parley-lab',
    title: 'Parley lab (the browser host)',
    name: 'parley-lab',
    wireSources: ['PL3'],
    wireNote: 'roots are declared too when the person chose some',
    formSources: ['PL3', 'PL4'],
  }),
  declaresNothing({
    id: 'cline',
    title: 'Cline',
    clientInfo: { name: 'Cline', version: '4.0.10' },
    protocolVersion: '2025-11-25',
    sources: ['M1'],
    seenOn: '4.0.10 (probed)',
  }),
  declaresNothing({
    id: 'continue',
    title: 'Continue (IDE)',
    clientInfo: { name: 'continue-client', version: '1.0.0' },
    protocolVersion: '2025-11-25',
    sources: ['N1'],
    seenOn: 'index version',
  }),
  declaresNothing({
    id: 'zed',
    title: 'Zed',
    clientInfo: { name: 'Zed', version: '0.1.0' },
    protocolVersion: '2025-03-26',
    sources: ['Z1'],
    seenOn: 'crate at 22cc524a',
    keying: 'the version is the context_server crate version, not the app version (Z1)',
    wireNote: 'the version is an example; Zed speaks one protocol revision only',
  }),
  declaresNothing({
    id: 'n8n',
    title: 'n8n MCP Client Tool',
    clientInfo: { name: '@n8n/n8n-nodes-langchain.mcpClientTool', version: '1.4' },
    protocolVersion: '2025-11-25',
    sources: ['M1'],
    seenOn: '1.4 (probed)',
  }),
]);
