// Small readers for untrusted JSON-like values. None throws.

/** A plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own property, so `__proto__`, `constructor` and friends are never read from the prototype. */
export function own(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

export function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/** A deep copy of JSON data that is then frozen all the way down. */
export function frozenCopy<T>(value: T): T {
  if (Array.isArray(value)) return Object.freeze(value.map((item) => frozenCopy(item))) as T;
  if (isRecord(value)) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(copy, key, { value: frozenCopy(item), enumerable: true });
    }
    return Object.freeze(copy) as T;
  }
  return value;
}

/** A mutable deep copy of JSON data. */
export function plainCopy<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => plainCopy(item)) as T;
  if (isRecord(value)) {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) setOwn(copy, key, plainCopy(value[key]));
    return copy as T;
  }
  return value;
}

/**
 * Sets an own, enumerable, writable property. Only `__proto__` needs `defineProperty`: assigned,
 * it would set the object's prototype instead (JSON.parse makes it an own key like any other).
 */
export function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}
