import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { FetchLike } from '@modelcontextprotocol/client';
import { clientCredentials, oauthSession, workloadIdentity } from '@parley/client/oauth';
import type { SdkConnectOptions } from '@parley/client/raw';
import {
  isHttpUpstream,
  type UpstreamConfig,
  type UpstreamEra,
  type UpstreamOAuthConfig,
} from '../config/schema.js';
import type { SessionTransportOptions } from './session-transport.js';
import { UpstreamFetch } from './upstream-fetch.js';

/** How to reach one upstream: the target and the connection options (not the era, nor capabilities). */
export interface Reach {
  readonly target: string | readonly string[];
  readonly options: Omit<SdkConnectOptions, 'capabilities' | 'prepare' | 'era' | 'protocolVersions'>;
  /** HTTP without a sign-in or a fetch of the caller's: how 2025 sessions send on `node:http` directly. */
  readonly request?: SessionTransportOptions['request'];
}

/** A longest stderr line of an upstream process the gateway logs, in characters. */
const STDERR_LINE_CHARS = 2_000;

/**
 * The target and options for an upstream. Over HTTP the gateway sends the configured headers and,
 * when configured, signs in with its own credentials (`oauth`): never the host's token, which the
 * spec forbids passing through. `fetch` is the gateway's own `UpstreamFetch` unless the caller gave
 * one; with it and no sign-in, 2025 sessions send on `node:http` directly (`request`). A stdio
 * upstream's stderr goes to `log`, one line at a time, capped.
 */
export function reachOf(
  config: UpstreamConfig,
  log: (line: string) => void,
  fetch?: FetchLike | UpstreamFetch,
): Reach {
  const timeout = config.timeoutMs === undefined ? {} : { requestTimeoutMs: config.timeoutMs };
  if (isHttpUpstream(config)) {
    const own = fetch instanceof UpstreamFetch ? fetch : undefined;
    const given = own?.fetch ?? (fetch as FetchLike | undefined);
    const signedIn = config.oauth === undefined ? given : signInFetch(config.oauth, given);
    return {
      target: config.url,
      options: {
        ...timeout,
        ...(config.headers !== undefined && { headers: { ...config.headers } }),
        ...(signedIn !== undefined && { fetch: signedIn }),
      },
      ...(own !== undefined && config.oauth === undefined && { request: own.request }),
    };
  }
  return {
    target: [config.command, ...(config.args ?? [])],
    options: {
      ...timeout,
      ...(config.env !== undefined && { env: { ...config.env } }),
      ...(config.cwd !== undefined && { cwd: config.cwd }),
      stderr: (line) => log(line.length > STDERR_LINE_CHARS ? `${line.slice(0, STDERR_LINE_CHARS)}…` : line),
    },
  };
}

/** The SDK era mode and the revisions offered for an upstream's configured era. */
export function eraOptions(
  era: UpstreamEra | undefined,
): Pick<SdkConnectOptions, 'era' | 'protocolVersions'> {
  switch (era ?? 'auto') {
    case 'auto':
      return { era: 'auto' };
    case '2026-07-28':
      return { era: 'modern' };
    case '2025-11-25':
      return { era: 'handshake', protocolVersions: ['2025-11-25'] };
    default:
      return { era: 'handshake', protocolVersions: ['2025-06-18'] };
  }
}

/** The revisions a 2025 session of an upstream is opened with: its pin, or both 2025 revisions. */
export function handshakeVersions(era: UpstreamEra | undefined): readonly string[] {
  const pinned = eraOptions(era).protocolVersions;
  return pinned ?? ['2025-11-25', '2025-06-18'];
}

/** A fetch that signs in to the upstream's authorization server with the gateway's own credentials. */
function signInFetch(oauth: UpstreamOAuthConfig, fetch: FetchLike | undefined): FetchLike {
  const grant =
    oauth.workloadTokenFile !== undefined
      ? workloadIdentity({
          assertion: () => readFile(oauth.workloadTokenFile!, 'utf8'),
          issuer: oauth.issuer,
        })
      : clientCredentials({
          clientId: oauth.clientId!,
          issuer: oauth.issuer,
          ...(oauth.clientSecret !== undefined
            ? { clientSecret: oauth.clientSecret }
            : { privateKey: readPrivateKey(oauth.privateKeyFile!) }),
        });
  return oauthSession({ grant, ...(fetch !== undefined && { fetch }) }).fetch;
}

/** A private key file's text, read while the gateway starts (a missing file is a start-up error). */
function readPrivateKey(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(
      `oauth.privateKeyFile ${JSON.stringify(path)} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}); check the path`,
    );
  }
}
