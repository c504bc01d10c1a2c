/** The JSON-RPC error body for a request id (or null). */
export function rpcError(id: unknown, code: number, message: string, data?: unknown) {
  return {
    jsonrpc: '2.0' as const,
    id: typeof id === 'string' || typeof id === 'number' ? id : null,
    error: { code, message, ...(data !== undefined && { data }) },
  };
}
