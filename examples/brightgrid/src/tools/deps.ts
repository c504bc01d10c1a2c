import { type ParleyContext, ToolError } from '@parley/server';
import type { Store, User } from '../db.js';

/** What every Brightgrid tool, prompt and resource works with. */
export interface Deps {
  readonly store: Store;
  /** The clock (always read through `ctx.once`, so replayed rounds see the same time). */
  readonly now: () => Date;
  /** The person behind a request. Throws a {@link ToolError} naming the fix when there is none. */
  userOf(ctx: ParleyContext): User;
}

/**
 * Resolves the person behind a request: the verified user of an authenticated HTTP request, else the
 * local user Brightgrid was started for (stdio), never anything the client says about itself.
 */
export function userResolver(store: Store, localUser: string | undefined): (ctx: ParleyContext) => User {
  return (ctx) => {
    const name = ctx.user?.id ?? localUser;
    if (name === undefined) {
      throw new ToolError(
        'Brightgrid does not know who you are: send "Authorization: Bearer <token>" with the token `npm start` prints.',
      );
    }
    const user = store.user(name);
    if (!user) throw new ToolError(`No Brightgrid user "${name}"; use alice or bob.`);
    return user;
  };
}

/** A tool result with a text for people and the same facts as structured content for programs. */
export function reply(text: string, data: Record<string, unknown>) {
  return { content: [{ type: 'text' as const, text }], structuredContent: data };
}

/** What a declined or cancelled question means for the call, in words. */
export function stopped(action: 'decline' | 'cancel', what: string): string {
  return action === 'decline' ? `${what}: you declined.` : `${what}: cancelled.`;
}

/** `YYYY-MM-DD` of a date, in UTC. */
export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The `YYYY-MM-DD` date `days` after `date` (UTC). */
export function addDays(date: string, days: number): string {
  return isoDate(new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000));
}
