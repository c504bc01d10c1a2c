import { ask, type ParleyServer, ToolError } from '@parley/server';
import type { ReturnRow } from './db.js';
import type { Deps } from './tools/deps.js';

const sharing = ask.form({
  share: ask.boolean({ title: 'Share my returns with this client', default: true }),
  include_email: ask.boolean({ title: 'Include the email addresses', default: false }),
});

function shown(row: ReturnRow, includeEmail: boolean) {
  return includeEmail ? row : { ...row, email: '(hidden)' };
}

/**
 * `brightgrid://returns` asks the person before it shares their returns with the client (and whether
 * the email addresses go too); `brightgrid://returns/{id}` is one return, for a client that knows its id.
 */
export function registerResources(server: ParleyServer, deps: Deps): void {
  server.resource(
    'brightgrid://returns',
    {
      name: 'returns',
      title: 'My returns',
      description: 'Your booked returns. Asks before sharing them.',
      mimeType: 'application/json',
    },
    async ({ uri }, ctx) => {
      const user = deps.userOf(ctx);
      const count = await ctx.once('count', () => deps.store.returns(user.name).length);
      const answer = await ctx.elicit(
        `Share your ${count === 1 ? '1 return' : `${count} returns`} with this client?`,
        sharing,
        { key: 'share' },
      );
      const consent = answer.action === 'accept' && answer.value.share;
      const returns = consent
        ? deps.store.returns(user.name).map((row) => shown(row, answer.value.include_email))
        : [];
      const text = JSON.stringify({ shared: consent, returns }, null, 2);
      return { contents: [{ uri, mimeType: 'application/json', text }] };
    },
  );

  server.resource(
    'brightgrid://returns/{id}',
    {
      name: 'return',
      title: 'One return',
      description: 'A booked return by its number.',
      mimeType: 'application/json',
    },
    ({ uri, params }, ctx) => {
      const user = deps.userOf(ctx);
      const row = deps.store.returns(user.name).find((r) => String(r.id) === params.id);
      if (!row)
        throw new ToolError(`You have no return #${params.id}; read brightgrid://returns for the list.`);
      return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(row, null, 2) }] };
    },
  );
}
