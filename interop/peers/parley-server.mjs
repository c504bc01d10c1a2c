// The Parley server their clients call in the interop suite: one tool per case.
// Usage: node parley-server.mjs stdio | node parley-server.mjs http  (prints its URL first)
import { ask, createServer } from '@parley/server';
import * as z from 'zod/v4';

const server = createServer({ name: 'parley-peer', version: '1.0.0' });
const outcome = (answer) => (answer.action === 'accept' ? JSON.stringify(answer.value) : answer.action);

server.tool('profile', { description: 'Every field kind' }, async (_args, ctx) => {
  const form = ask.form({
    name: ask.text({ title: 'Name' }),
    email: ask.email({ title: 'Email' }),
    birthday: ask.date({ title: 'Birthday' }),
    age: ask.integer({ title: 'Age', min: 0, max: 150 }),
    height: ask.number({ title: 'Height' }),
    subscribed: ask.boolean({ title: 'Subscribed' }),
    size: ask.choice({ s: 'Small', m: 'Medium', l: 'Large' }, { title: 'Size' }),
    toppings: ask.many(['ham', 'cheese', 'olives'], { title: 'Toppings' }),
  });
  return outcome(await ctx.elicit('Your profile', form));
});

server.tool('confirm', { description: 'accept, decline or cancel' }, async (_args, ctx) =>
  outcome(await ctx.elicit('Go ahead?', ask.boolean())),
);

server.tool('two_steps', { description: 'Two questions in sequence' }, async (_args, ctx) => {
  const name = await ctx.elicit('Step 1: your name?', ask.text());
  if (name.action !== 'accept') return name.action;
  const color = await ctx.elicit('Step 2: favourite color?', ask.text());
  return color.action === 'accept' ? `${name.value} likes ${color.value}` : color.action;
});

server.tool(
  'with_defaults',
  { description: 'Required fields with defaults, one optional field' },
  async (_args, ctx) => {
    const form = ask.form({
      name: ask.text({ title: 'Name' }),
      nickname: ask.text({ title: 'Nickname', optional: true }),
      age: ask.integer({ title: 'Age', default: 30 }),
      subscribed: ask.boolean({ title: 'Subscribed', default: true }),
    });
    return outcome(await ctx.elicit('Sign up', form));
  },
);

server.tool('sign_in', { description: 'URL mode' }, async (_args, ctx) => {
  if (!ctx.can('url')) return 'no URL mode';
  return (await ctx.elicitUrl('Sign in to continue', 'https://auth.example.com/start')).action;
});

server.tool(
  'tagged',
  {
    description: 'Waits, then asks a question naming the tag',
    input: z.object({ tag: z.string(), delay: z.number() }),
  },
  async ({ tag, delay }, ctx) => {
    await new Promise((resolve) => setTimeout(resolve, delay * 1000));
    const answer = await ctx.elicit(`Question for tag ${tag}`, ask.text());
    return `${tag}: ${answer.action === 'accept' ? answer.value : answer.action}`;
  },
);

if (process.argv[2] === 'http') {
  const listening = await server.listen({ port: 0 });
  process.stdout.write(`${listening.url}\n`);
  const stop = () => void listening.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} else {
  server.stdio();
}
