import { startLab } from '@parley/lab';
import { serveHttp, settingsFromEnv } from '../src/http.js';
import { createApp } from '../src/server.js';

// `npm run inspect`: the server on a free port, and the Parley lab (a browser host) connected to it.
const listening = await serveHttp(createApp(), { ...settingsFromEnv(process.env), port: 0 });
const lab = await startLab({ targets: [listening.url], open: true });
console.log(`MCP endpoint: ${listening.url}`);
console.log(`Lab: ${lab.url}`);

process.once('SIGINT', () => {
  void Promise.all([lab.close(), listening.close()]).then(() => process.exit(0));
});
