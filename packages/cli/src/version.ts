import { createRequire } from 'node:module';

// package.json sits one level above both src/ and dist/.
/** This package's version, as `parley --version` prints it. */
export const VERSION = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

/**
 * How `parley` names itself to servers: its own name, not the client library's `parley`, so a
 * server's host profile can know that its terminal shows every default pre-filled.
 */
export const CLI_CLIENT_INFO = { name: 'parley-cli', version: VERSION } as const;
