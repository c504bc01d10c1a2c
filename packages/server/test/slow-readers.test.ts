// Issue 24, finding 6 and the live-stream item, against the stream-server fixture as a real process
// over loopback: `Last-Event-ID` replays are bounded per session (a few bytes of request no longer
// re-send a megabyte any number of times), a resumption drops the connection it takes over at once
// (a reset: the kernel lets go of what it held for it; /proc/net/tcp shows what lingers), and a live 2025 stream whose client stops
// reading is cut off once a megabyte piles up instead of queueing without end. Before the fix all 30
// replays were served, 19 superseded connections lingered in the kernel, and 40 MB of log messages queued
// in the server's heap for a client that read nothing.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const FIXTURE = fileURLToPath(new URL('./dist/fixtures/stream-server.js', import.meta.url));
const VERSION = '2025-11-25';

let child: ChildProcess;
let url: URL;
const log: string[] = [];

beforeAll(async () => {
  child = spawn(process.execPath, ['--expose-gc', FIXTURE], {
    env: { ...process.env, STREAM_WRITE_TIMEOUT_MS: '1000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  createInterface({ input: child.stderr! }).on('line', (line) => log.push(line));
  url = new URL(
    await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`the fixture exited with ${code}:\n${log.join('\n')}`)));
    }),
  );
});
afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
});

async function stats(): Promise<{ heapUsed: number; connections: number }> {
  return (await fetch(new URL('/stats', url))).json() as Promise<{ heapUsed: number; connections: number }>;
}

/** A 2025-11-25 session: initialize, initialized, and log messages at info and above. */
async function openSession(): Promise<Record<string, string>> {
  const response = await post({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'slow-reader', version: '1' } },
  });
  await response.text();
  const headers = {
    'mcp-session-id': response.headers.get('mcp-session-id')!,
    'mcp-protocol-version': VERSION,
  };
  await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).text();
  await (
    await post({ jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'info' } }, headers)
  ).text();
  return headers;
}

function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

/** The event ids of an SSE body, in order. */
function eventIds(text: string): string[] {
  return [...text.matchAll(/^id: (\S+)$/gm)].map((match) => match[1]!);
}

/**
 * Sends one raw HTTP request and reads only its first chunk (the status line, and whatever came
 * with it), then stops reading: the way an attacker leaves the server's data in the socket.
 */
function rawNoRead(lines: string[], body = ''): Promise<{ status: number; first: string; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(`${lines.join('\r\n')}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
    socket.once('data', (chunk: Buffer) => {
      socket.pause();
      const first = chunk.toString('latin1');
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(first)?.[1]), first, socket });
    });
    socket.on('error', () => {});
    socket.once('close', () => reject(new Error('closed before answering')));
  });
}

/** Reads on from where `rawNoRead` stopped until the first event id shows, then stops again. */
function firstEventId(sent: { first: string; socket: Socket }): Promise<string> {
  let seen = sent.first;
  return new Promise((resolve) => {
    const look = () => {
      const found = eventIds(seen)[0];
      if (found === undefined) return false;
      sent.socket.off('data', onData);
      sent.socket.pause();
      resolve(found);
      return true;
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('latin1');
      look();
    };
    if (look()) return;
    sent.socket.on('data', onData);
    sent.socket.resume();
  });
}

function resumeLines(headers: Record<string, string>, lastEventId: string): string[] {
  return [
    `GET ${url.pathname} HTTP/1.1`,
    `host: ${url.host}`,
    'accept: text/event-stream',
    'connection: close',
    `mcp-session-id: ${headers['mcp-session-id']}`,
    `mcp-protocol-version: ${VERSION}`,
    `last-event-id: ${lastEventId}`,
  ];
}

describe('Last-Event-ID replays', () => {
  it('re-send a finished stream a bounded number of times per session, however many GETs ask at once', async () => {
    const session = await openSession();
    const call = await post(
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'report', arguments: { kib: 900 } } },
      session,
    );
    const [priming] = eventIds(await call.text());
    const sockets: Socket[] = [];
    try {
      const answers = await Promise.all(
        Array.from({ length: 30 }, () => rawNoRead(resumeLines(session, priming!))),
      );
      sockets.push(...answers.map((answer) => answer.socket));
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(5);
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(25);
      expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });

  it('drop the connections resumptions take over at once, leaving the kernel nothing queued for them', async () => {
    const session = await openSession();
    const call = await rawNoRead(
      [
        `POST ${url.pathname} HTTP/1.1`,
        `host: ${url.host}`,
        'content-type: application/json',
        'accept: application/json, text/event-stream',
        `mcp-session-id: ${session['mcp-session-id']}`,
        `mcp-protocol-version: ${VERSION}`,
      ],
      JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'linger', arguments: { kib: 200 } },
      }),
    );
    expect(call.status).toBe(200);
    // 2025-11-25 opens each stream with a priming event: its id is where a resumption starts.
    const priming = await firstEventId(call);
    const resumed: Socket[] = [];
    try {
      for (let i = 0; i < 20; i++) resumed.push((await rawNoRead(resumeLines(session, priming))).socket);
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Before the fix each superseded connection was ended gracefully: 19 sockets lingered with
      // about a megabyte the kernel kept trying to send to a client that never read.
      expect(lingering(Number(url.port))).toEqual({ sockets: 0, queued: 0 });
    } finally {
      for (const socket of [call.socket, ...resumed]) socket.destroy();
    }
  });
});

/**
 * The server's connections it closed gracefully while the client still holds them open (FIN_WAIT1
 * or FIN_WAIT2 in /proc/net/tcp on the server's port), with the bytes still queued to send on them:
 * what a client that stops reading leaves the kernel holding.
 */
function lingering(port: number): { sockets: number; queued: number } {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  let sockets = 0;
  let queued = 0;
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const [, local, , state, queues] = line.trim().split(/\s+/);
    if (!local?.endsWith(`:${hex}`) || (state !== '04' && state !== '05')) continue;
    sockets++;
    queued += Number.parseInt(queues!.split(':')[0]!, 16);
  }
  return { sockets, queued };
}

describe('live 2025 streams', () => {
  it('cut off a client that stops reading once a megabyte is queued, instead of holding all it is sent', async () => {
    const session = await openSession();
    const baseline = (await stats()).heapUsed;
    const call = await rawNoRead(
      [
        `POST ${url.pathname} HTTP/1.1`,
        `host: ${url.host}`,
        'content-type: application/json',
        'accept: application/json, text/event-stream',
        `mcp-session-id: ${session['mcp-session-id']}`,
        `mcp-protocol-version: ${VERSION}`,
      ],
      JSON.stringify({
        jsonrpc: '2.0',
        id: 4,
        method: 'tools/call',
        params: { name: 'chatter', arguments: { kib: 40_000 } },
      }),
    );
    try {
      expect(call.status).toBe(200);
      let grown = 0;
      for (let tries = 0; tries < 12; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        grown = Math.max(grown, (await stats()).heapUsed - baseline);
      }
      expect(grown).toBeLessThan(6 * 1024 * 1024);
    } finally {
      call.socket.destroy();
    }
  });
});
