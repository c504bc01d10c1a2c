import { serveHttp, settingsFromEnv } from './http.js';
import { createApp } from './server.js';

const listening = await serveHttp(createApp(), settingsFromEnv(process.env));
console.log(`MCP endpoint: ${listening.url}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void listening.close({ drainMs: 5000 }).then(() => process.exit(0)));
}
