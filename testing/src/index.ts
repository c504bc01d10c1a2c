export { freePort, startRedis } from './redis-server.js';
