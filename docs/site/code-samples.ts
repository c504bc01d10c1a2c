// The code samples of the site's pages, type-checked: every TypeScript and JavaScript block of every
// page made from a repository file (the guide's exercises included), each as a module of its own,
// against the packages' sources, with the compiler options the packages are built with.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { entryPoints, publicExports, SOURCE_COMPILER_OPTIONS } from './public-exports.js';
import { API_FOLDER, sitePages } from './site-map.js';

/** One fenced code block of a page. */
export interface CodeSample {
  /** The markdown file it is in, relative to the repository root. */
  readonly file: string;
  /** The line of its first line of code, 1-based. */
  readonly line: number;
  readonly language: 'ts' | 'js';
  readonly code: string;
  /** Where to fix it, when `file` is generated (an API page): the export whose TSDoc has it. */
  readonly source?: string;
}

const LANGUAGES: Readonly<Record<string, 'ts' | 'js'>> = {
  ts: 'ts',
  typescript: 'ts',
  js: 'js',
  javascript: 'js',
  mjs: 'js',
};

/** Every TypeScript and JavaScript block of every page made from a repository file. */
export function codeSamples(root: string): CodeSample[] {
  return sitePages(root).flatMap(({ source }) =>
    fencedBlocks(source, readFileSync(join(root, source), 'utf8')),
  );
}

function fencedBlocks(file: string, text: string): CodeSample[] {
  const samples: CodeSample[] = [];
  for (const match of text.matchAll(/^(`{3,}|~{3,})(\w*)[^\n]*\n([\s\S]*?)^\1[`~]*[ \t]*$/gm)) {
    const language = LANGUAGES[match[2]!];
    if (!language) continue;
    const line = text.slice(0, match.index).split('\n').length + 1;
    samples.push({ file, line, language, code: match[3]! });
  }
  return samples;
}

/**
 * The examples of the API reference (the TSDoc `@example` of every export, as TypeDoc wrote them to
 * docs/api), each with the names its subpath exports in scope, as TSDoc examples are written.
 */
export function apiExamples(root: string): CodeSample[] {
  const entries = entryPoints(root);
  const exported = publicExports(root, entries);
  return entries.flatMap((entry) => {
    const file = `${API_FOLDER}/${entry.specifier}.md`;
    const page = readFileSync(join(root, file), 'utf8');
    const examples = fencedBlocks(file, page).filter((sample) =>
      /#{3,6} Example\s*$/.test(
        page
          .split('\n')
          .slice(0, sample.line - 2)
          .join('\n')
          .trimEnd(),
      ),
    );
    const names = exported.filter((item) => item.entry === entry).map((item) => item.name);
    return examples.map((sample) => ({
      ...sample,
      code: withImports(sample.code, names, entry.specifier),
      source: `an @example in the TSDoc of ${entry.specifier} ${documented(page, sample.line)}`,
    }));
  });
}

/** The export (and member) whose reference section holds line `line` of an API page, e.g. `ParleyServer.resource()`. */
function documented(page: string, line: number): string {
  let name = '';
  let member = '';
  let section = '';
  for (const text of page.split('\n').slice(0, line)) {
    const heading = /^(#{3,5}) (.+)$/.exec(text);
    if (!heading) continue;
    const [, level, title = ''] = heading;
    if (level === '###') [name, member, section] = [title, '', ''];
    else if (level === '####') section = title;
    else if (/^(Methods|Properties|Accessors|Constructors)$/.test(section)) member = title;
  }
  return `\`${[name, member].filter(Boolean).join('.').replaceAll('\\', '')}\``;
}

/**
 * The example as a module: its own imports, then an import of every name of `specifier` it does not
 * declare itself, then its statements as the body of a function (a TSDoc example is often written
 * from inside a handler, with `return`), all on its first line so its lines keep their numbers.
 */
function withImports(code: string, names: readonly string[], specifier: string): string {
  const source = ts.createSourceFile('example.ts', code, ts.ScriptTarget.ES2023);
  const declared = new Set<string>();
  const imports: string[] = [];
  let body = code;
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.name) declared.add(clause.name.text);
      const bindings = clause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) declared.add(bindings.name.text);
      if (bindings && ts.isNamedImports(bindings))
        for (const element of bindings.elements) declared.add(element.name.text);
      imports.push(statement.getText(source));
      const [from, to] = [statement.getStart(source), statement.getEnd()];
      body = body.slice(0, from) + body.slice(from, to).replace(/[^\n]/g, ' ') + body.slice(to);
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations)
        for (const name of boundNames(declaration.name)) declared.add(name);
    } else if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name) {
      declared.add(statement.name.text);
    }
  }
  const imported = names.filter((name) => !declared.has(name));
  const head = [
    `import { ${imported.join(', ')} } from '${specifier}';`,
    ...imports,
    'export async function example() {',
  ];
  return `${head.join(' ')} ${body}\n}\n`;
}

function boundNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((element) =>
    ts.isOmittedExpression(element) ? [] : boundNames(element.name),
  );
}

/** The file every sample may lean on: what a page built earlier, its usual imports, your app's functions. */
export const PRELUDE = 'docs/site/samples-prelude.d.ts';

/**
 * The compiler's complaints about each sample, as `file:line: message` (an empty list when it
 * checks), and about the prelude itself (a name it declares from a module that moved would otherwise
 * turn into `any` and let every sample that uses it pass). TypeScript is checked strictly, as the packages are; JavaScript as a JavaScript project
 * with `checkJs` is (names, imports, calls, not `strict`).
 */
export function typeCheck(
  root: string,
  samples: readonly CodeSample[],
): { samples: string[][]; prelude: string[] } {
  const problems: string[][] = samples.map(() => []);
  let prelude: string[] = [];
  for (const language of ['ts', 'js'] as const) {
    const picked = samples.flatMap((sample, index) => (sample.language === language ? [index] : []));
    const options: ts.CompilerOptions =
      language === 'ts'
        ? { ...SOURCE_COMPILER_OPTIONS, verbatimModuleSyntax: false }
        : {
            ...SOURCE_COMPILER_OPTIONS,
            verbatimModuleSyntax: false,
            allowJs: true,
            checkJs: true,
            strict: false,
            noUncheckedIndexedAccess: false,
          };
    const found = check(
      root,
      picked.map((index) => samples[index]!),
      options,
    );
    picked.forEach((index, at) => {
      problems[index] = found.samples[at]!;
    });
    if (language === 'ts') prelude = found.prelude;
  }
  return { samples: problems, prelude };
}

function check(
  root: string,
  samples: readonly CodeSample[],
  options: ts.CompilerOptions,
): { samples: string[][]; prelude: string[] } {
  // Each sample is a module that exists only here, beside its page, so that its relative imports and
  // its packages resolve as they would for a reader of that page.
  const virtual = new Map(
    samples.map((sample, index) => [
      join(root, dirname(sample.file), `.sample-${index}.${sample.language === 'ts' ? 'mts' : 'mjs'}`),
      sample.code,
    ]),
  );
  // skipLibCheck off, so the prelude (a .d.ts) is checked too; only the files asked about are checked.
  const host = ts.createCompilerHost({ ...options, skipLibCheck: false });
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (file) => virtual.has(file) || fileExists.call(host, file);
  host.readFile = (file) => virtual.get(file) ?? readFile.call(host, file);
  host.getSourceFile = (file, language, ...rest) => {
    const code = virtual.get(file);
    return code === undefined
      ? getSourceFile.call(host, file, language, ...rest)
      : ts.createSourceFile(file, code, language, true);
  };
  const program = ts.createProgram(
    [join(root, PRELUDE), ...virtual.keys()],
    { ...options, skipLibCheck: false },
    host,
  );
  const preludeFile = program.getSourceFile(join(root, PRELUDE))!;
  const prelude = ts
    .getPreEmitDiagnostics(program, preludeFile)
    .map((diagnostic) => `${PRELUDE}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`);
  const found = [...virtual.keys()].map((file, index) => {
    const sample = samples[index]!;
    const sourceFile = program.getSourceFile(file)!;
    return [
      ...program.getSyntacticDiagnostics(sourceFile),
      ...program.getSemanticDiagnostics(sourceFile),
    ].map((diagnostic) => {
      const line = sourceFile.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line;
      const where = `${sample.file}:${sample.line + line}${sample.source ? ` (${sample.source})` : ''}`;
      return `${where}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    });
  });
  return { samples: found, prelude };
}
