// Checks for the option lists of choices and multi-selects: enum, enumNames, oneOf, items.anyOf.

import { isRecord, own } from './json.js';
import { pointer, problem } from './problems.js';
import type { SchemaProblem } from './types.js';

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

function checkDuplicates(values: unknown[], path: (index: number) => string): SchemaProblem[] {
  const seen = new Set<unknown>();
  const problems: SchemaProblem[] = [];
  values.forEach((value, index) => {
    if (typeof value !== 'string') return;
    if (seen.has(value))
      problems.push(problem(path(index), `duplicate option "${value}"; list each option once`));
    seen.add(value);
  });
  return problems;
}

/** `enum` of a choice or of multi-select items: a non-empty list of distinct strings. */
export function checkEnum(values: unknown, path: string): SchemaProblem[] {
  if (!Array.isArray(values))
    return [problem(path, 'enum must be a list of option strings, like ["a", "b"]')];
  if (values.length === 0) return [problem(path, 'enum is empty; a choice needs at least one option')];
  const problems: SchemaProblem[] = [];
  values.forEach((value, index) => {
    if (typeof value !== 'string') {
      problems.push(
        problem(pointer(path, index), 'options must be strings; write numbers and booleans as text'),
      );
    }
  });
  return [...problems, ...checkDuplicates(values, (index) => pointer(path, index))];
}

/** `enumNames` of a legacy titled choice: one label string per enum value. */
export function checkEnumNames(names: unknown, values: unknown, path: string): SchemaProblem[] {
  if (!Array.isArray(names))
    return [problem(path, 'enumNames must be a list of label strings, one per enum value')];
  const problems: SchemaProblem[] = [];
  names.forEach((name, index) => {
    if (typeof name !== 'string') problems.push(problem(pointer(path, index), 'each label must be a string'));
  });
  if (Array.isArray(values) && names.length !== values.length) {
    problems.push(
      problem(
        path,
        `enumNames has ${plural(names.length, 'label')} for ${plural(values.length, 'enum value')}; ` +
          'give exactly one label per value',
      ),
    );
  }
  return problems;
}

/** `oneOf` of a titled choice or `anyOf` of titled multi-select items: `[{ const, title }, ...]`. */
export function checkTitledOptions(list: unknown, path: string, keyword: 'oneOf' | 'anyOf'): SchemaProblem[] {
  if (!Array.isArray(list)) {
    return [problem(path, `${keyword} must be a list of options like [{ "const": "low", "title": "Low" }]`)];
  }
  if (list.length === 0) return [problem(path, `${keyword} is empty; a choice needs at least one option`)];
  const problems: SchemaProblem[] = [];
  list.forEach((entry, index) => {
    const entryPath = pointer(path, index);
    if (!isRecord(entry)) {
      problems.push(problem(entryPath, 'each option must be an object { "const": value, "title": label }'));
      return;
    }
    if (typeof own(entry, 'const') !== 'string') {
      problems.push(
        problem(pointer(entryPath, 'const'), 'each option needs a string const (the value sent)'),
      );
    }
    if (typeof own(entry, 'title') !== 'string') {
      problems.push(
        problem(
          pointer(entryPath, 'title'),
          'each option needs a string title (the label shown); for options without labels use enum',
        ),
      );
    }
    for (const key of Object.keys(entry)) {
      if (key !== 'const' && key !== 'title') {
        problems.push(
          problem(pointer(entryPath, key), `options carry only const and title; remove "${key}"`),
        );
      }
    }
  });
  const values = list.map((entry) => (isRecord(entry) ? own(entry, 'const') : undefined));
  return [...problems, ...checkDuplicates(values, (index) => pointer(path, index, 'const'))];
}
