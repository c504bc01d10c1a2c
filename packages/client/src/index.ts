// @parley/client: connect to any MCP server, drive elicitation rounds on both protocol eras, and
// carry each question to a person through an ElicitationUI (scripted, your own host, or the terminal
// host at `@parley/client/terminal`, which this entry never loads).

export type {
  CallToolResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType,
  ServerCapabilities,
  Tool,
} from '@modelcontextprotocol/client';
export type { Call, CallHandle } from './call-handle.js';
export { capabilitiesFor } from './capabilities.js';
export { connect } from './connect.js';
export { describeCall, ParleyError, type ParleyErrorDetails, type ParleyErrorKind } from './errors.js';
export type { AnswerSummary, CallEvent, CallMethod } from './events.js';
export { PARLEY_KEY_META } from './handshake-handlers.js';
export { type ClientLimits, DEFAULT_LIMITS } from './limits.js';
export {
  type ConnectOptions,
  DEFAULT_MAX_ROUNDS,
  DEFAULT_QUESTION_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
} from './options.js';
export type { CallOptions, ParleyClient } from './parley-client.js';
export {
  type SamplingMessageView,
  type SamplingPart,
  type SamplingView,
  samplingView,
} from './sampling-view.js';
export {
  type AskRecord,
  type ScriptedAnswer,
  type ScriptedAnswers,
  type ScriptedOptions,
  scripted,
} from './scripted.js';
export { parseTarget, splitCommandLine, type Target } from './target.js';
export type {
  AskContext,
  CallInfo,
  ElicitationUI,
  ElicitResult,
  Era,
  FormRequest,
  SamplingDecline,
  ServerIdentity,
  UrlConsent,
  UrlRequest,
} from './types.js';
