/**
 * One naming style per surface: camelCase inside TypeScript, snake_case on the wire (the JSONL
 * files, `--json` and `--format json` output, the HTTP API, MCP results), so that a Python
 * consumer reads `page_count` wherever it meets a page count.
 */

/** `pageCount` → `page_count`, `toDisplay` → `to_display`; a snake_case name is left as it is. */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * A copy of `value` with every object key in snake_case, at every depth. For records whose keys
 * are all field names; a map keyed by data (file names, user strings) must not go through it.
 */
export function wireKeys<T>(value: T): unknown {
  if (Array.isArray(value)) return value.map(wireKeys);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) out[snakeCase(key)] = wireKeys(field);
  return out;
}

/** `page_count` → `pageCount`: the inverse of {@link snakeCase} on names it made. */
export function camelCase(name: string): string {
  return name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** A copy of `value` with every object key in camelCase, at every depth: what came off the wire, for TypeScript. */
export function fromWireKeys<T>(value: unknown): T {
  if (Array.isArray(value)) return value.map((item) => fromWireKeys(item)) as T;
  if (value === null || typeof value !== "object") return value as T;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) out[camelCase(key)] = fromWireKeys(field);
  return out as T;
}
