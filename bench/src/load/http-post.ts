import { Agent, request } from 'node:http';

export interface PostReply {
  readonly status: number;
  readonly body: string;
}

/**
 * POSTs over keep-alive connections to one URL: the load generator's transport. node:http with a
 * keep-alive Agent costs the client less per request than fetch, so the bare floor is not capped
 * by the client.
 */
export class KeepAlivePoster {
  readonly #url: URL;
  readonly #agent: Agent;

  constructor(url: string, connections: number) {
    this.#url = new URL(url);
    this.#agent = new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  }

  post(body: string, headers: Readonly<Record<string, string>>): Promise<PostReply> {
    return new Promise((resolve, reject) => {
      const req = request(
        this.#url,
        {
          method: 'POST',
          agent: this.#agent,
          headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  close(): void {
    this.#agent.destroy();
  }
}
