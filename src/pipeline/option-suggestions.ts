/**
 * "Did you mean": for an option a pipeline file names that its place does not take, the known
 * option it is most likely a typo of (`concurency` → `concurrency`, `mdoe` → `mode`), found
 * among the keys the schema declares at that place.
 */
import type { z } from "zod";

/** The keys an object schema declares at `path` (through optional, default, nullable, arrays and unions). */
export function keysAt(schema: z.ZodType, path: readonly (string | number)[]): string[] {
  let at: z.core.$ZodType[] = [schema as unknown as z.core.$ZodType];
  for (const step of path) at = typeof step === "number" ? at.flatMap(elements) : at.flatMap(objects).flatMap((s) => valueAt(s, step));
  return [...new Set(at.flatMap((s) => objects(s)).flatMap((s) => Object.keys(shapeOf(s))))];
}

/**
 * The known key `key` is most likely a typo of: the nearest by edit distance (a swap of two
 * neighbouring letters counts one), at most 1 edit for keys of up to 4 letters and 2 beyond;
 * undefined when none is that near, or two are equally near.
 */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  const limit = key.length <= 4 ? 1 : 2;
  let best: string | undefined;
  let bestDistance = Infinity;
  let tied = false;
  for (const candidate of known) {
    const d = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance, tied] = [candidate, d, false];
    else if (d === bestDistance) tied = true;
  }
  return bestDistance <= limit && !tied ? best : undefined;
}

/** The object schemas a schema stands for once its wrappers are taken off. */
function objects(schema: z.core.$ZodType): z.core.$ZodType[] {
  const def = schema._zod.def as { type: string; innerType?: z.core.$ZodType; options?: z.core.$ZodType[]; in?: z.core.$ZodType };
  switch (def.type) {
    case "object":
      return [schema];
    case "optional":
    case "default":
    case "nullable":
    case "prefault":
    case "readonly":
    case "catch":
      return def.innerType ? objects(def.innerType) : [];
    case "union":
      return (def.options ?? []).flatMap(objects);
    case "pipe":
      return def.in ? objects(def.in) : [];
    default:
      return [];
  }
}

/** The schema of `key`'s value in an object schema. */
function valueAt(object: z.core.$ZodType, key: string): z.core.$ZodType[] {
  const value = shapeOf(object)[key];
  return value ? [value] : [];
}

/** The element schema of an array schema, its wrappers taken off. */
function elements(schema: z.core.$ZodType): z.core.$ZodType[] {
  const def = schema._zod.def as { type: string; innerType?: z.core.$ZodType; element?: z.core.$ZodType };
  if (def.type === "array") return def.element ? [def.element] : [];
  return def.innerType ? elements(def.innerType) : [];
}

/** The shape of an object schema: its keys and their schemas. */
function shapeOf(object: z.core.$ZodType): Record<string, z.core.$ZodType> {
  return (object._zod.def as unknown as { shape: Record<string, z.core.$ZodType> }).shape;
}

/** Damerau–Levenshtein distance (optimal string alignment). */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
