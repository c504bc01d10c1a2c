import { ask, type ParleyServer } from '@parley/server';
import * as z from 'zod/v4';
import type { Deps } from './tools/deps.js';

const reviewQuestions = ask.form({
  stars: ask.integer({ title: 'Stars', description: 'From 1 (poor) to 5 (excellent)', min: 1, max: 5 }),
  tone: ask.choice(
    { warm: 'Warm', matter_of_fact: 'Matter-of-fact', playful: 'Playful' },
    {
      title: 'Tone',
      default: 'warm',
    },
  ),
  mention_delivery: ask.boolean({ title: 'Mention the delivery', default: false }),
});

/** `write_review`: a prompt that asks how the person liked the product before it writes the prompt. */
export function registerPrompts(server: ParleyServer, deps: Deps): void {
  server.prompt(
    'write_review',
    {
      title: 'Write a product review',
      description: 'Drafts a review of a Brightgrid product after asking how you liked it.',
      args: z.object({ sku: z.string().describe('The product, e.g. BG-100') }),
    },
    async ({ sku }, ctx) => {
      deps.userOf(ctx); // only known users may review
      const product = await ctx.once('product', () => deps.store.product(sku) ?? null);
      const name = product ? `the ${product.name} (${product.sku})` : `product ${sku}`;
      const answer = await ctx.elicit(`How did you like ${name}?`, reviewQuestions, { key: 'review' });
      if (answer.action !== 'accept') {
        return `Ask me how I liked ${name} before drafting a review; I did not say yet.`;
      }
      const { stars, tone, mention_delivery } = answer.value;
      const delivery = mention_delivery ? ' Mention how the delivery went.' : '';
      return `Write a short ${tone.replaceAll('_', '-')} customer review of ${name} from Brightgrid, giving it ${stars} out of 5 stars.${delivery}`;
    },
  );
}
