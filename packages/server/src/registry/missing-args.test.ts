import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4';
import { createServer } from '../create-server.js';
import { type ArgumentsSource, missingSettings, planMissing } from './missing-args.js';
import { checkArgs, toJsonSchema } from './schema.js';

function source(input: z.ZodObject): ArgumentsSource {
  return { tool: 'book', label: 'Book', input, json: toJsonSchema(input, 'input') };
}

describe('askMissing, as registered', () => {
  it('refuses, when the tool is registered, a field a form cannot ask or that is not an argument', () => {
    const book = source(
      z.object({ address: z.object({ street: z.string() }).optional(), n: z.int().optional() }),
    );
    expect(() => missingSettings(book, { fields: ['address'] })).toThrow(
      /^Tool book asks for arguments a form cannot ask: 'address' \(/,
    );
    expect(() => missingSettings(book, { fields: ['nope' as never] })).toThrow(
      /'nope' \(the input schema has no such property\)/,
    );
    expect(() => missingSettings(book, { given: 'maybe' as never })).toThrow(/'default' or 'skip'/);
  });

  it('refuses a secret it would ask in a form, required or chosen, naming ask.secret()', () => {
    const link = source(z.object({ api_key: z.string(), account: z.string().optional() }));
    expect(() => missingSettings(link, true)).toThrow(
      /^Tool book would ask for 'api_key' \(.*\) in a form.*ctx\.elicit\(message, ask\.secret\(\)\)/,
    );
    const chosen = source(z.object({ password: z.string().optional() }));
    expect(() => missingSettings(chosen, { fields: ['password'] })).toThrow(/would ask for 'password'/);
  });

  it('needs an input schema to ask from', () => {
    const server = createServer({ name: 's', version: '1.0.0' });
    expect(() => server.tool('bare', { askMissing: true }, () => 'ok')).toThrow(
      'Tool bare has askMissing but no input schema to ask from; add input: z.object({...}).',
    );
  });
});

describe('planMissing', () => {
  const strict = source(z.strictObject({ n: z.int().min(1).max(3) }));
  const plan = async (args: unknown) =>
    planMissing(strict, args, await checkArgs(strict.input, args), missingSettings(strict, true));

  it('asks nothing of complete arguments', async () => {
    expect(await plan({ n: 2 })).toEqual({ kind: 'complete', value: { n: 2 } });
  });

  it('refuses what no form can mend: an unknown key of a strict object, arguments that are not an object', async () => {
    expect(await plan({ n: 2, extra: 1 })).toEqual({
      kind: 'refuse',
      message: expect.stringMatching(/^Invalid arguments for tool book: Unrecognized key/),
    });
    expect(await plan([1])).toMatchObject({ kind: 'refuse' });
  });

  it('asks for a missing or invalid argument, naming what was wrong with the one given', async () => {
    expect(await plan({})).toMatchObject({
      kind: 'ask',
      asked: ['n'],
      message: 'Book needs n. Fill in what is missing.',
      unanswerable: expect.stringMatching(/^Invalid arguments for tool book: n: /),
    });
    expect(await plan({ n: 7 })).toMatchObject({
      kind: 'ask',
      asked: ['n'],
      message: expect.stringMatching(/^The n given could not be used \(Too big: .*\)\. Enter it again\.$/),
      kept: {},
    });
  });
});
