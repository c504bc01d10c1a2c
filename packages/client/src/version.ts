/** How this client names itself to servers unless `clientInfo` says otherwise. */
export const DEFAULT_CLIENT_INFO = { name: 'parley', version: '0.1.0' } as const;
