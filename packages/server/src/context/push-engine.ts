import {
  type ElicitRequestFormParams,
  type ElicitRequestURLParams,
  SdkError,
  SdkErrorCode,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { PARLEY_KEY_META } from '@parley/core';
import { schemaForProtocolVersion } from '@parley/core/form';
import * as z from 'zod/v4';
import type { AskItem, AskPoint, FlowRef, ItemResult, UrlOutcome } from '../ask/ask-item.js';
import { checkReply, reaskMessage } from '../ask/check-reply.js';
import {
  CallCancelledError,
  FlowExpiredError,
  FlowFailedError,
  QuestionTimeoutError,
  ToolError,
  TooManyInvalidAnswersError,
} from '../errors.js';
import { type OnceStore, type OnceTimings, runOnce } from '../once/once-store.js';
import type { Json } from '../state/round-state.js';
import type { PendingQuestions } from './pending-questions.js';

/**
 * The answer to a form question is taken as it came and checked by checkReply: the SDK's own result
 * schema would turn a Python client's `null` for an empty field, or an object where a value belongs,
 * into an internal error that ends the call, where Parley reads the first as empty and asks again
 * with the reason for the second (as it does on 2026-07-28).
 */
const ANY_REPLY = z.unknown();

export interface PushOptions {
  readonly maxTries: number;
  readonly questionTimeoutMs: number;
  readonly protocolVersion: string;
  /** The logical call's id, the base of `ctx.once` idempotency keys. */
  readonly callId: string;
  /** Sends `notifications/elicitation/complete` for a finished URL flow (2025-11-25 only). */
  readonly notifyComplete: (elicitationId: string) => Promise<void>;
  /** Where questions waiting for an answer are counted. */
  readonly pending: PendingQuestions;
  /** The server's `ctx.once` store, when it has one. */
  readonly once?: { readonly store: OnceStore; readonly timings: OnceTimings } | undefined;
}

/**
 * Serves ask points on the 2025 eras: each question is a real server-to-client request over the
 * session, and the handler simply waits for the answer (no replay). Questions of one batch are
 * sent concurrently.
 */
export class PushEngine {
  readonly #sdk: ServerContext;
  readonly #options: PushOptions;

  constructor(sdk: ServerContext, options: PushOptions) {
    this.#sdk = sdk;
    this.#options = options;
  }

  ask(point: AskPoint): Promise<ItemResult[]> {
    return Promise.all(point.items.map((item) => this.#askOne(item)));
  }

  async once<T extends Json>(name: string, fn: (key: string) => T | Promise<T>): Promise<T> {
    const key = `${this.#options.callId}.${name}`;
    const once = this.#options.once;
    return once ? ((await runOnce(once.store, key, () => fn(key), once.timings)) as T) : fn(key);
  }

  async #askOne(item: AskItem): Promise<ItemResult> {
    let message = 'message' in item ? item.message : '';
    for (let tries = 0; ; ) {
      const reply = await this.#options.pending.track(this.#send(item, message));
      const checked = checkReply(item, reply);
      if (checked.status === 'ok' && item.kind === 'url' && item.flow)
        return this.#followFlow(item, item.flow, checked.result as UrlOutcome);
      if (checked.status === 'ok') return checked.result;
      if (checked.status === 'malformed')
        throw new Error(`The client answered with something unusable: ${checked.problem}.`);
      tries++;
      if (tries >= this.#options.maxTries) throw new TooManyInvalidAnswersError(tries, checked.reason);
      message = reaskMessage('message' in item ? item.message : '', checked.reason);
    }
  }

  /** After consent, the server waits on the session until the flow's page settles it. */
  async #followFlow(item: AskItem, flow: FlowRef, outcome: UrlOutcome): Promise<ItemResult> {
    if (outcome.action !== 'accept') {
      await flow.kit.cancel(flow.id);
      return outcome;
    }
    const check = await flow.kit.waitFor(
      flow.id,
      flow.principal,
      this.#sdk.mcpReq.signal,
      this.#options.questionTimeoutMs,
    );
    switch (check.status) {
      case 'done':
        if (this.#options.protocolVersion === '2025-11-25')
          await this.#options.notifyComplete(flow.id).catch(() => {});
        return { action: 'accept', value: check.result };
      case 'failed':
        throw new FlowFailedError(check.reason);
      default:
        throw new FlowExpiredError('message' in item ? item.message : '');
    }
  }

  /**
   * Sends one question with `ctx.mcpReq.send`, which ties it to the call being served (on HTTP it
   * travels on that POST's stream, as SEP-2260 requires, not on the optional GET stream) and leaves
   * the answer unchecked, so an invalid answer reaches checkReply and is asked again with its reason
   * (`elicitInput` sends unrelated and turns such an answer into a -32602 that ends the call).
   */
  async #send(item: AskItem, message: string): Promise<unknown> {
    const options = { timeout: this.#options.questionTimeoutMs, signal: this.#sdk.mcpReq.signal };
    const meta = { [PARLEY_KEY_META]: item.key };
    try {
      switch (item.kind) {
        case 'form': {
          const adapted = schemaForProtocolVersion(item.question.schema, this.#options.protocolVersion);
          if (!adapted.ok) {
            // A ToolError, so the caller learns why instead of getting an internal error with a reference.
            throw new ToolError(
              `This question cannot be asked on protocol ${this.#options.protocolVersion}: ` +
                adapted.problems.map((problem) => problem.message).join(' '),
            );
          }
          const requestedSchema = adapted.schema as ElicitRequestFormParams['requestedSchema'];
          const params: ElicitRequestFormParams = { mode: 'form', message, requestedSchema, _meta: meta };
          return await this.#sdk.mcpReq.send({ method: 'elicitation/create', params }, ANY_REPLY, options);
        }
        case 'url': {
          const params: ElicitRequestURLParams = {
            mode: 'url',
            message,
            url: item.url,
            elicitationId: item.flow?.id ?? crypto.randomUUID(),
            _meta: meta,
          };
          return await this.#sdk.mcpReq.send({ method: 'elicitation/create', params }, options);
        }
        case 'sampling':
          return await this.#sdk.mcpReq.send(
            { method: 'sampling/createMessage', params: item.params },
            options,
          );
        case 'roots':
          return await this.#sdk.mcpReq.send({ method: 'roots/list', params: { _meta: meta } }, options);
      }
    } catch (error) {
      // The SDK reports an aborted call as a request timeout too; only the call's own signal tells them apart.
      const signal = this.#sdk.mcpReq.signal;
      if (signal.aborted) {
        throw new CallCancelledError(signal.reason);
      }
      if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
        throw new QuestionTimeoutError(this.#options.questionTimeoutMs);
      }
      throw error;
    }
  }
}
