import { KeyRing } from '@parley/core';
import * as z from 'zod/v4';

/** The protocol revisions an upstream may be pinned to; `auto` negotiates. */
export const UPSTREAM_ERAS = ['auto', '2026-07-28', '2025-11-25', '2025-06-18'] as const;

/** How an upstream is reached and which era it is spoken in. */
export type UpstreamEra = (typeof UPSTREAM_ERAS)[number];

const NAME = /^[A-Za-z0-9][A-Za-z0-9-]{0,31}$/;
const UPSTREAMS_SHAPE =
  'must be an object of upstreams by name, e.g. { "returns": { "url": "http://127.0.0.1:3000/mcp" } }';

const text = (what: string) =>
  z.string({ error: `must be a string (${what})` }).min(1, { error: `must not be empty (${what})` });

const era = z.enum(UPSTREAM_ERAS, {
  error: (issue) =>
    `must be "auto", "2026-07-28", "2025-11-25" or "2025-06-18" (got ${JSON.stringify(issue.input)}); "auto", the default, speaks 2026-07-28 where the upstream offers it, else its newest 2025 revision`,
});

const stringMap = (what: string) =>
  z.record(z.string(), z.string({ error: `each value must be a string (${what})` }), {
    error: `must be an object of strings (${what})`,
  });

/** An upstream's own credentials at an OAuth authorization server, for a sign-in with nobody at a browser. */
const oauth = z
  .strictObject(
    {
      clientId: text('the client id the authorization server registered for the gateway').optional(),
      clientSecret: text(
        'the client secret; to keep it out of the file, write a reference to an environment variable',
      ).optional(),
      privateKeyFile: text('a PEM or JWK file with the client key, for private_key_jwt').optional(),
      workloadTokenFile: text('a file with the workload JWT, read at every sign-in').optional(),
      issuer: z.url({
        error: 'must be the authorization server issuer URL, e.g. "https://auth.example.com"',
      }),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `has an unknown field ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}; it takes clientId with clientSecret or privateKeyFile, or workloadTokenFile, plus issuer`
          : 'must be an object: { "clientId", "clientSecret" | "privateKeyFile", "issuer" } or { "workloadTokenFile", "issuer" }',
    },
  )
  .check((ctx) => {
    const value = ctx.value;
    const workload = value.workloadTokenFile !== undefined;
    const client = value.clientId !== undefined;
    if (workload === client)
      ctx.issues.push({
        code: 'custom',
        input: value,
        message:
          'needs either clientId (with clientSecret or privateKeyFile) for the client credentials grant, or workloadTokenFile for workload identity',
      });
    if (client && (value.clientSecret === undefined) === (value.privateKeyFile === undefined))
      ctx.issues.push({
        code: 'custom',
        input: value,
        path: ['clientSecret'],
        message: 'give exactly one of clientSecret and privateKeyFile with clientId',
      });
  });

const common = {
  era: era.optional(),
  title: text('the name people see when this upstream asks them something').optional(),
  /** How long a request to it may take, not counting a person's time. */
  timeoutMs: z.int({ error: 'must be a whole number of milliseconds' }).positive().optional(),
};

const httpUpstream = z.strictObject(
  {
    url: z.url({
      protocol: /^https?$/,
      error:
        'must be the upstream MCP endpoint, an http:// or https:// URL such as "http://127.0.0.1:3000/mcp"',
    }),
    headers: stringMap('headers sent to this upstream with every request, e.g. "authorization"').optional(),
    oauth: oauth.optional(),
    ...common,
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `has an unknown field ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}; an HTTP upstream takes url, headers, oauth, era, title and timeoutMs (a stdio upstream takes command, not url)`
        : undefined,
  },
);

const stdioUpstream = z.strictObject(
  {
    command: text('the program that starts the upstream server on stdio, e.g. "python"'),
    args: z
      .array(z.string({ error: 'each argument must be a string' }), { error: 'must be a list of strings' })
      .optional(),
    env: stringMap('environment variables for the upstream process').optional(),
    cwd: text('the working directory of the upstream process').optional(),
    /** 2025 eras: processes the gateway may run for this upstream at once (one per session). */
    maxProcesses: z.int({ error: 'must be a whole number' }).min(1).max(256).optional(),
    ...common,
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `has an unknown field ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}; a stdio upstream takes command, args, env, cwd, maxProcesses, era, title and timeoutMs (an HTTP upstream takes url, not command)`
        : undefined,
  },
);

const upstream = z.unknown().transform((value, ctx) => {
  const record = typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
  const isHttp = record !== undefined && 'url' in record;
  const isStdio = record !== undefined && 'command' in record;
  if (record === undefined || isHttp === isStdio) {
    ctx.issues.push({
      code: 'custom',
      input: value,
      message:
        isHttp && isStdio
          ? 'has both url and command; an upstream is either reached over HTTP (url) or started on stdio (command)'
          : 'must be an object with url (an HTTP upstream) or command (a stdio upstream), e.g. { "url": "http://127.0.0.1:3000/mcp" }',
    });
    return z.NEVER;
  }
  const parsed = (isHttp ? httpUpstream : stdioUpstream).safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.issues.push({ ...issue, input: value } as never);
    return z.NEVER;
  }
  return parsed.data as HttpUpstreamConfig | StdioUpstreamConfig;
});

/** What every replica of a fleet of gateways shares, and which replica this one is. */
const fleet = z.strictObject(
  {
    redis: z.url({
      protocol: /^rediss?$/,
      error:
        'must be the Redis every replica shares, a redis:// or rediss:// URL such as "redis://127.0.0.1:6379" (or a reference to an environment variable that holds it)',
    }),
    replica: z.string({ error: 'must be a string naming this replica' }).regex(/^[A-Za-z0-9_-]{1,32}$/, {
      error:
        'must name this replica with 1 to 32 letters, digits, "_" and "-", a different name on each replica (e.g. "gw1", or a reference to an environment variable that holds it)',
    }),
    stateKeys: z.string({ error: 'must be the key ring every replica shares, as text' }).check((ctx) => {
      try {
        if (KeyRing.parse(ctx.value).length > 0) return;
      } catch {
        // said below
      }
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        message:
          'must be the key ring every replica shares: comma-separated id:base64secret pairs, the sealing key first, each secret 32 random bytes (make one with `openssl rand -base64 32`); refer to an environment variable (such as PARLEY_STATE_KEYS) to keep it out of the file',
      });
    }),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `has an unknown field ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}; it takes redis, replica and stateKeys`
        : 'must be an object: { "redis", "replica", "stateKeys" }',
  },
);

/** The gateway's configuration, as `gateway.json` holds it. */
export const gatewayConfigSchema = z.strictObject(
  {
    upstreams: z
      .unknown()
      .transform((value, ctx) => {
        if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
        ctx.issues.push({ code: 'custom', input: value, message: UPSTREAMS_SHAPE });
        return z.NEVER;
      })
      .pipe(
        z
          .record(
            z.string().regex(NAME, {
              error:
                'upstream names are 1 to 32 letters, digits and "-", starting with a letter or digit (they prefix tool names: <upstream>_<tool>)',
            }),
            upstream,
          )
          .refine((upstreams) => Object.keys(upstreams).length > 0, {
            error: 'needs at least one upstream, e.g. { "returns": { "url": "http://127.0.0.1:3000/mcp" } }',
          }),
      ),
    name: text('the name the gateway gives itself to hosts').optional(),
    title: text('the gateway title hosts show').optional(),
    /** What happens to a URL an upstream sends that inspectUrl does not allow, or warns about. */
    urls: z
      .enum(['warn', 'refuse'], {
        error:
          'must be "warn" (show the person the warnings with the link; a link inspectUrl does not allow is still refused) or "refuse" (refuse every link with a warning)',
      })
      .optional(),
    maxRounds: z.int({ error: 'must be a whole number' }).min(1).max(100).optional(),
    pages: z
      .strictObject(
        {
          publicUrl: z
            .url({ error: 'must be the URL people reach the gateway at, e.g. "https://gateway.example.com"' })
            .optional(),
          ttlSeconds: z.int({ error: 'must be a whole number of seconds' }).min(30).max(86_400).optional(),
          anonymousByAddress: z.boolean({ error: 'must be true or false' }).optional(),
        },
        { error: 'takes publicUrl, ttlSeconds and anonymousByAddress' },
      )
      .optional(),
    auth: z
      .strictObject(
        {
          issuer: z.url({
            error: 'must be the issuer URL of the authorization server whose tokens hosts bring',
          }),
          resource: z
            .url({ error: "must be the gateway's resource identifier (its public MCP URL)" })
            .optional(),
          scopes: z.array(z.string(), { error: 'must be a list of scopes every request needs' }).optional(),
        },
        { error: 'takes issuer, resource and scopes' },
      )
      .optional(),
    fleet: fleet.optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `has an unknown field ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}; the top level takes upstreams, name, title, urls, maxRounds, pages, auth and fleet`
        : issue.input === undefined
          ? 'is missing'
          : undefined,
  },
);

/**
 * One replica of a fleet of gateways behind a balancer with no affinity: the Redis they share (a
 * held call resumed on the replica that holds it, question pages, 2025-era host sessions), this
 * replica's name, and the key ring every replica seals `requestState` with.
 */
export interface FleetConfig {
  /** `redis://` or `rediss://` URL of the Redis every replica shares. */
  readonly redis: string;
  /** This replica's name (different on each): in its handles, its log lines, and the errors hosts read. */
  readonly replica: string;
  /** `id:base64secret` pairs, comma-separated, the sealing key first (the `PARLEY_STATE_KEYS` format). */
  readonly stateKeys: string;
}

/** An upstream reached over Streamable HTTP. */
export interface HttpUpstreamConfig {
  readonly url: string;
  /** Sent with every request (static credentials); never the host's token. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The gateway's own credentials at the upstream's authorization server. */
  readonly oauth?: UpstreamOAuthConfig;
  readonly era?: UpstreamEra;
  readonly title?: string;
  readonly timeoutMs?: number;
}

/** An upstream the gateway starts and talks to over stdio. */
export interface StdioUpstreamConfig {
  readonly command: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly maxProcesses?: number;
  readonly era?: UpstreamEra;
  readonly title?: string;
  readonly timeoutMs?: number;
}

/** The gateway's credentials at an upstream's authorization server (no person at a browser). */
export interface UpstreamOAuthConfig {
  readonly clientId?: string;
  readonly clientSecret?: string;
  readonly privateKeyFile?: string;
  readonly workloadTokenFile?: string;
  readonly issuer: string;
}

/** One upstream: a server reached over Streamable HTTP, or one the gateway starts and speaks to over stdio. */
export type UpstreamConfig = HttpUpstreamConfig | StdioUpstreamConfig;

/** The gateway's configuration (`gateway.json`), checked by {@link readGatewayConfig}. */
export interface GatewayConfig {
  readonly upstreams: Readonly<Record<string, UpstreamConfig>>;
  readonly name?: string;
  readonly title?: string;
  /** `warn` (default): show a link's warnings with it; `refuse`: decline every link inspectUrl warns about. */
  readonly urls?: 'warn' | 'refuse';
  /** Rounds of questions one call may take, on either side. Default 20. */
  readonly maxRounds?: number;
  /** The gateway's question pages (for hosts that cannot show an upstream's question). */
  readonly pages?: {
    readonly publicUrl?: string;
    readonly ttlSeconds?: number;
    /**
     * Lets an anonymous 2026-07-28 host that neither opens URLs nor carries a resume token back get a
     * page's link anyway, its call found again by its network address: whoever calls from that
     * address takes it over, with the answers (`questionPages.anonymousByAddress` of
     * `@parley/server`). Only for a gateway whose anonymous hosts each have an address of their own.
     */
    readonly anonymousByAddress?: boolean;
  };
  /** Make the gateway an OAuth protected resource whose tokens this issuer signs (JWT access tokens). */
  readonly auth?: {
    readonly issuer: string;
    readonly resource?: string;
    readonly scopes?: readonly string[];
  };
  /** One replica of a fleet of gateways (needs `@parley/gateway/redis` and ioredis). */
  readonly fleet?: FleetConfig;
}

/** Whether an upstream is reached over HTTP. */
export function isHttpUpstream(config: UpstreamConfig): config is HttpUpstreamConfig {
  return 'url' in config;
}
