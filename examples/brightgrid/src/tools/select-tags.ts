import { ask, type ParleyServer, ToolError } from '@parley/server';
import * as z from 'zod/v4';
import { type Deps, reply, stopped } from './deps.js';

const MIN_TAGS = 1;
const MAX_TAGS = 3;

/** `select_tags`: a titled multi-select with a minimum and a maximum, pre-filled with the current tags. */
export function registerSelectTags(server: ParleyServer, deps: Deps): void {
  server.tool(
    'select_tags',
    {
      title: 'Tag a product',
      description: `Chooses ${MIN_TAGS} to ${MAX_TAGS} catalogue tags for a product.`,
      input: z.object({
        sku: z.string().describe('The product, e.g. BG-100 (desk lamp), BG-200 or BG-300'),
      }),
    },
    async ({ sku }, ctx) => {
      deps.userOf(ctx); // only known users may tag products
      const { product, tags } = await ctx.once('catalogue', () => ({
        product: deps.store.product(sku) ?? null,
        tags: deps.store.tags(),
      }));
      if (!product) {
        const known = deps.store
          .products()
          .map((p) => `${p.sku} (${p.name})`)
          .join(', ');
        throw new ToolError(`No product ${sku}; use one of ${known}.`);
      }
      const answer = await ctx.elicit(
        `Which tags fit the ${product.name} (${product.sku})?`,
        ask.many(Object.fromEntries(tags.map((tag) => [tag.slug, tag.title])), {
          title: 'Tags',
          description: `Pick ${MIN_TAGS} to ${MAX_TAGS}.`,
          min: MIN_TAGS,
          max: MAX_TAGS,
          ...(product.tags.length > 0 && { default: product.tags }),
        }),
        { key: 'tags' },
      );
      if (answer.action !== 'accept') return stopped(answer.action, `Tags of ${product.sku} unchanged`);
      const updated = await ctx.once('save', () => deps.store.setProductTags(product.sku, answer.value));
      const titles = updated.tags.map((slug) => tags.find((tag) => tag.slug === slug)?.title ?? slug);
      return reply(`${updated.name} (${updated.sku}) is now tagged: ${titles.join(', ')}.`, {
        product: updated,
      });
    },
  );
}
