// Exercises in the guide. In the markdown (readable as it is on GitHub) an exercise is a
// `<details class="exercise" id="...">` block holding a title, the task, a ```ts starter block, a
// "Hint:" paragraph, an "Expected:" paragraph with the answer as JSON in backticks, and a
// ```ts solution block. On the site this markdown-it plugin turns the block into the task and an
// <Exercise> code box (docs/.vitepress/theme/Exercise.vue) that checks the learner's code.

import type { MarkdownRenderer } from 'vitepress';

type Token = ReturnType<MarkdownRenderer['parse']>[number];

/** What the code box needs: everything but the task, which stays markdown. */
export interface ExerciseData {
  readonly id: string;
  readonly starter: string;
  readonly solution: string;
  /** The value the code's last line must have, as JSON. */
  readonly expected: unknown;
  /** What to say with "Not yet", as HTML (rendered from the hint's markdown). */
  readonly hint: string;
}

const OPEN = /^<details class="exercise" id="([\w-]+)">\s*<summary>([\s\S]*?)<\/summary>\s*$/;

/** Encodes the data for the component's `data` attribute (base64 of UTF-8 JSON: nothing for Vue to read). */
export function encodeExercise(data: ExerciseData): string {
  return Buffer.from(JSON.stringify(data), 'utf8').toString('base64');
}

/** Installs the plugin. An exercise block that lacks a part fails the build, naming the exercise. */
export function exercisePlugin(md: MarkdownRenderer): void {
  md.core.ruler.push('parley_exercises', (state) => {
    const tokens = state.tokens;
    for (let start = 0; start < tokens.length; start++) {
      const open = tokens[start]!.type === 'html_block' ? OPEN.exec(tokens[start]!.content.trim()) : null;
      if (!open) continue;
      const [, id = '', title = ''] = open;
      const end = tokens.findIndex((token, index) => index > start && isClose(token));
      if (end < 0) throw new Error(`exercise ${id}: no </details> closes it`);
      const parts = tokens.slice(start + 1, end);
      const starter = fence(parts, 'starter', id);
      const solution = fence(parts, 'solution', id);
      const hint = paragraph(parts, 'Hint:', id);
      const expectedText = /^`([^`]+)`$/.exec(paragraph(parts, 'Expected:', id).text)?.[1];
      if (expectedText === undefined) throw new Error(`exercise ${id}: write the expected value as \`JSON\``);
      const data: ExerciseData = {
        id,
        starter: starter.content,
        solution: solution.content,
        expected: JSON.parse(expectedText),
        hint: md.renderInline(hint.text),
      };
      const box = new state.Token('html_block', '', 0);
      box.content = `<Exercise data="${encodeExercise(data)}" />\n`;
      tokens[start]!.content =
        `<section class="exercise" id="${id}" aria-labelledby="${id}-title">\n<p class="exercise-title" id="${id}-title">${title}</p>\n`;
      tokens[end]!.content = '</section>\n';
      const drop = new Set([
        starter.index,
        solution.index,
        ...hint.indexes,
        ...paragraph(parts, 'Expected:', id).indexes,
      ]);
      const kept = parts.flatMap((token, index) =>
        index === starter.index ? [box] : drop.has(index) ? [] : [token],
      );
      tokens.splice(start + 1, parts.length, ...kept);
    }
  });
}

function isClose(token: Token): boolean {
  return token.type === 'html_block' && token.content.trim() === '</details>';
}

function fence(parts: Token[], role: string, id: string): { index: number; content: string } {
  const index = parts.findIndex((token) => token.type === 'fence' && token.info.trim() === `ts ${role}`);
  if (index < 0) throw new Error(`exercise ${id}: it needs a \`\`\`ts ${role} block`);
  return { index, content: parts[index]!.content };
}

/** The paragraph that starts with `label`: its text after the label, and its three tokens. */
function paragraph(parts: Token[], label: string, id: string): { text: string; indexes: number[] } {
  const index = parts.findIndex(
    (token, at) =>
      token.type === 'inline' && parts[at - 1]?.type === 'paragraph_open' && token.content.startsWith(label),
  );
  if (index < 0) throw new Error(`exercise ${id}: it needs a paragraph starting "${label}"`);
  return { text: parts[index]!.content.slice(label.length).trim(), indexes: [index - 1, index, index + 1] };
}
