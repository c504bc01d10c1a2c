// What the site's code samples may use without importing or declaring it; docs/site/code-samples.ts
// type-checks every sample with this file. A sample shows one part of a program: the server or client
// its page built a few blocks before, that page's usual imports, and your own app's functions that it
// calls. A sample that uses anything else imports or declares it itself.

// A script, not a module: everything it declares is global.

type ServerExports = typeof import('@parley/server');
type ClientExports = typeof import('@parley/client');
type MiddlewareExamples = typeof import('../../packages/server/examples/middleware.js');

// The server a page of @parley/server built, that page's imports, and a handler's context.
declare const server: import('@parley/server').ParleyServer;
type ParleyServer = import('@parley/server').ParleyServer;
declare const ctx: import('@parley/server').ParleyContext;
type Middleware = import('@parley/server').Middleware;
declare const createServer: ServerExports['createServer'];
declare const ask: ServerExports['ask'];
declare const z: typeof import('zod/v4').z;
declare const ToolError: ServerExports['ToolError'];
type ToolError = import('@parley/server').ToolError;
declare const content: ServerExports['content'];
declare const message: ServerExports['message'];
declare const toolResult: ServerExports['toolResult'];
declare const structuredResult: ServerExports['structuredResult'];
declare const toolError: ServerExports['toolError'];
declare const toolErrorResult: ServerExports['toolErrorResult'];
declare const jsonSchema: ServerExports['jsonSchema'];
declare const promptResult: ServerExports['promptResult'];
declare const resourceResult: ServerExports['resourceResult'];
declare const htmlPage: ServerExports['htmlPage'];
declare const messagePage: ServerExports['messagePage'];
// The middleware its README defines (packages/server/examples/middleware.ts).
declare const timing: MiddlewareExamples['timing'];
declare const structuredLogging: MiddlewareExamples['structuredLogging'];
declare const perUserRateLimit: MiddlewareExamples['perUserRateLimit'];
declare const errorReporter: MiddlewareExamples['errorReporter'];

// The client a page of @parley/client connected, its UI, a call's result, and that page's imports.
declare const client: import('@parley/client').ParleyClient;
declare const ui: import('@parley/client').ElicitationUI;
declare const result: { content: [{ type: 'text'; text: string }] };
type ElicitationUI = import('@parley/client').ElicitationUI;
declare const connect: ClientExports['connect'];
declare const scripted: ClientExports['scripted'];
declare const samplingView: ClientExports['samplingView'];

// Your own app.
declare function bookReturn(key: string, booking: { boxes: number; pickup_date: string }): Promise<string>;
declare function bookReturn(
  key: string,
  order: string,
  reason: string,
  boxes: number,
  pickupDate: string,
): Promise<string>;
declare function oldInvoices(): Promise<string[]>;
declare function linkCourierAccount(user: string, apiKey: string): Promise<void>;
declare function cancelOrder(id: number, idempotencyKey: string): Promise<boolean>;
declare function userFromSessionCookie(request: Request): string | undefined;
declare function linkAccount(user: string, form: FormData): Promise<string>;
declare function askThePerson(
  view: import('@parley/client').SamplingView,
  context: import('@parley/client').AskContext,
): Promise<string | undefined>;
declare function openInBrowserAndWaitForRedirect(url: URL): Promise<URL>;
declare const tracker: { capture(error: unknown, context: { where: string }): void };
/** An image's bytes. */
declare const png: Uint8Array;
/** Your app's database, its orders, its metrics, and the work its tools do. */
declare const db: {
  saveOrder(order: { id: string }): Promise<void>;
  bookReturn(booking: { idempotencyKey: string; order: string; boxes: number }): Promise<string>;
};
declare const orders: Map<string, { id: string }>;
declare const metrics: { gauge(name: string, value: number): void };
declare function lookup(city: string): Promise<number>;
declare function buildReport(name: string, signal: AbortSignal): Promise<string>;
declare function waitForTheBatchJob(signal: AbortSignal): Promise<string>;
/** Your app's background jobs, and the feed of changes it follows for subscribed resources. */
declare const jobs: { start(work: { report: string }): Promise<string>; done(job: string): Promise<boolean> };
declare const feed: { follow(uri: string): void; unfollow(uri: string): void };
/** The single sign-on a host already has for its person. */
declare const sso: { currentIdToken(): Promise<string> };
/** The response a node:http handler is writing. */
declare const response: import('node:http').ServerResponse;
/** A question page's data: who asks, the question, and where the answer goes. */
declare const data: import('@parley/renderer/question-page').QuestionPageData;
/** Sends a host's answer on to where it goes. */
declare function send(answer: unknown): void;
/** A form question as a host receives it. */
declare const request: { message: string; requestedSchema: import('@parley/core/form').RequestedSchema };

/** Stylesheets a sample imports for their effect (a bundler handles them). */
declare module '*.css';
