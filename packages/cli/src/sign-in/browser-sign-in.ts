import { fileStore, type OAuthSession, oauthSession, SignInError } from '@parley/client/oauth';
import { LoopbackRedirect } from './loopback-redirect.js';
import { tokenFilePath } from './token-file.js';

export interface BrowserSignInOptions {
  readonly env: NodeJS.ProcessEnv;
  /** Open the system browser (default); `false` only prints the address. */
  readonly open: boolean;
  /** Where the address and progress are printed (stderr). */
  readonly say: (line: string) => void;
  /** How long to wait for the person. Default 5 minutes. */
  readonly timeoutMs?: number;
}

/** A sign-in session for `parley`, and what to stop when the command ends. */
export interface BrowserSignIn {
  readonly session: OAuthSession;
  close(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;

/**
 * Signs `parley` in to OAuth-protected servers the way a native app does: the authorization page
 * opens in the system browser (and its address is printed, for a headless machine or another
 * device's browser), the browser comes back to a loopback listener on a free port, and the tokens
 * are kept per server in a file only the user can read, refreshed when they expire.
 */
export function browserSignIn(options: BrowserSignInOptions): BrowserSignIn {
  const redirect = new LoopbackRedirect();
  const openBrowser = options.open && options.env.BROWSER !== 'none';
  const session = oauthSession({
    clientName: 'Parley (parley command)',
    applicationType: 'native',
    store: fileStore(tokenFilePath(options.env)),
    redirectUri: () => redirect.start(),
    async authorize(url) {
      const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      const signal = AbortSignal.timeout(timeoutMs);
      // Only the answer to this request counts: it carries the request's state.
      const answer = redirect.next(signal, url.searchParams.get('state') ?? '');
      options.say(`parley: sign in to ${url.origin} in your browser: ${printable(url.href)}`);
      if (openBrowser) {
        try {
          const { default: open } = await import('open');
          await open(url.href);
        } catch {
          options.say('parley: could not open a browser; open the address above yourself');
        }
      }
      try {
        return await answer;
      } catch {
        throw new SignInError(
          `Nobody finished signing in within ${Math.round(timeoutMs / 60_000)} minutes; run the command again to retry`,
        );
      } finally {
        await redirect.close();
      }
    },
  });
  return { session, close: () => redirect.close() };
}

/** A URL for a terminal: only printable ASCII (it is percent-encoded already; this is belt and braces). */
function printable(text: string): string {
  return text.replace(/[^\x21-\x7e]/g, '');
}
