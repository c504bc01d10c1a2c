import {
  clientCredentials,
  enterpriseManaged,
  type Grant,
  type PreRegisteredClient,
  workloadIdentity,
} from '@parley/client/oauth';

/** A tool call a scenario asks for, with its arguments. */
export interface ToolCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

/** What a scenario passes in MCP_CONFORMANCE_CONTEXT that this client uses. */
export interface ConformanceContext {
  /** Credentials registered beforehand, by issuer (auth/pre-registration). */
  readonly preRegistered?: Record<string, PreRegisteredClient>;
  /**
   * How to sign in with nobody at a browser (the auth extension scenarios): client credentials
   * with a secret or a private key, enterprise-managed authorization, a workload JWT.
   */
  readonly grant?: Grant;
  /** The calls to make instead of calling every tool (http-custom-headers). */
  readonly toolCalls?: readonly ToolCall[];
}

/** Reads MCP_CONFORMANCE_CONTEXT; a scenario without one gets an empty context. */
export function conformanceContext(raw = process.env.MCP_CONFORMANCE_CONTEXT): ConformanceContext {
  if (raw === undefined || raw === '') return {};
  const parsed: unknown = JSON.parse(raw);
  if (!isRecord(parsed)) return {};
  const context: {
    preRegistered?: Record<string, PreRegisteredClient>;
    grant?: Grant;
    toolCalls?: ToolCall[];
  } = {};
  const grant = grantFor(parsed);
  if (grant !== undefined) context.grant = grant;
  else if (typeof parsed.client_id === 'string' && typeof parsed.issuer === 'string') {
    context.preRegistered = {
      [parsed.issuer]: {
        clientId: parsed.client_id,
        ...(typeof parsed.client_secret === 'string' && { clientSecret: parsed.client_secret }),
      },
    };
  }
  if (Array.isArray(parsed.toolCalls)) {
    context.toolCalls = parsed.toolCalls.filter(isRecord).map((call) => ({
      name: String(call.name),
      arguments: isRecord(call.arguments) ? call.arguments : {},
    }));
  }
  return context;
}

/** The grant a headless scenario's credentials are for, by what the context holds. */
function grantFor(context: Record<string, unknown>): Grant | undefined {
  const text = (name: string) => (typeof context[name] === 'string' ? (context[name] as string) : undefined);
  const clientId = text('client_id');
  const idToken = text('idp_id_token');
  const idpIssuer = text('idp_issuer');
  const idpClientId = text('idp_client_id');
  if (idToken !== undefined && idpIssuer !== undefined && idpClientId !== undefined && clientId) {
    const tokenEndpoint = text('idp_token_endpoint');
    const clientSecret = text('client_secret');
    return enterpriseManaged({
      idp: { issuer: idpIssuer, clientId: idpClientId, ...(tokenEndpoint && { tokenEndpoint }) },
      idToken,
      client: { clientId, ...(clientSecret !== undefined && { clientSecret }) },
    });
  }
  const workloadJwt = text('valid_jwt');
  if (workloadJwt !== undefined) return workloadIdentity({ assertion: workloadJwt });
  const privateKey = text('private_key_pem');
  if (clientId !== undefined && privateKey !== undefined) {
    const algorithm = text('signing_algorithm');
    return clientCredentials({ clientId, privateKey, ...(algorithm && { algorithm }) });
  }
  // A secret with no issuer to pre-register it for is the client credentials scenario's.
  const clientSecret = text('client_secret');
  if (clientId !== undefined && clientSecret !== undefined && text('issuer') === undefined) {
    return clientCredentials({ clientId, clientSecret });
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
