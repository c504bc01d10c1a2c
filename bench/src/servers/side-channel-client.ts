import { get } from 'node:http';
import type { ServerStats } from './side-channel.js';

/** Anything that reads a benchmark server's own stats (an HTTP server process, or a stdio one). */
export interface StatsSource {
  /** The server's own CPU and memory; `gc` collects garbage first. */
  stats(options?: { gc?: boolean }): Promise<ServerStats>;
}

/**
 * The client end of a server's side channel (see side-channel.ts), at `baseUrl` on loopback.
 * A fresh connection per call (no pool shared with the clients under test), so a workload that
 * drops connections never takes the side channel down with it.
 */
export class SideChannelClient implements StatsSource {
  readonly #baseUrl: string;
  readonly #label: string;

  constructor(baseUrl: string, label: string) {
    this.#baseUrl = baseUrl;
    this.#label = label;
  }

  async stats(options: { gc?: boolean } = {}): Promise<ServerStats> {
    return JSON.parse(await this.get(options.gc ? '/stats?gc=1' : '/stats')) as ServerStats;
  }

  /** GETs `path` of the side channel and answers the body; any status but 200 is an error. */
  get(path: string): Promise<string> {
    return new Promise((resolve, reject) => {
      get(new URL(path, this.#baseUrl), { agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString();
          if (res.statusCode === 200) resolve(body);
          else reject(new Error(`${this.#label} ${path} answered HTTP ${res.statusCode}: ${body}`));
        });
      }).on('error', reject);
    });
  }
}
