/** How the load balancer in front of a set of replicas behaves. */
export interface BalancerConfig {
  /** The port nginx listens on (127.0.0.1). */
  readonly port: number;
  /** The replicas' loopback ports, in the order round-robin visits them. */
  readonly upstreamPorts: readonly number[];
  /** Folder for the pid file, logs and nginx's temp files. */
  readonly dir: string;
  /** Failed attempts after which a replica is left out for `failTimeoutSeconds`. Default 1. */
  readonly maxFails?: number;
  /** How long a failed replica is left out before nginx tries it again. Default 2. */
  readonly failTimeoutSeconds?: number;
  /**
   * Pass request bodies to the replica as they arrive instead of reading them whole first (nginx's
   * default). A request can then be cut off mid-way inside a replica, as a crash would do it.
   */
  readonly streamRequestBodies?: boolean;
  /**
   * Sticky 2025-era sessions: each replica's session-id prefix (its `sessions.idPrefix`), in the
   * order of `upstreamPorts`. A request whose `Mcp-Session-Id` starts with `<prefix>.` goes to that
   * replica; the rest (`initialize`, 2026-07-28 rounds, pages) stay round-robin. Default: none.
   */
  readonly sessionPrefixes?: readonly string[];
  /** Whether nginx runs as root (its workers then need `user root;` to use `dir`). */
  readonly asRoot?: boolean;
}

/**
 * An nginx configuration for a round-robin load balancer on loopback: no affinity (unless
 * `sessionPrefixes` asks for it), a failed
 * replica routed around (`proxy_next_upstream error timeout http_502`), and the replica that served
 * each response named in an `X-Upstream` header (nginx's `$upstream_addr`: every address tried,
 * comma-separated, the one that answered last).
 */
export function balancerConfig(config: BalancerConfig): string {
  const maxFails = config.maxFails ?? 1;
  const failTimeout = config.failTimeoutSeconds ?? 2;
  const servers = config.upstreamPorts
    .map((port) => `    server 127.0.0.1:${port} max_fails=${maxFails} fail_timeout=${failTimeout}s;`)
    .join('\n');
  const dir = config.dir;
  // Hashing the session id alone cannot work: `initialize` carries none, so the replica that opens
  // a session is not the one its id hashes to. The id names its replica instead.
  const prefixes = config.sessionPrefixes ?? [];
  const sticky =
    prefixes.length === 0
      ? ''
      : `  map $http_mcp_session_id $parley_upstream {
    default replicas;
${prefixes.map((prefix) => `    "~^${prefix}\\." replica_${prefix};`).join('\n')}
  }
${prefixes
  .map(
    (prefix, index) =>
      `  upstream replica_${prefix} {\n    server 127.0.0.1:${config.upstreamPorts[index]};\n  }`,
  )
  .join('\n')}
`;
  return `${config.asRoot ? 'user root root;\n' : ''}worker_processes 1;
error_log ${dir}/error.log warn;
pid ${dir}/nginx.pid;
events { worker_connections 1024; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  client_max_body_size 4m;
${sticky}  upstream replicas {
${servers}
    keepalive 16;
    # Below Node's 5 s keep-alive timeout, so nginx never reuses a connection the replica is closing.
    keepalive_timeout 4s;
  }
  server {
    listen 127.0.0.1:${config.port};
    location / {
      proxy_pass http://${prefixes.length === 0 ? 'replicas' : '$parley_upstream'};
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_next_upstream error timeout http_502;
      proxy_next_upstream_tries ${config.upstreamPorts.length};
      proxy_connect_timeout 2s;
      proxy_read_timeout 60s;
      proxy_buffering off;
      proxy_request_buffering ${config.streamRequestBodies ? 'off' : 'on'};
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}
