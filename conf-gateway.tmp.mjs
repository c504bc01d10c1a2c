import { spawn } from 'node:child_process';
import { createGateway } from '@parley/gateway';
const child = spawn(process.execPath, ['conformance/dist/server.js', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve) => { let b=''; child.stdout.on('data', (c) => { b += c; if (b.includes('\n')) resolve(b.split('\n')[0].trim()); }); });
const gateway = createGateway({ upstreams: { conf: { url, era: process.env.UPERA ?? 'auto' } } }, { log: (l, m) => process.env.GWLOG && console.error(l, m) });
const gl = await gateway.listen({ port: Number(process.env.PORT ?? 0) });
console.log(gl.url);
process.on('SIGTERM', () => { child.kill(); process.exit(0); });
