import { ask, type ParleyServer } from '@parley/server';
import * as z from 'zod/v4';
import { type Deps, reply, stopped } from './deps.js';

const confirmation = ask.form({
  environment: ask.choice(
    { staging: 'Staging', production: 'Production' },
    { title: 'Environment', default: 'staging' },
  ),
  notify: ask.boolean({ title: 'Notify the team', default: true }),
  window: ask.dateTime({
    title: 'Deployment window',
    description: 'When to start, with a time zone offset (e.g. 2026-08-03T09:00:00+02:00)',
  }),
});

/** `deploy`: a confirmation with a titled choice, a boolean and a date-time, each with its default. */
export function registerDeploy(server: ParleyServer, deps: Deps): void {
  server.tool(
    'deploy',
    {
      title: 'Deploy the storefront',
      description: 'Schedules a deployment of a Brightgrid service after you confirm where and when.',
      input: z.object({
        service: z.enum(['storefront', 'checkout', 'search']).describe('The service to deploy'),
        version: z
          .string()
          .regex(/^v?\d+\.\d+\.\d+$/, 'use a version like 1.4.2')
          .describe('The version to deploy, e.g. 1.4.2'),
      }),
    },
    async ({ service, version }, ctx) => {
      const user = deps.userOf(ctx);
      const answer = await ctx.elicit(`Deploy ${service} ${version}?`, confirmation, { key: 'deploy' });
      if (answer.action !== 'accept') return stopped(answer.action, 'Nothing deployed');
      const deployment = await ctx.once('schedule', (key) =>
        deps.store.addDeployment(user.name, { service, version, ...answer.value }, key),
      );
      const notify = deployment.notify ? ' The team will be notified.' : '';
      return reply(
        `Deployment #${deployment.id} scheduled: ${service} ${version} to ${deployment.environment} at ${deployment.window}.${notify}`,
        { deployment },
      );
    },
  );
}
