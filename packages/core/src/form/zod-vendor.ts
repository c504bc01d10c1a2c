import { isRecord } from './json.js';
import type { ZodObjectLike } from './types.js';

/** Any Standard Schema made by zod (v3 or v4, object or not). */
export function isZodSchema(value: unknown): value is ZodObjectLike {
  if (!isRecord(value) && typeof value !== 'function') return false;
  const standard = (value as { '~standard'?: unknown })['~standard'];
  return isRecord(standard) && standard.vendor === 'zod';
}
