// @parley/server/otel with the OpenTelemetry SDK's in-memory exporter: one span per round, the
// round's attributes, the client's trace context, the metrics, and never answer content.
import { propagation } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { ask, createServer } from '@parley/server';
import { telemetry } from '@parley/server/otel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcess, serveInProcess } from './wire/in-process.js';
import { CAPABILITIES, callTool, modernMeta, type RoundInput } from './wire/modern-envelope.js';
import { accept, decline, errorOf, inputRequiredOf, toolResultOf } from './wire/modern-results.js';

/** Reads the meter's metrics on demand. */
class TestReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';
const SECRET_ANSWER = 'Zebediah-Quux';

describe('telemetry() from @parley/server/otel', () => {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new TestReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  let served: InProcess;

  beforeAll(async () => {
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    const server = createServer({ name: 'otel-test', version: '1.0.0', log: () => {} });
    server.use(
      telemetry({ tracer: tracerProvider.getTracer('test'), meter: meterProvider.getMeter('test') }),
    );
    server.tool('greet', {}, async (_args, ctx) => {
      const name = await ctx.elicit('What is your name?', ask.text(), { key: 'name' });
      const city = await ctx.elicit('Which city?', ask.text(), { key: 'city' });
      const where = city.action === 'accept' ? ` from ${city.value}` : '';
      return name.action === 'accept' ? `Hello, ${name.value}${where}!` : 'Hello!';
    });
    served = await serveInProcess(server);
  });
  afterAll(async () => {
    propagation.disable();
    await served?.close();
  });

  const traced = (round: { requestState?: string; inputResponses?: unknown }): RoundInput => ({
    ...round,
    _meta: { ...modernMeta(CAPABILITIES.formOnly), traceparent: `00-${TRACE_ID}-${CLIENT_SPAN}-01` },
  });

  it('makes one span per round with the round attributes, under the client trace, without answers', async () => {
    exporter.reset();
    const first = inputRequiredOf(await callTool(served.wire, 'greet', {}, traced({})));
    const second = inputRequiredOf(
      await callTool(
        served.wire,
        'greet',
        {},
        traced({ requestState: first.requestState, inputResponses: { name: accept(SECRET_ANSWER) } }),
      ),
    );
    const done = toolResultOf(
      await callTool(
        served.wire,
        'greet',
        {},
        traced({ requestState: second.requestState, inputResponses: { city: decline } }),
      ),
    );
    expect(done.text).toBe(`Hello, ${SECRET_ANSWER}!`);

    const spans = exporter.getFinishedSpans();
    expect(spans.map((span) => span.name)).toEqual([
      'tools/call greet',
      'tools/call greet',
      'tools/call greet',
    ]);
    expect(spans.map((span) => span.attributes)).toEqual([
      {
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'greet',
        'parley.era': 'modern',
        'parley.first_round': true,
        'parley.round': 1,
        'parley.question.keys': ['name'],
        'parley.outcome': 'ask',
      },
      {
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'greet',
        'parley.era': 'modern',
        'parley.first_round': false,
        'parley.round': 2,
        'parley.question.keys': ['city'],
        'parley.outcome': 'ask',
      },
      {
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'greet',
        'parley.era': 'modern',
        'parley.first_round': false,
        'parley.round': 3,
        'parley.outcome': 'complete',
      },
    ]);
    for (const span of spans) {
      expect(span.spanContext().traceId).toBe(TRACE_ID);
      expect(span.parentSpanContext?.spanId).toBe(CLIENT_SPAN);
    }
    expect(
      JSON.stringify(spans.map((span) => [span.name, span.attributes, span.events, span.status])),
    ).not.toContain(SECRET_ANSWER);
  });

  it('starts a new trace when the client sends no trace context', async () => {
    exporter.reset();
    await served.wire.request('tools/list', {});
    const [span] = exporter.getFinishedSpans();
    expect(span?.name).toBe('tools/list');
    expect(span?.spanContext().traceId).not.toBe(TRACE_ID);
    expect(span?.parentSpanContext).toBeUndefined();
  });

  it('counts rounds, outcomes, answers by action, state rejections and pending questions', async () => {
    exporter.reset();
    errorOf(await callTool(served.wire, 'greet', {}, { requestState: 'forged', inputResponses: {} }), -32602);
    const [refused] = exporter.getFinishedSpans();
    expect(refused?.attributes['parley.outcome']).toBe('error');
    expect(refused?.attributes['error.type']).toBe('ProtocolError');

    const { resourceMetrics } = await reader.collect();
    const points = new Map<string, { attributes: Record<string, unknown>; value: unknown }[]>();
    for (const scope of resourceMetrics.scopeMetrics)
      for (const metric of scope.metrics)
        points.set(
          metric.descriptor.name,
          metric.dataPoints.map((point) => ({ attributes: point.attributes, value: point.value })),
        );
    const sum = (name: string, match: Record<string, unknown> = {}) =>
      (points.get(name) ?? [])
        .filter((point) => Object.entries(match).every(([key, value]) => point.attributes[key] === value))
        .reduce((total, point) => total + Number(point.value), 0);

    expect(sum('parley.rounds', { 'mcp.method.name': 'tools/call' })).toBe(4);
    expect(sum('parley.outcomes', { 'parley.outcome': 'ask' })).toBe(2);
    expect(sum('parley.outcomes', { 'parley.outcome': 'complete' })).toBe(2); // greet's last round, tools/list
    expect(sum('parley.outcomes', { 'parley.outcome': 'error' })).toBe(1);
    expect(sum('parley.answers', { 'parley.answer.action': 'accept' })).toBe(1);
    expect(sum('parley.answers', { 'parley.answer.action': 'decline' })).toBe(1);
    expect(sum('parley.state.rejections')).toBe(1);
    expect(points.get('parley.pending_questions')).toEqual([{ attributes: {}, value: 0 }]);
  });
});
