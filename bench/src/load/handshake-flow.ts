import { Agent, type IncomingMessage, request } from 'node:http';
import { PARLEY_KEY_META } from '@parley/core';
import { answerOf, keyOf, messageOf, resultText, TOOL } from '../survey.js';
import { FlowError, type FlowRecord, IdSource } from './flow.js';
import type { FlowDriver } from './run-load.js';

/**
 * The 2025 handshake era driven by hand, as the bench's bare loop drives 2026-07-28: one session
 * per flow in flight (`initialize`, then `notifications/initialized`), a `tools/call` whose SSE
 * response carries the server's `elicitation/create` and finally the result, and each answer POSTed
 * on the session. No SDK client: what the load generator costs stays as small as for the 2026-07-28
 * rounds, so the two eras are compared by what the servers do. A round is one leg of the call: call
 * → first question, answer → next question, last answer → result (as (d) counts them).
 */

export const HANDSHAKE_REVISION = '2025-11-25';

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

interface JsonRpcMessage {
  id?: unknown;
  method?: string;
  params?: { message?: string; requestedSchema?: unknown; _meta?: Record<string, unknown> };
  result?: { content?: { type: string; text?: string }[]; isError?: boolean; protocolVersion?: string };
  error?: unknown;
}

/** Reads an SSE body as it arrives and hands each event's JSON-RPC message to `onMessage`. */
function readEvents(res: IncomingMessage, onMessage: (message: JsonRpcMessage) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk.replaceAll('\r\n', '\n');
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = event
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart())
          .join('\n');
        if (data) onMessage(JSON.parse(data) as JsonRpcMessage);
      }
    });
    res.on('end', resolve);
    res.on('error', reject);
  });
}

/** One POST on a session; `onMessage` hears each message of its JSON or SSE answer. */
function post(
  url: URL,
  agent: Agent,
  body: string,
  headers: Readonly<Record<string, string>>,
  onMessage: (message: JsonRpcMessage) => void = () => {},
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const read = res.headers['content-type']?.startsWith('text/event-stream')
          ? readEvents(res, onMessage)
          : new Promise<void>((done, failed) => {
              const chunks: Buffer[] = [];
              res.on('data', (chunk: Buffer) => chunks.push(chunk));
              res.on('error', failed);
              res.on('end', () => {
                const text = Buffer.concat(chunks).toString();
                if (text) onMessage(JSON.parse(text) as JsonRpcMessage);
                done();
              });
            });
        read.then(() => resolve(res), reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A 2025-era session with the survey server, driven by hand. */
export class HandshakeSession {
  readonly #url: URL;
  readonly #agent: Agent;
  readonly #headers: Readonly<Record<string, string>>;
  readonly #ids = new IdSource();

  private constructor(url: URL, agent: Agent, sessionId: string) {
    this.#url = url;
    this.#agent = agent;
    this.#headers = { ...HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': HANDSHAKE_REVISION };
  }

  /** Opens a session (over `agent`, which needs two sockets per session: the call's stream, and its answers). */
  static async open(url: string, agent: Agent): Promise<HandshakeSession> {
    const target = new URL(url);
    let answered: JsonRpcMessage | undefined;
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: HANDSHAKE_REVISION,
        capabilities: { elicitation: { form: {} } },
        clientInfo: { name: 'parley-bench', version: '0.1.0' },
      },
    });
    const res = await post(target, agent, initialize, HEADERS, (message) => {
      answered = message;
    });
    const sessionId = res.headers['mcp-session-id'];
    if (typeof sessionId !== 'string' || answered?.result?.protocolVersion !== HANDSHAKE_REVISION)
      throw new FlowError('initialize', res.statusCode ?? 0, JSON.stringify(answered ?? {}));
    const session = new HandshakeSession(target, agent, sessionId);
    const initialized = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const ack = await post(target, agent, initialized, session.#headers);
    if (ack.statusCode !== 202) throw new FlowError('notifications/initialized', ack.statusCode ?? 0, '');
    return session;
  }

  /**
   * One survey call of `questions` questions: each `elicitation/create` the server sends on the
   * call's stream is checked (the next question, its key if the server names one) and answered at
   * once; the result must hold every answer.
   */
  async runFlow(questions: number): Promise<FlowRecord> {
    const id = this.#ids.next();
    const roundNs: number[] = [];
    const answers: string[] = [];
    const answering: Promise<IncomingMessage>[] = [];
    let failure: FlowError | undefined;
    let result: JsonRpcMessage | undefined;
    let legStarted = process.hrtime.bigint();
    const leg = () => {
      const now = process.hrtime.bigint();
      roundNs.push(Number(now - legStarted));
      legStarted = now;
    };
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: TOOL, arguments: { questions } },
    });
    const res = await post(this.#url, this.#agent, call, this.#headers, (message) => {
      // The server numbers its own requests: the call's answer is the message with no method.
      if (message.method === undefined && message.id === id) {
        leg();
        result = message;
        return;
      }
      const index = answers.length;
      const key = message.params?._meta?.[PARLEY_KEY_META];
      if (
        message.method !== 'elicitation/create' ||
        message.params?.message?.endsWith(messageOf(index, questions)) !== true ||
        (key !== undefined && key !== keyOf(index))
      ) {
        failure ??= new FlowError(`question ${index + 1} of ${questions}`, 200, JSON.stringify(message));
        return;
      }
      leg();
      answers.push(answerOf(index));
      const reply = JSON.stringify({
        jsonrpc: '2.0',
        id: message.id,
        result: { action: 'accept', content: { answer: answerOf(index) } },
      });
      answering.push(post(this.#url, this.#agent, reply, this.#headers));
    });
    for (const answer of await Promise.all(answering))
      if (answer.statusCode !== 202) failure ??= new FlowError('an answer', answer.statusCode ?? 0, '');
    const text = result?.result?.content?.[0]?.text;
    if (failure) throw failure;
    if (answers.length !== questions || text !== resultText(answers))
      throw new FlowError(`the result`, res.statusCode ?? 0, JSON.stringify(result ?? {}));
    return { roundNs, stateChars: [] };
  }

  /** Ends the session (HTTP DELETE). */
  close(): Promise<void> {
    return new Promise((resolve) => {
      const req = request(
        this.#url,
        { method: 'DELETE', agent: this.#agent, headers: this.#headers },
        (res) => {
          res.resume();
          res.on('end', resolve);
        },
      );
      req.on('error', () => resolve());
      req.end();
    });
  }
}

/** The 2025 driver for `runLoad`: a session of its own per flow in flight, opened before the clock starts. */
export function handshakeDriver(url: string, concurrency: number): FlowDriver {
  const agent = new Agent({ keepAlive: true, maxSockets: 2 * concurrency, maxFreeSockets: 2 * concurrency });
  const sessions: HandshakeSession[] = [];
  return {
    async worker() {
      const session = await HandshakeSession.open(url, agent);
      sessions.push(session);
      return (questions) => session.runFlow(questions);
    },
    async close() {
      await Promise.all(sessions.map((session) => session.close()));
      agent.destroy();
    },
  };
}
