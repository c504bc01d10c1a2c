import { isRecord } from '@parley/core';
import type { RootChoice } from '../protocol.js';

/** The most roots one connection may declare. */
export const MAX_ROOTS = 32;
const MAX_URI = 2048;
const MAX_NAME = 200;

/**
 * Reads the roots the person chose for a connection (`undefined`: none). Each is a `file://` URI,
 * as MCP requires of roots, with an optional name. Returns the roots, or what is wrong with them.
 */
export function readRootChoices(value: unknown): RootChoice[] | string {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return '"roots" must be a list of { "uri": "file:///...", "name"?: "..." }.';
  if (value.length > MAX_ROOTS) return `Declare at most ${MAX_ROOTS} roots.`;
  const roots: RootChoice[] = [];
  for (const [index, entry] of value.entries()) {
    const which = `Root ${index + 1}`;
    if (!isRecord(entry) || typeof entry.uri !== 'string') return `${which} needs a "uri".`;
    const uri = entry.uri.trim();
    if (uri.length > MAX_URI) return `${which}: the URI is longer than ${MAX_URI} characters.`;
    if (!URL.canParse(uri) || new URL(uri).protocol !== 'file:') {
      return `${which}: a root must be a file:// URI, such as file:///home/ada/project.`;
    }
    if (entry.name !== undefined && typeof entry.name !== 'string') return `${which}: the name must be text.`;
    const name = entry.name?.trim() ?? '';
    if (name.length > MAX_NAME) return `${which}: the name is longer than ${MAX_NAME} characters.`;
    roots.push({ uri, ...(name !== '' && { name }) });
  }
  return roots;
}
