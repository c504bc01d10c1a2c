import type { IncomingMessage, ServerResponse } from 'node:http';
import { API } from '../protocol.js';
import type { EventStream } from './event-stream.js';
import type { LabState } from './lab-state.js';
import type { PageFile } from './page-files.js';
import { readJson } from './read-json.js';
import { checkRequest, type Refusal } from './request-guard.js';
import { SECURITY_HEADERS } from './security-headers.js';
import { bearerToken, isLabToken } from './token.js';

/** What the page may ask the lab to do. Each returns a refusal when it cannot. */
export interface LabActions {
  addServer(body: unknown): { id: string } | Refusal;
  closeServer(id: string): Refusal | undefined;
  /** Connects a server whose connection failed again, as it was added. */
  retryServer?(id: string): Refusal | undefined;
  startCall(body: unknown): { id: string } | Refusal;
  cancelCall(id: string): Refusal | undefined;
  answer(questionId: string, body: unknown): Refusal | undefined;
  /** The browser came back from an authorization server: `true` when a sign-in waited for it. */
  completeSignIn?(callback: URL): boolean;
}

export interface LabHandlerOptions {
  readonly token: string;
  /** The `Host` values the lab answers to (known once it listens). */
  readonly hosts: () => readonly string[];
  readonly files: ReadonlyMap<string, PageFile>;
  readonly state: LabState;
  readonly stream: EventStream;
  readonly actions: LabActions;
}

/** Where authorization servers send the browser back to after the person signs in. */
export const SIGN_IN_CALLBACK = '/oauth/callback';

const NO_TOKEN =
  'This lab is private to the person who started it. Open it with the full URL it printed (with ?token=...).';

function send(response: ServerResponse, status: number, body: string | Buffer, type: string): void {
  // With its length, so an answer to a body left unread (413) is whole before the listener's
  // lingering close (httpServerOptions) ends the connection.
  const length = status === 204 ? {} : { 'Content-Length': Buffer.byteLength(body) };
  response.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': type, ...length });
  response.end(body);
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  send(response, status, JSON.stringify(value), 'application/json; charset=utf-8');
}

function refuse(response: ServerResponse, refusal: Refusal): void {
  sendJson(response, refusal.status, { error: refusal.message });
}

function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && 'status' in value && 'message' in value;
}

type PostRoute = {
  pattern: RegExp;
  run: (actions: LabActions, match: RegExpExecArray, body: unknown) => { id: string } | Refusal | undefined;
};

const POST_ROUTES: PostRoute[] = [
  { pattern: /^\/api\/servers$/, run: (actions, _match, body) => actions.addServer(body) },
  { pattern: /^\/api\/servers\/([\w-]+)\/close$/, run: (actions, match) => actions.closeServer(match[1]!) },
  {
    pattern: /^\/api\/servers\/([\w-]+)\/retry$/,
    run: (actions, match) =>
      actions.retryServer
        ? actions.retryServer(match[1]!)
        : { status: 404, message: 'This lab cannot retry connections.' },
  },
  { pattern: /^\/api\/calls$/, run: (actions, _match, body) => actions.startCall(body) },
  { pattern: /^\/api\/calls\/([\w-]+)\/cancel$/, run: (actions, match) => actions.cancelCall(match[1]!) },
  {
    pattern: /^\/api\/questions\/([\w-]+)\/answer$/,
    run: (actions, match, body) => actions.answer(match[1]!, body),
  },
];

/**
 * The lab's HTTP handler: the page (its HTML only with the token), the event stream (token in the
 * query, since EventSource cannot send headers) and the JSON API (token as a bearer header). Every
 * request passes the Host and Origin guard first.
 */
export function createLabHandler(options: LabHandlerOptions) {
  const { token, files, state, stream, actions } = options;

  const post = async (request: IncomingMessage, response: ServerResponse, path: string) => {
    if (!isLabToken(bearerToken(request.headers.authorization), token)) {
      refuse(response, { status: 401, message: NO_TOKEN });
      return;
    }
    const route = POST_ROUTES.map((candidate) => ({ candidate, match: candidate.pattern.exec(path) })).find(
      (item) => item.match !== null,
    );
    if (!route) {
      refuse(response, { status: 404, message: `There is no ${path} in the lab API.` });
      return;
    }
    const body = await readJson(request);
    const outcome = body.ok ? route.candidate.run(actions, route.match!, body.value) : body;
    if (isRefusal(outcome)) refuse(response, outcome);
    else sendJson(response, 200, outcome ?? { ok: true });
  };

  /** The page, its files and the event stream. */
  const get = (response: ServerResponse, url: URL) => {
    const path = url.pathname;
    const tokenOk = isLabToken(url.searchParams.get('token'), token);
    if (path === '/' || path === '/index.html') {
      const page = files.get('/index.html')!;
      if (tokenOk) send(response, 200, page.body, page.type);
      else send(response, 401, NO_TOKEN, 'text/plain; charset=utf-8');
    } else if (path === API.events) {
      if (tokenOk) stream.open(response, state.snapshot());
      else refuse(response, { status: 401, message: NO_TOKEN });
    } else if (files.has(path)) {
      const file = files.get(path)!;
      send(response, 200, file.body, file.type);
    } else if (path === SIGN_IN_CALLBACK && actions.completeSignIn !== undefined) {
      // The authorization server's answer comes without the lab token (state and PKCE protect it).
      const done = actions.completeSignIn(url);
      // The authorization server sends an error back the same way (the person chose Deny, say).
      const refused = url.searchParams.has('error');
      send(
        response,
        done ? 200 : 400,
        !done
          ? 'This sign-in is not one the lab is waiting for (it finished, expired or was stopped).'
          : refused
            ? 'You did not sign in. You can close this window; in the lab, Retry signs in again.'
            : 'Signed in. You can close this window and go back to the lab.',
        'text/plain; charset=utf-8',
      );
    } else if (path === '/favicon.ico') {
      send(response, 204, '', 'text/plain');
    } else {
      send(response, 404, 'Not found.', 'text/plain; charset=utf-8');
    }
  };

  return (request: IncomingMessage, response: ServerResponse): void => {
    const refusal = checkRequest(
      { method: request.method ?? 'GET', host: request.headers.host, origin: request.headers.origin },
      options.hosts(),
    );
    const url = new URL(request.url ?? '/', 'http://lab.invalid');
    if (refusal) {
      send(response, refusal.status, refusal.message, 'text/plain; charset=utf-8');
    } else if (request.method === 'POST') {
      post(request, response, url.pathname).catch((error: unknown) => {
        process.stderr.write(`parley lab: ${url.pathname} failed: ${String(error)}\n`);
        refuse(response, {
          status: 500,
          message: 'The lab failed to handle this request; see its terminal.',
        });
      });
    } else if (request.method === 'GET' || request.method === 'HEAD') {
      get(response, url);
    } else {
      send(response, 405, 'Use GET or POST.', 'text/plain; charset=utf-8');
    }
  };
}
