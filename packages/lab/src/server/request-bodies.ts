import { isRecord } from '@parley/core';
import type { AddServerBody, CallKind, EraChoice, StartCallBody } from '../protocol.js';
import { readRootChoices } from './root-choices.js';

const ERAS: readonly EraChoice[] = ['auto', 'modern', 'handshake'];
const KINDS: readonly CallKind[] = ['tool', 'prompt', 'resource'];
const MAX_TARGET = 4096;

/**
 * Reads `{ target, era?, roots? }`: a command line or an http(s) URL, the era to use, and the
 * roots to declare (`file://` URIs with optional names).
 */
export function readAddServer(body: unknown): AddServerBody | string {
  if (!isRecord(body)) return 'Send { "target": "<command line or URL>", "era": "auto" }.';
  const target = typeof body.target === 'string' ? body.target.trim() : '';
  if (target === '')
    return 'Give a target: a command line such as "node server.js", or a URL such as http://127.0.0.1:3000/mcp.';
  if (target.length > MAX_TARGET) return `The target is longer than ${MAX_TARGET} characters.`;
  const era = body.era ?? 'auto';
  if (typeof era !== 'string' || !ERAS.includes(era as EraChoice)) {
    return `"era" must be one of ${ERAS.join(', ')}.`;
  }
  const roots = readRootChoices(body.roots);
  if (typeof roots === 'string') return roots;
  return { target, era: era as EraChoice, ...(roots.length > 0 && { roots }) };
}

/** Reads `{ serverId, kind, name, arguments? }`. Prompt arguments must all be text. */
export function readStartCall(body: unknown): StartCallBody | string {
  if (!isRecord(body)) return 'Send { "serverId", "kind", "name", "arguments" }.';
  const { serverId, kind, name } = body;
  const args = body.arguments ?? {};
  if (typeof serverId !== 'string' || serverId === '') return '"serverId" must name a connected server.';
  if (typeof kind !== 'string' || !KINDS.includes(kind as CallKind)) {
    return `"kind" must be one of ${KINDS.join(', ')}.`;
  }
  if (typeof name !== 'string' || name === '')
    return '"name" must be the tool or prompt name, or the resource URI.';
  if (!isRecord(args)) return '"arguments" must be an object.';
  if (kind === 'prompt' && !Object.values(args).every((value) => typeof value === 'string')) {
    return 'Prompt arguments are text; send every value as a string.';
  }
  return { serverId, kind: kind as CallKind, name, arguments: args };
}
