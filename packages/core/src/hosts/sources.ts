import type { HostSource } from './types.js';

const GH = 'https://github.com/';

function source(key: string, cite: string, grade: HostSource['grade']): HostSource {
  return Object.freeze({ key, cite, grade });
}

/**
 * The sources the host profiles rest on, by the key the research (`host-quirks.md`, §2) gives them.
 * `code`: read in the host's source at the commit named; `probe`: the host's own bytes captured on
 * the wire; `report`: an issue, a pull request or a forum post (closed-source hosts have only these).
 * The `PL` keys are Parley's own hosts, read in this repository.
 */
export const HOST_SOURCES: Readonly<Record<string, HostSource>> = Object.freeze({
  V1: source(
    'V1',
    'microsoft/vscode src/vs/workbench/contrib/mcp/common/mcpServerRequestHandler.ts @ c5308376',
    'code',
  ),
  V2: source(
    'V2',
    'microsoft/vscode src/vs/workbench/contrib/mcp/browser/mcpElicitationService.ts @ c8898a24',
    'code',
  ),
  V3: source('V3', `${GH}microsoft/vscode/pull/300294`, 'report'),
  V5: source('V5', `${GH}microsoft/vscode/issues/329848`, 'report'),
  P1: source('P1', `${GH}github/copilot-cli/issues/1268`, 'probe'),
  P2: source('P2', `${GH}github/copilot-cli/issues/4834`, 'report'),
  P3: source('P3', `${GH}microsoft/mcp/pull/2214`, 'report'),
  C1: source('C1', 'Claude Code initialize wire captures, v2.1.221 and v2.1.233 (research C1)', 'probe'),
  C2: source('C2', `${GH}anthropics/claude-code/issues/69555`, 'report'),
  C3: source('C3', `${GH}anthropics/claude-code/issues/88075`, 'report'),
  C4: source('C4', `${GH}anthropics/claude-code/issues/84207`, 'report'),
  C5: source('C5', `${GH}anthropics/claude-code/issues/88901`, 'report'),
  C7: source('C7', `${GH}laravel/mcp/pull/190`, 'probe'),
  D1: source(
    'D1',
    'detailobsessed/mcp-client-capabilities src/mcp_client_capabilities/mcp-clients-2026.json @ d61d604b',
    'probe',
  ),
  X1: source('X1', 'openai/codex codex-rs/codex-mcp/src/mcp_connection_manager.rs @ 9c16a437', 'code'),
  X2: source('X2', 'openai/codex codex-rs/codex-mcp/src/elicitation.rs @ 65431b76', 'code'),
  X3: source('X3', 'openai/codex codex-rs/tui/src/bottom_pane/mcp_server_elicitation.rs @ e55429b4', 'code'),
  X4: source('X4', `${GH}openai/codex/issues/31163`, 'report'),
  X7: source('X7', 'openai/codex codex-rs/rmcp-client/src/elicitation_client_service.rs @ 0e9a4ea0', 'code'),
  U3: source('U3', 'https://articles.mcpruntime.org/mcp/request-flow/', 'probe'),
  G1: source('G1', 'google-gemini/gemini-cli packages/core/src/tools/mcp-client.ts @ 5411f113', 'code'),
  G2: source('G2', `${GH}google-gemini/gemini-cli/issues/22249`, 'report'),
  O1: source('O1', 'block/goose crates/goose/src/agents/mcp_client.rs @ 01aaa821', 'code'),
  O2: source('O2', 'block/goose ui/desktop/src/components/ElicitationRequest.tsx @ 154bf8ab', 'code'),
  O3: source('O3', 'block/goose ui/desktop/src/components/ui/JsonSchemaForm.tsx @ 414c29b7', 'code'),
  L1: source('L1', 'danny-avila/LibreChat packages/api/src/mcp/connection.ts', 'code'),
  Z1: source('Z1', 'zed-industries/zed crates/context_server/src/context_server.rs @ 22cc524a', 'code'),
  N1: source('N1', 'continuedev/continue core/context/mcp/MCPConnection.ts', 'code'),
  I1: source('I1', 'modelcontextprotocol/inspector core/mcp/inspectorClient.ts @ 86d5f58e', 'code'),
  I2: source(
    'I2',
    'modelcontextprotocol/inspector clients/web/src/components/groups/SchemaForm/SchemaForm.tsx @ 86d5f58e',
    'code',
  ),
  M1: source('M1', 'MCPJam/inspector sdk/src/host-compat/catalog.generated.ts @ 6d550c02', 'probe'),
  M2: source('M2', 'MCPJam/inspector sdk/src/mcp-client-manager/capabilities.ts @ 6d550c02', 'code'),
  M3: source(
    'M3',
    'MCPJam/inspector mcpjam-inspector/client/src/components/elicitation/schema.ts @ 6d550c02',
    'code',
  ),
  E1: source(
    'E1',
    'mcp-use/mcp-use libraries/typescript/packages/client/src/core/config.ts @ 5865e5c1',
    'code',
  ),
  FA1: source('FA1', 'evalstate/fast-agent src/fast_agent/mcp/elicitation_factory.py @ 610a2f57', 'code'),
  PY1: source('PY1', 'modelcontextprotocol/python-sdk src/mcp/client/session.py', 'code'),
  // Parley's own hosts, read in this repository (not in the research).
  PL1: source('PL1', 'Parley packages/cli/src/session.ts and packages/cli/src/version.ts', 'code'),
  PL2: source('PL2', 'Parley packages/client/src/terminal/form-flow.ts (ElicitationUI.defaults)', 'code'),
  PL3: source('PL3', 'Parley packages/lab/src/server/server-sessions.ts and page-ui.ts', 'code'),
  PL4: source('PL4', 'Parley packages/renderer/src/field-view.ts (the lab draws its forms with it)', 'code'),
});
