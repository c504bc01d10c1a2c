import { createRequire } from 'node:module';

// package.json sits one level above both src/ and dist/.
const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

/** How this client names itself to servers unless `clientInfo` says otherwise. */
export const DEFAULT_CLIENT_INFO = { name: 'parley', version } as const;
