/**
 * The server the official conformance suite tests: every tool, prompt and resource its server
 * scenarios call, written with Parley's public API only.
 *
 *   npm run -s conformance:server -- <port>    # serves http://127.0.0.1:<port>/mcp
 */
import { ask, createServer, ElicitationUnavailable, input } from '@parley/server';
import * as z from 'zod/v4';
import { addContentFixtures } from './content-fixtures.js';
import { EVERY_ENUM_KIND } from './every-enum-kind.js';
import { addNotificationFixtures } from './notification-fixtures.js';
import { addPromptFixtures } from './prompt-fixtures.js';
import { addResourceFixtures } from './resource-fixtures.js';
import { addTaskFixtures } from './task-fixtures.js';

export function conformanceServer() {
  const server = createServer({ name: 'parley-conformance', version: '0.1.0' });

  server.tool(
    'test_simple_text',
    { description: 'Returns simple text' },
    () => 'This is a simple text response for testing.',
  );

  server.tool(
    'test_elicitation',
    { description: 'Asks for a username and an email', input: z.object({ message: z.string() }) },
    async ({ message }, ctx) => {
      const answer = await ctx.elicit(
        message,
        ask.form({
          username: ask.text({ description: 'Your username' }),
          email: ask.text({ description: 'Your email' }),
        }),
        // The suite chooses the message ("Please provide your information"), not this server.
        { allowVagueMessage: true },
      );
      const content = answer.action === 'accept' ? JSON.stringify(answer.value) : '{}';
      return `User response: <action: ${answer.action}, content: ${content}>`;
    },
  );

  server.tool(
    'test_elicitation_sep1034_defaults',
    { description: 'Asks with a default on every field' },
    async (_args, ctx) => {
      const answer = await ctx.elicit(
        'Please confirm your details',
        ask.form({
          name: ask.text({ default: 'John Doe' }),
          age: ask.integer({ default: 30 }),
          score: ask.number({ default: 95.5 }),
          status: ask.choice(['active', 'inactive', 'pending'], { default: 'active' }),
          verified: ask.boolean({ default: true }),
        }),
      );
      return `Elicitation completed: action=${answer.action}, content=${answer.action === 'accept' ? JSON.stringify(answer.value) : '{}'}`;
    },
  );

  server.tool(
    'test_elicitation_sep1330_enums',
    { description: 'Asks every kind of enum' },
    async (_args, ctx) => {
      const answer = await ctx.elicit('Please choose', EVERY_ENUM_KIND);
      return `Elicitation completed: action=${answer.action}, content=${answer.action === 'accept' ? JSON.stringify(answer.value) : '{}'}`;
    },
  );

  const nameForm = ask.form({ name: ask.text() });

  server.tool(
    'test_input_required_result_elicitation',
    { description: 'Asks for your name' },
    async (_args, ctx) => {
      const answer = await ctx.elicit('What is your name?', nameForm, { key: 'user_name' });
      return answer.action === 'accept'
        ? `Hello, ${answer.value.name}!`
        : `No name given (${answer.action}).`;
    },
  );

  server.tool(
    'test_input_required_result_sampling',
    { description: 'Asks the client model a question' },
    async (_args, ctx) => {
      const result = await ctx.sample(
        {
          messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
          maxTokens: 100,
        },
        { key: 'capital_question' },
      );
      const text = result.content.type === 'text' ? result.content.text : '(no text)';
      return `The model said: ${text}`;
    },
  );

  server.tool(
    'test_input_required_result_list_roots',
    { description: 'Asks for the client roots' },
    async (_args, ctx) => {
      const roots = await ctx.roots({ key: 'client_roots' });
      return `Roots: ${roots.map((root) => root.uri).join(', ')}`;
    },
  );

  server.tool(
    'test_input_required_result_request_state',
    { description: 'Carries state across rounds' },
    async (_args, ctx) => {
      const answer = await ctx.elicit('Confirm?', ask.form({ ok: ask.boolean() }), { key: 'confirm' });
      return answer.action === 'accept' ? `state-ok (ok=${answer.value.ok})` : 'Not confirmed.';
    },
  );

  server.tool(
    'test_input_required_result_multiple_inputs',
    { description: 'Asks three kinds of input at once' },
    async (_args, ctx) => {
      const answers = await ctx.elicitAll({
        user_name: input.elicit('What is your name?', nameForm),
        greeting: input.sampling({
          messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }],
          maxTokens: 50,
        }),
        client_roots: input.roots(),
      });
      const name = answers.user_name.action === 'accept' ? answers.user_name.value.name : '(none)';
      const greeting = answers.greeting.content.type === 'text' ? answers.greeting.content.text : '';
      return `Hello ${name}; model said "${greeting}"; ${answers.client_roots.length} root(s).`;
    },
  );

  server.tool(
    'test_input_required_result_multi_round',
    { description: 'Asks in two rounds' },
    async (_args, ctx) => {
      const name = await ctx.elicit('What is your name?', nameForm, { key: 'step1' });
      if (name.action !== 'accept') return 'Stopped at step 1.';
      const color = await ctx.elicit(
        `Hi ${name.value.name}, favourite color?`,
        ask.form({ color: ask.text() }),
        { key: 'step2' },
      );
      if (color.action !== 'accept') return 'Stopped at step 2.';
      return `${name.value.name} likes ${color.value.color}.`;
    },
  );

  server.tool(
    'test_input_required_result_tampered_state',
    { description: 'Rejects tampered state' },
    async (_args, ctx) => {
      const answer = await ctx.elicit('Confirm?', ask.form({ ok: ask.boolean() }), { key: 'confirm' });
      return `Confirmed: ${answer.action}`;
    },
  );

  server.tool(
    'test_input_required_result_capabilities',
    { description: 'Asks with whatever the client supports' },
    async (_args, ctx) => {
      if (ctx.can('form')) {
        const answer = await ctx.elicit('What is your name?', nameForm, { key: 'user_name' });
        return `Form answer: ${answer.action}`;
      }
      if (ctx.can('sampling')) {
        const result = await ctx.sample(
          { messages: [{ role: 'user', content: { type: 'text', text: 'Pick a name' } }], maxTokens: 20 },
          { key: 'name_sample' },
        );
        return `Sampled: ${result.model}`;
      }
      const roots = await ctx.roots({ key: 'client_roots' });
      return `Roots: ${roots.length}`;
    },
  );

  server.prompt(
    'test_input_required_result_prompt',
    { description: 'Asks for context before answering' },
    async (_args, ctx) => {
      const answer = await ctx.elicit(
        'What context should the prompt use?',
        ask.form({ context: ask.text() }),
        { key: 'user_context' },
      );
      const context = answer.action === 'accept' ? answer.value.context : 'none';
      return {
        messages: [{ role: 'user', content: { type: 'text', text: `Use this context: ${context}` } }],
      };
    },
  );

  server.tool('test_missing_capability', { description: 'Needs sampling' }, async (_args, ctx) => {
    const result = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }],
      maxTokens: 10,
    });
    return `Sampled with ${result.model}`;
  });

  server.tool(
    'test_streaming_elicitation',
    { description: 'Asks a question mid-call' },
    async (_args, ctx) => {
      try {
        const answer = await ctx.elicit('Continue?', ask.form({ ok: ask.boolean() }), { key: 'continue' });
        return `Answer: ${answer.action}`;
      } catch (error) {
        if (error instanceof ElicitationUnavailable)
          return 'This client cannot be asked; continuing without asking.';
        throw error;
      }
    },
  );

  server.tool(
    'test_logging_tool',
    { description: 'Logs (only when the client asked for logs)' },
    async (_args, ctx) => {
      await ctx.log('info', 'test_logging_tool ran');
      return 'Logged.';
    },
  );

  addContentFixtures(server);
  addResourceFixtures(server);
  addPromptFixtures(server);
  addNotificationFixtures(server);
  addTaskFixtures(server);
  return server;
}

const port = Number(process.argv[2] ?? 0);
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const listening = await conformanceServer().listen({ port });
  process.stdout.write(`${listening.url}\n`);
  const stop = () => void listening.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
