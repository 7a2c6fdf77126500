/**
 * The built-in components by name, imported only when a pipeline names them, so that
 * `pagestream --help` and `validate` never load pdf.js. A `type` that is a path (`./my-stage.js`)
 * loads a user's module through the same contract: its default export must be a declaration
 * made with defineSource / defineStage / defineSink.
 */
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { AnySpec, ComponentKind, SinkSpec, SourceSpec, StageSpec } from "../core/plugin.js";
import { importAtRunTime } from "../runtime-import.js";

type Loader<T> = () => Promise<{ default: T }>;

/** Sorted by name within each kind. */
export const BUILTINS = {
  source: {
    folder: () => import("../sources/folder.js"),
    s3: () => import("../sources/s3/source.js"),
  } satisfies Record<string, Loader<SourceSpec>>,
  stage: {
    chunk: () => import("../stages/chunk/stage.js"),
    dehyphenate: () => import("../stages/dehyphenate/stage.js"),
    extract: () => import("../stages/extract/stage.js"),
    "flag-scans": () => import("../stages/flag-scans/stage.js"),
    ocr: () => import("../stages/ocr/stage.js"),
    "strip-furniture": () => import("../stages/strip-furniture/stage.js"),
  } satisfies Record<string, Loader<StageSpec>>,
  sink: {
    jsonl: () => import("../sinks/jsonl.js"),
    sqlite: () => import("../sinks/sqlite/sink.js"),
  } satisfies Record<string, Loader<SinkSpec>>,
} as const;

export type SpecOf<K extends ComponentKind> = Extract<AnySpec, { kind: K }>;

/** True when `type` names a module file rather than a built-in. */
export function isModulePath(type: string): boolean {
  return type.startsWith("./") || type.startsWith("../") || isAbsolute(type);
}

export function builtinTypes(kind: ComponentKind): string[] {
  return Object.keys(BUILTINS[kind]).sort();
}

/** Loads the declaration for `type`, or explains why it cannot. */
export async function loadSpec<K extends ComponentKind>(kind: K, type: string, baseDir: string): Promise<SpecOf<K>> {
  let spec: unknown;
  if (isModulePath(type)) {
    const url = pathToFileURL(resolve(baseDir, type)).href;
    let mod: { default?: unknown };
    try {
      mod = await importAtRunTime(url);
    } catch (err) {
      throw new Error(`cannot load ${kind} module ${type}: ${(err as Error).message}`);
    }
    spec = mod.default;
  } else {
    const loaders = BUILTINS[kind] as Record<string, Loader<AnySpec>>;
    const loader = Object.hasOwn(loaders, type) ? loaders[type] : undefined;
    if (!loader) throw new Error(`unknown ${kind} type "${type}"; built-in ${kind}s: ${builtinTypes(kind).join(", ")}`);
    spec = (await loader()).default;
  }
  if (!spec || typeof spec !== "object" || (spec as AnySpec).kind !== kind) {
    throw new Error(`${type} does not export a ${kind} (export default define${kind[0]!.toUpperCase()}${kind.slice(1)}({ … }))`);
  }
  return spec as SpecOf<K>;
}
