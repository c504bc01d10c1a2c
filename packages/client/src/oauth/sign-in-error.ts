import { ParleyError } from '../errors.js';

/**
 * Signing in to a protected server failed or was refused. Nothing was stored: the host is not
 * signed in. The message says what was wrong and what to do.
 */
export class SignInError extends ParleyError {
  constructor(message: string, options: { cause?: unknown; server?: string } = {}) {
    super('auth', message, options);
    this.name = 'SignInError';
  }
}
