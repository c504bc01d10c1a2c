// @parley/client/testing: test a server's tools in this process, with scripted answers, on either
// protocol era. Takes any server with an in-process endpoint (a ParleyServer has one); it never
// imports @parley/server.

export type { AskRecord, PageLink, ScriptedAnswer, ScriptedAnswers } from '../scripted.js';
export {
  IN_PROCESS_URL,
  type InProcessEndpoint,
  type InProcessServer,
  inProcessFetch,
} from './in-process.js';
export {
  type QuestionPagePerson,
  type QuestionPagePersonOptions,
  questionPagePerson,
} from './page-person.js';
export { type TestClient, type TestClientOptions, testClient } from './test-client.js';
