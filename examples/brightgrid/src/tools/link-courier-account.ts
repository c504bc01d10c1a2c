import { createHash } from 'node:crypto';
import { ask, type ParleyServer } from '@parley/server';
import { type Deps, reply, stopped } from './deps.js';

/**
 * `link_courier_account`: asks for the courier's API key with `ask.secret()`. The person pastes it
 * on a page of Brightgrid itself, never in the app's form, so the client and its model never see
 * it; the handler reads it once (`reveal()`), and the result never contains it.
 */
export function registerLinkCourierAccount(server: ParleyServer, deps: Deps): void {
  server.tool(
    'link_courier_account',
    {
      title: 'Link my courier account',
      description:
        'Links your account at the courier that collects your returns. You paste its API key on a page of Brightgrid; the key never passes through this app.',
    },
    async (_args, ctx) => {
      const user = deps.userOf(ctx);
      const key = await ctx.elicit(
        "Paste your courier account's API key (from the courier's website, Settings → API keys).",
        ask.secret({ title: 'Courier API key', minLength: 8, maxLength: 200 }),
        { key: 'courier_key' },
      );
      if (key.action !== 'accept') return stopped(key.action, 'Courier account not linked');
      const digest = createHash('sha256').update(key.value.reveal()).digest('hex');
      const link = await ctx.once('link', () =>
        deps.store.couriers.link(user.name, digest, key.value.length),
      );
      return reply(`Courier account linked for ${user.displayName}.`, {
        courier: { linkedAt: link.linkedAt },
      });
    },
  );
}
