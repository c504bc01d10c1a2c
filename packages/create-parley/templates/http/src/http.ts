import type { Listening, ParleyServer } from '@parley/server';

/** Where the endpoint listens. */
export interface HttpSettings {
  readonly port: number;
  readonly host?: string;
}

/** The settings from the environment: PORT (default 3000) and HOST (default loopback). */
export function settingsFromEnv(env: NodeJS.ProcessEnv): HttpSettings {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, not "${env.PORT}"`);
  return { port, ...(env.HOST ? { host: env.HOST } : {}) };
}

/** Serves the app on one HTTP endpoint, /mcp, for both protocol eras. */
export function serveHttp(app: ParleyServer, settings: HttpSettings): Promise<Listening> {
  return app.listen({ port: settings.port, ...(settings.host ? { host: settings.host } : {}) });
}
