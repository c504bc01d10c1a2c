// @parley/client: connect to any MCP server, drive elicitation rounds on both protocol eras, and
// carry each question to a person through an ElicitationUI (scripted, your own host, or the terminal
// host at `@parley/client/terminal`, which this entry never loads).

import type * as Sdk from '@modelcontextprotocol/client';

/** What `client.callTool` resolves to: the tool's content blocks, its structured output, and `isError`. */
export type CallToolResult = Sdk.CallToolResult;
/** What `client.getPrompt` resolves to: the prompt's messages. */
export type GetPromptResult = Sdk.GetPromptResult;
/** A prompt as the server lists it (`prompts/list`). */
export type Prompt = Sdk.Prompt;
/** What `client.readResource` resolves to: the resource's contents. */
export type ReadResourceResult = Sdk.ReadResourceResult;
/** A resource as the server lists it (`resources/list`). */
export type Resource = Sdk.Resource;
/** A resource template as the server lists it (`resources/templates/list`). */
export type ResourceTemplateType = Sdk.ResourceTemplateType;
/** What the server declared it offers (tools, prompts, resources, logging, ...). */
export type ServerCapabilities = Sdk.ServerCapabilities;
/** A tool as the server lists it (`tools/list`). */
export type Tool = Sdk.Tool;
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
