import { ProtocolError } from '@modelcontextprotocol/server';
import {
  type Attributes,
  context,
  type Meter,
  metrics,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import type { Middleware, RequestContext } from '../middleware.js';

/** Options of {@link telemetry}. */
export interface TelemetryOptions {
  /** Default: `trace.getTracer('@parley/server')` from the global tracer provider. */
  readonly tracer?: Tracer;
  /** Default: `metrics.getMeter('@parley/server')` from the global meter provider. */
  readonly meter?: Meter;
}

/** Reads `traceparent` / `tracestate` from a request's `_meta`, where MCP clients put them. */
const META_GETTER: TextMapGetter<Readonly<Record<string, unknown>>> = {
  keys: (carrier) => Object.keys(carrier),
  get(carrier, key) {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/**
 * OpenTelemetry for a Parley server, through `@opentelemetry/api` only (bring your own SDK and
 * exporter). Add it first so its span covers the other middleware.
 *
 * - One SERVER span per request, so one per round on 2026-07-28, named like `tools/call book_return`,
 *   with the attributes `mcp.method.name`, `gen_ai.tool.name` / `mcp.prompt.name` / `mcp.resource.uri`,
 *   `parley.era`, `parley.round`, `parley.first_round`, `parley.question.keys` and `parley.outcome`
 *   (`ask`, `complete` or `error`). Never arguments, answers or error messages, which may carry
 *   personal data; a failure records only the error's type.
 * - The span's parent is the trace context in the request's `_meta` (`traceparent`, `tracestate`),
 *   read with the globally registered propagator (the SDK's default is W3C trace context).
 * - It is marked `directCalls`: the calls `server.directToolCalls` serves (a gateway's lean path)
 *   get their spans too, and keep that path.
 * - Metrics: `parley.rounds` (requests, by method and era), `parley.outcomes` (by outcome),
 *   `parley.answers` (answers by action: accept, decline, cancel), `parley.state.rejections`
 *   (sealed states refused) and the gauge `parley.pending_questions`.
 *
 * @example
 * import { telemetry } from '@parley/server/otel';
 * server.use(telemetry());
 */
export function telemetry(options: TelemetryOptions = {}): Middleware {
  const tracer = options.tracer ?? trace.getTracer('@parley/server');
  const meter = options.meter ?? metrics.getMeter('@parley/server');
  const rounds = meter.createCounter('parley.rounds', {
    description: 'Requests served; on 2026-07-28 each round of a call is one request.',
  });
  const outcomes = meter.createCounter('parley.outcomes', {
    description: 'How requests ended: ask (input required), complete, or error.',
  });
  const answers = meter.createCounter('parley.answers', {
    description: 'Answers received, by action (accept, decline, cancel).',
  });
  const rejections = meter.createCounter('parley.state.rejections', {
    description: 'Requests whose requestState was refused (tampered, expired, or for another call).',
  });
  let pendingSource: (() => number) | undefined;
  meter
    .createObservableGauge('parley.pending_questions', {
      description: 'Questions sent to 2025-era clients and not answered yet.',
    })
    .addCallback((gauge) => {
      if (pendingSource) gauge.observe(pendingSource());
    });

  const around: Middleware = async (c, next) => {
    pendingSource ??= () => c.pendingQuestions;
    const parent = c.meta ? propagation.extract(ROOT_CONTEXT, c.meta, META_GETTER) : ROOT_CONTEXT;
    const span = tracer.startSpan(
      c.name === undefined ? c.method : `${c.method} ${c.name}`,
      { kind: SpanKind.SERVER, attributes: startAttributes(c) },
      parent,
    );
    const base: Attributes = { 'mcp.method.name': c.method, 'parley.era': c.era };
    let outcome = 'error';
    try {
      await context.with(trace.setSpan(parent, span), next);
      outcome = c.outcome?.type ?? 'complete';
    } catch (error) {
      if (isStateRejection(error)) rejections.add(1, base);
      if (span.isRecording()) {
        const type = error instanceof Error ? error.name : typeof error;
        span.setAttribute('error.type', type);
        span.setStatus({ code: SpanStatusCode.ERROR, message: type });
      }
      throw error;
    } finally {
      // A span nobody records (no SDK, or sampled out) takes no attributes: skip building them.
      if (span.isRecording()) {
        if (c.round !== undefined) span.setAttribute('parley.round', c.round);
        if (c.asked.length > 0) span.setAttribute('parley.question.keys', [...c.asked]);
        span.setAttribute('parley.outcome', outcome);
      }
      span.end();
      rounds.add(1, base);
      // Literals, not spreads of `base`: this runs on every round, exporter or not.
      outcomes.add(1, { 'mcp.method.name': c.method, 'parley.era': c.era, 'parley.outcome': outcome });
      for (const answer of c.answered)
        answers.add(1, {
          'mcp.method.name': c.method,
          'parley.era': c.era,
          'parley.answer.action': answer.action,
        });
    }
  };
  // It never reads `c.sdk`: calls `server.directToolCalls` serves keep their direct path, and get their spans.
  return Object.assign(around, { directCalls: true });
}

function startAttributes(c: RequestContext): Attributes {
  const attributes: Attributes = {
    'mcp.method.name': c.method,
    'parley.era': c.era,
    'parley.first_round': c.firstRound,
  };
  if (c.name !== undefined) {
    const key =
      c.method === 'tools/call'
        ? 'gen_ai.tool.name'
        : c.method === 'prompts/get'
          ? 'mcp.prompt.name'
          : 'mcp.resource.uri';
    attributes[key] = c.name;
  }
  return attributes;
}

/** The frozen wire error Parley answers for any requestState that does not open. */
function isStateRejection(error: unknown): boolean {
  return (
    error instanceof ProtocolError &&
    (error.data as { reason?: unknown } | undefined)?.reason === 'invalid_request_state'
  );
}
