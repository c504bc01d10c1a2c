/** Who asks and during which call: the parts of a client's ask context a form shows. */
export interface AskerContext {
  readonly server?: { readonly name: string; readonly version?: string; readonly title?: string };
  readonly call?: { readonly kind: 'tool' | 'prompt' | 'resource'; readonly name: string };
  readonly round?: number;
  readonly position?: { readonly index: number; readonly of: number };
}

/** The dialog's title: which server asks. */
export function askerHeading(context: AskerContext | undefined): string {
  const server = context?.server;
  const name = server?.title || server?.name;
  return name ? `${name} asks` : 'A server asks';
}

const CALL_WORDS = {
  tool: 'During the tool call',
  prompt: 'While getting the prompt',
  resource: 'While reading the resource',
} as const;

/** The line under the title: during which call, which round, which of several questions. */
export function callLine(context: AskerContext | undefined): string {
  const parts: string[] = [];
  const call = context?.call;
  if (call && Object.hasOwn(CALL_WORDS, call.kind)) parts.push(`${CALL_WORDS[call.kind]} “${call.name}”`);
  if (context?.round !== undefined && context.round > 1) parts.push(`round ${context.round}`);
  const position = context?.position;
  if (position && position.of > 1) parts.push(`question ${position.index} of ${position.of}`);
  const line = parts.join(' · ');
  return line.charAt(0).toUpperCase() + line.slice(1);
}
