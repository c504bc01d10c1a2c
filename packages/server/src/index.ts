export { ResourceNotFoundError } from '@modelcontextprotocol/server';
export { type Answer, ask, type QuestionInput } from '@parley/core/form';
export type { CacheableMethod, CacheHints, DeclarableCapability, ServerOptions } from './app.js';
export { EmptyMessageError, UnsafeUrlError, unsafeUrlParts } from './ask/guardrails.js';
export { input } from './ask/input.js';
export { VagueMessageError } from './ask/vague-message.js';
export type {
  AskMissingOptions,
  BatchItem,
  BatchResult,
  ElicitOutcome,
  FlowTarget,
  FormInput,
  RootsInput,
  SamplingInput,
  UrlInput,
  UrlOutcome,
  WithFields,
} from './ask-types.js';
export { createServer, ParleyServer } from './create-server.js';
export type { DirectToolCall, DirectToolCalls, DirectToolOutcome } from './direct-call-types.js';
export {
  AuthorError,
  CallCancelledError,
  CallEndingError,
  ElicitationUnavailable,
  FlowExpiredError,
  FlowFailedError,
  type InputMode,
  QuestionTimeoutError,
  ReplayDivergenceError,
  RoundLimitError,
  SamplingDeclinedError,
  SecretInFormError,
  ToolError,
  TooManyInvalidAnswersError,
} from './errors.js';
export type { FlowActions, FlowCheck, FlowPage, FlowsOptions } from './flows/flow-kit.js';
export type { FlowRecord, FlowSettlement, FlowStatus, FlowStore, KeptValue } from './flows/flow-types.js';
export { MemoryFlowStore, type MemoryFlowStoreOptions } from './flows/memory-store.js';
export { escapeHtml, htmlPage, messagePage } from './flows/pages.js';
export type { SlowReaderLimits } from './http/http-exchange.js';
export {
  type InputRequired,
  inputRequired,
  type RoundAnswers,
} from './input-required.js';
export { type Logger, safeLogText, stderrLogger } from './log.js';
export type {
  AnswerAction,
  Middleware,
  MiddlewareMethod,
  RequestContext,
  RoundOutcome,
} from './middleware.js';
export { MemoryOnceStore } from './once/memory-once-store.js';
export {
  OnceBusyError,
  type OnceClaim,
  type OnceStore,
  type OnceTimings,
  runOnce,
} from './once/once-store.js';
export type { PromptConfig, PromptHandler } from './registry/prompts.js';
export type { ResourceConfig, ResourceHandler, ResourceRequest } from './registry/resources.js';
export type { ArgsSchema } from './registry/schema.js';
export type { ArgNames, TaskSupport, ToolConfig, ToolHandler } from './registry/tools.js';
export { type BinaryData, type BlockOptions, content, type ResourceBody } from './results/content.js';
export { jsonSchema } from './results/json-schema.js';
export {
  type BlockInput,
  message,
  promptResult,
  resourceResult,
  structuredResult,
  toolError,
  toolErrorResult,
  toolResult,
} from './results/results.js';
export type { Endpoint, EndpointOptions } from './serve/http-endpoint.js';
export type { Listening, ListenOptions } from './serve/listen.js';
export type { RequestTarget } from './serve/request-target.js';
export type { StdioOptions } from './serve/stdio.js';
export type { SessionHost, SessionRecord, SessionRouter } from './sessions/session-router.js';
export { StateTooLargeError } from './state/state-codec.js';
export type { TaskSettings } from './tasks/task-store.js';
export type {
  Completer,
  Completers,
  ConfirmOptions,
  ConfirmOutcome,
  ElicitOptions,
  Json,
  ParleyContext,
  Principal,
  PromptReturn,
  ResourceReturn,
  ToolReturn,
} from './types.js';
