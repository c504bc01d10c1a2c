import { describe, expect, it } from 'vitest';
import { ask } from '../form/builders.js';
import { checkRequestedSchema } from '../form/check-schema.js';
import { prepareQuestion } from '../form/prepare.js';
import type { QuestionInput, RequestedSchema } from '../form/types.js';
import { CONFIRM_FIELD, lowerForm, MAX_OPTION_BOOLEANS } from './lower.js';
import { builtInProfile } from './match.js';
import { HOST_PROFILES } from './profiles.js';
import type { HostProfile } from './types.js';

const codex = builtInProfile('codex')!;
const goose = builtInProfile('goose')!;
const vscode = builtInProfile('vscode')!;

function schemaOf(question: QuestionInput): RequestedSchema {
  return prepareQuestion(question).schema;
}

function lowered(question: QuestionInput, host: HostProfile) {
  const result = lowerForm(schemaOf(question), host);
  if (!result.ok) throw new Error(result.reasons.map((reason) => reason.text).join('; '));
  return result;
}

describe('lowerForm', () => {
  it('sends a host with nothing to change, or no profile, the author’s own form object', () => {
    const schema = schemaOf(ask.form({ name: ask.text(), boxes: ask.integer() }));
    const known = lowerForm(schema, vscode);
    expect(known.ok && known.schema).toBe(schema);
    const unknown = lowerForm(schema, undefined);
    expect(unknown.ok && unknown.schema).toBe(schema);
    expect(unknown.ok && unknown.raise({ name: 'x', extra: 1 })).toEqual({
      ok: true,
      content: { name: 'x', extra: 1 },
    });
  });

  it('always sends a form inside the requestedSchema subset', () => {
    const everything = ask.form({
      name: ask.text({ default: 'Ada' }),
      boxes: ask.integer({ min: 1, max: 3, default: 2 }),
      weight: ask.number({ optional: true }),
      wrap: ask.boolean({ optional: true }),
      speed: ask.choice({ std: 'Standard', exp: 'Express' }),
      tags: ask.many({ a: 'A', b: 'B' }, { default: ['a'] }),
      when: ask.date(),
    });
    for (const host of HOST_PROFILES) {
      const result = lowerForm(schemaOf(everything), host);
      if (result.ok) expect(checkRequestedSchema(result.schema), host.id).toEqual([]);
    }
    expect(checkRequestedSchema(lowered(ask.form({}), codex).schema)).toEqual([]);
  });

  it('Codex: a number becomes text with its range, its default as text, read back as a number', () => {
    const result = lowered(
      ask.form({ boxes: ask.integer({ title: 'Boxes', min: 1, max: 3, default: 2 }) }),
      codex,
    );
    expect(result.schema.properties.boxes).toEqual({
      type: 'string',
      title: 'Boxes',
      description: 'Enter a whole number from 1 to 3.',
      default: '2',
    });
    expect(result.raise({ boxes: ' 3 ' })).toEqual({ ok: true, content: { boxes: 3 } });
    expect(result.raise({ boxes: '1e0' })).toEqual({ ok: true, content: { boxes: 1 } });
    // Not a number: passed on as typed, for the author's check to refuse with its reason.
    expect(result.raise({ boxes: 'two' })).toEqual({ ok: true, content: { boxes: 'two' } });
    // Left empty: the default Codex never showed (it ignores text defaults) is filled on the server.
    expect(result.raise({ boxes: '' })).toEqual({ ok: true, content: { boxes: 2 } });
    expect(result.changes.map((change) => [change.rule, change.sources])).toEqual([
      ['number-as-text', ['X3', 'C7']],
    ]);
  });

  it('a multi-select becomes yes/no fields, and more options than that go nowhere in-band', () => {
    const result = lowered(ask.many({ a: 'Alpha', b: 'Beta' }, { title: 'Tags', default: ['b'] }), codex);
    expect(result.schema.properties).toEqual({
      'value.a': {
        type: 'boolean',
        title: 'Alpha',
        description: 'One of the options of "Tags".',
        default: false,
      },
      'value.b': {
        type: 'boolean',
        title: 'Beta',
        description: 'One of the options of "Tags".',
        default: true,
      },
    });
    expect(result.raise({ 'value.a': true, 'value.b': false })).toEqual({
      ok: true,
      content: { value: ['a'] },
    });
    expect(result.raise({ 'value.a': false, 'value.b': false })).toEqual({
      ok: true,
      content: { value: [] },
    });
    const many = Object.fromEntries(
      Array.from({ length: MAX_OPTION_BOOLEANS + 1 }, (_, index) => [`o${index}`, `Option ${index}`]),
    );
    const refused = lowerForm(schemaOf(ask.many(many)), goose);
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.reasons[0]?.rule).toBe('many-unshowable');
  });

  it('refuses yes/no fields whose names clash with the form’s own', () => {
    const clash = {
      type: 'object',
      properties: { t: { type: 'array', items: { type: 'string', enum: ['x'] } }, 't.x': { type: 'string' } },
    };
    expect(lowerForm(clash as RequestedSchema, codex).ok).toBe(false);
  });

  it('Goose: a titled choice becomes a plain list of its values; an untitled one is left as it is', () => {
    const titled = lowered(ask.choice({ std: 'Standard', exp: 'Express' }, { default: 'std' }), goose);
    expect(titled.schema.properties.value).toEqual({ type: 'string', enum: ['std', 'exp'], default: 'std' });
    const plain = lowerForm(schemaOf(ask.choice(['red', 'green'])), goose);
    expect(plain.ok && plain.changes).toEqual([]);
  });

  it('Goose: "" and invented numbers in optional fields are read as empty; required ones stay', () => {
    const result = lowered(
      ask.form({
        name: ask.text(),
        note: ask.text({ optional: true }),
        floor: ask.integer({ min: 1, optional: true }),
        wrap: ask.boolean({ optional: true }),
      }),
      goose,
    );
    expect(result.schema.properties.floor).toMatchObject({ type: 'string' });
    expect(result.raise({ name: '', note: '', floor: '', wrap: false })).toEqual({
      ok: true,
      content: { name: '', wrap: false },
    });
  });

  it('a host that pre-fills leaves a cleared optional field empty; one that does not fills it', () => {
    const form = ask.form({
      note: ask.text({ default: 'hi', optional: true }),
      n: ask.integer({ default: 0 }),
    });
    expect(lowered(form, builtInProfile('claude-code')!).raise({})).toEqual({ ok: true, content: { n: 0 } });
    expect(lowered(form, vscode).raise({})).toEqual({ ok: true, content: { note: 'hi', n: 0 } });
    // VS Code's null for a number left at "None" is an empty field.
    expect(lowered(form, vscode).raise({ n: null })).toEqual({ ok: true, content: { note: 'hi', n: 0 } });
  });

  it('on 2025-06-18 the form is adapted too, and a default that revision dropped is filled on the server', () => {
    const form = ask.form({
      speed: ask.choice({ std: 'Standard', exp: 'Express' }, { default: 'std', optional: true }),
    });
    const modern = lowerForm(schemaOf(form), codex);
    const older = lowerForm(schemaOf(form), codex, { protocolVersion: '2025-06-18' });
    expect(older.ok && older.schema.properties.speed).toEqual({
      type: 'string',
      enum: ['std', 'exp'],
      enumNames: ['Standard', 'Express'],
    });
    // Codex pre-selects a choice's default: left empty where it was sent, it was cleared.
    expect(modern.ok && modern.raise({})).toEqual({ ok: true, content: {} });
    expect(older.ok && older.raise({})).toEqual({ ok: true, content: { speed: 'std' } });
    const tags = lowerForm(schemaOf(ask.many({ a: 'A' })), vscode, { protocolVersion: '2025-06-18' });
    expect(!tags.ok && tags.reasons[0]?.rule).toBe('revision');
  });

  it('Codex: an empty form is one required "confirm", and only "confirm" confirms', () => {
    const result = lowered(ask.form({}), codex);
    expect(result.schema.required).toEqual([CONFIRM_FIELD]);
    expect(result.raise({ confirm: 'confirm' })).toEqual({ ok: true, content: {} });
    expect(result.raise({})).toEqual({
      ok: false,
      errors: [{ field: '', message: 'Choose "confirm" to go on, or decline' }],
    });
    const vscodeEmpty = lowerForm(schemaOf(ask.form({})), vscode);
    expect(vscodeEmpty.ok && vscodeEmpty.changes).toEqual([]);
  });

  it('Codex: a root with more than type, properties and required is cut down to them', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {},
    };
    const result = lowerForm({ ...schema, properties: { a: { type: 'string' } } } as RequestedSchema, codex);
    expect(result.ok && result.schema).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
  });

  it('a host whose forms are distrusted is shown none', () => {
    const distrusted: HostProfile = {
      ...vscode,
      forms: { value: 'distrusted', sources: ['x'], seenOn: 'test' },
    };
    const result = lowerForm(schemaOf(ask.text()), distrusted);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reasons[0]?.rule).toBe('forms-distrusted');
  });
});
