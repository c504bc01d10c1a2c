import { IdSource, runFlow } from '../load/flow.js';
import { KeepAlivePoster } from '../load/http-post.js';
import type { FlowDriver } from './driver.js';

/** The bench's own minimal loop (one keep-alive connection, hand-built requests): the client floor. */
export async function bareDriver(url: string): Promise<FlowDriver> {
  const poster = new KeepAlivePoster(url, 1);
  const ids = new IdSource();
  return {
    async flow(questions) {
      await runFlow(poster, questions, ids);
    },
    async close() {
      poster.close();
    },
  };
}
