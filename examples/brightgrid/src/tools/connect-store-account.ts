import type { ParleyServer } from '@parley/server';
import type { ConnectResult } from '../web/connect-page.js';
import { type Deps, reply, stopped } from './deps.js';

/** The flow kind whose page is the store's connect page. */
export const STORE_ACCOUNT_FLOW = 'store-account';

function isConnectResult(value: unknown): value is ConnectResult {
  return (
    typeof value === 'object' && value !== null && typeof (value as ConnectResult).connected === 'boolean'
  );
}

/**
 * `connect_store_account`: URL mode. The person signs in on the store's own page in their browser (the
 * password never passes through the client) and allows the connection there; the tool learns only
 * the outcome.
 */
export function registerConnectStoreAccount(server: ParleyServer, deps: Deps): void {
  server.tool(
    'connect_store_account',
    {
      title: 'Connect my store account',
      description:
        "Links your Brightgrid store account. You sign in on the store's own page in your browser; your password never passes through this app.",
    },
    async (_args, ctx) => {
      const user = deps.userOf(ctx);
      const linked = await ctx.elicitUrl(
        "Connect your Brightgrid store account: sign in on the store's page and allow the connection.",
        // The client's name is self-reported: the page shows it as the name the app gave.
        { flow: STORE_ACCOUNT_FLOW, data: { client: ctx.client.name ?? null } },
        { key: 'store_account' },
      );
      if (linked.action !== 'accept') return stopped(linked.action, 'Store account not connected');
      if (!isConnectResult(linked.value) || !linked.value.connected) {
        return 'Store account not connected: you chose Deny on the store page.';
      }
      const { account, displayName, linkedAt } = linked.value;
      return reply(`Connected your Brightgrid store account ${account} (${displayName}).`, {
        link: { user: user.name, account, linkedAt },
      });
    },
  );
}
