import { describe, expect, it } from 'vitest';
import { expandTemplate, templateVariables } from './uri-template.js';

describe('templateVariables', () => {
  it('lists every variable once, in order, without modifiers', () => {
    expect(templateVariables('lab://notes/{id}{?sort,page}{&sort}{/path*}{x:3}')).toEqual([
      'id',
      'sort',
      'page',
      'path',
      'x',
    ]);
    expect(templateVariables('lab://readme')).toEqual([]);
  });
});

describe('expandTemplate (RFC 6570 examples)', () => {
  const values = { var: 'value', hello: 'Hello World!', path: '/foo/bar', empty: '', x: '1024', y: '768' };
  const cases: [string, string][] = [
    ['{var}', 'value'],
    ['{hello}', 'Hello%20World%21'],
    ['{+hello}', 'Hello%20World!'],
    ['{+path}/here', '/foo/bar/here'],
    ['{#path}', '#/foo/bar'],
    ['map?{x,y}', 'map?1024,768'],
    ['{.x,y}', '.1024.768'],
    ['{/var,x}/here', '/value/1024/here'],
    ['{;x,y,empty}', ';x=1024;y=768;empty'],
    ['{?x,y,empty}', '?x=1024&y=768&empty='],
    ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
    ['{?undefined}', ''],
    ['lab://notes/{id}', 'lab://notes/'],
  ];
  it.each(cases)('%s → %s', (template, expected) => {
    expect(expandTemplate(template, values)).toBe(expected);
  });

  it('encodes what a person types in a simple variable', () => {
    expect(expandTemplate('lab://notes/{id}', { id: 'a/b c' })).toBe('lab://notes/a%2Fb%20c');
  });
});
