/**
 * pipeline.yaml: parsed with positions kept, validated against the components' own schemas,
 * every problem reported at once as `pipeline.yaml:LINE:COL path: message`.
 *
 * Validation is pure: it expands `${VAR}` references (see env-references.ts), loads component
 * declarations (never pdf.js) and checks options. The environment (folders, files, buckets,
 * credentials) is touched only later, by `create`.
 */
import { readFile } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from "yaml";
import { z } from "zod";
import { expandEnvReferences } from "./env-references.js";
import type { ComponentKind, PipelineFacts, Settled } from "../core/plugin.js";
import { DEFAULT_LIMITS, WORKER_BYTES_PER_FILE_BYTE } from "./limits.js";
import { outputCollisions, outputPlaces } from "./output-collisions.js";
import { queueSetting } from "./queue-options.js";
import { closestKey, keysAt } from "./option-suggestions.js";
import { loadSpec, type SpecOf } from "./registry.js";
import { yamlSyntaxIssues } from "./yaml-syntax-errors.js";


/** The pipeline file's own keys. Components are checked against their declarations afterwards. */
export const pipelineShape = z.strictObject({
  concurrency: z
    .int()
    .min(1)
    .max(256)
    .optional()
    .describe(
      "Documents extracted at once, each in a worker process of its own. Default: one per CPU core. Memory grows with it: each worker holds a document (up to max_worker_memory_mb).",
    ),
  timeout_seconds: z
    .number()
    .positive()
    .default(DEFAULT_LIMITS.timeout_seconds)
    .describe("Longest a document may take in its worker, for each 1,000 pages it has read (a document of up to 1,000 pages: in all); past it the worker is stopped and the document fails with `timeout`."),
  max_worker_memory_mb: z
    .int()
    .min(64)
    .default(DEFAULT_LIMITS.max_worker_memory_mb)
    .describe(
      "Most resident memory (MiB) a worker may use on one document, native buffers included; past it the worker is stopped and the document fails with `resource_limit` (a decompression bomb).",
    ),
  max_pages: z
    .int()
    .min(1)
    .default(DEFAULT_LIMITS.max_pages)
    .describe("Most pages a document may have to read; a longer one fails with `too_large` before its pages are read. The stages take a long document 1,000 pages at a time, so the worker's memory barely grows with its length, but the run holds a document's text and chunks until it is delivered whole (about 35 KB a page): 20,000 pages peaked at 776 MiB in the worker and 656 MiB in the run."),
  max_file_bytes: z
    .int()
    .min(1)
    .default(DEFAULT_LIMITS.max_file_bytes)
    .describe(
      "Largest file (bytes) to read; a larger one fails with `too_large` without being read or downloaded. A worker needs about 3 × a file's size to parse it (its bytes, pdf.js's copy, the parse: 2.4× to 3.2× measured on 250 MiB files), so this must stay at or below max_worker_memory_mb ÷ 3: the default 256 MiB fits the default 1024 MiB worker.",
    ),
  shutdown_timeout_seconds: z
    .number()
    .min(0)
    .default(30)
    .describe("On SIGINT or SIGTERM, how long documents in flight may take to finish before they are abandoned (they are done again on the next run)."),
  run_folder: z
    .string()
    .min(1)
    .default("out")
    .describe(
      "Folder (relative to the pipeline file) for the run state (run-state.sqlite: what is done, so the next run skips it), the run summary (run-summary.json) and the failed documents (failed.jsonl).",
    ),
  queue: queueSetting.optional(),
  source: z.looseObject({ type: z.string().min(1) }).describe("Where the documents come from."),
  stages: z
    .array(z.looseObject({ type: z.string().min(1) }))
    .min(1)
    .describe("What is done to each document, in order. The first stage reads the document (extract)."),
  sinks: z
    .array(z.looseObject({ type: z.string().min(1) }))
    .min(1)
    .describe("Where the results go. Every sink receives every document."),
});


/** The run's limits and settings from the pipeline file (everything but the components). */
export type RunSettings = Omit<z.output<typeof pipelineShape>, "source" | "stages" | "sinks">;

export interface ConfigIssue {
  file: string;
  line: number;
  col: number;
  /** Dotted path into the pipeline, e.g. `stages[1].space_ratio`. */
  path: string;
  message: string;
}

/** `file:line:col path: message`; an issue with the file as a whole (line 0) is `file: message`. */
export function formatIssue(issue: ConfigIssue): string {
  const where = issue.line > 0 ? `${issue.file}:${issue.line}:${issue.col} ` : `${issue.file}: `;
  return `${where}${issue.path ? issue.path + ": " : ""}${issue.message}`;
}

/** A missing pipeline file: most often a first run in a folder that has none yet, so say how to make one. */
function missingPipelineAdvice(path: string): string {
  const folder = dirname(resolve(path));
  return `the file does not exist (in ${folder}): \`pagestream init <folder of PDFs>\` writes a pipeline.yaml for your PDFs here, or give the path of an existing pipeline file`;
}

export interface ComponentConfig<K extends ComponentKind> {
  /** `type` as the pipeline wrote it: a built-in name or a module path (extraction workers load it again). */
  type: string;
  spec: SpecOf<K>;
  options: Record<string, unknown>;
  /** Defaults its `settle` chose from the rest of the pipeline, for `pagestream validate` to say. */
  notes?: string[];
}

export interface PipelineConfig {
  /** Folder relative paths resolve against. */
  baseDir: string;
  settings: RunSettings;
  source: ComponentConfig<"source">;
  stages: ComponentConfig<"stage">[];
  sinks: ComponentConfig<"sink">[];
}

export type ConfigResult = { ok: true; config: PipelineConfig } | { ok: false; issues: ConfigIssue[] };

export async function loadPipelineFile(path: string): Promise<ConfigResult> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === "ENOENT" ? missingPipelineAdvice(path) : (err as Error).message;
    return { ok: false, issues: [{ file: path, line: 0, col: 0, path: "", message: reason }] };
  }
  return parsePipeline(text, { file: basename(path), baseDir: dirname(resolve(path)) });
}

export async function parsePipeline(text: string, where: { file: string; baseDir: string; env?: NodeJS.ProcessEnv }): Promise<ConfigResult> {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const issues: ConfigIssue[] = [];
  const at = (offset: number, path: string, message: string) => {
    const { line, col } = lineCounter.linePos(offset);
    issues.push({ file: where.file, line, col, path, message });
  };
  for (const e of yamlSyntaxIssues(doc.errors, text, lineCounter)) issues.push({ file: where.file, line: e.line, col: e.col, path: "", message: e.message });
  if (issues.length) return { ok: false, issues };
  expandEnvReferences(doc, where.env ?? process.env, (offset, path, message) => at(offset, pathText(path), message));
  if (issues.length) return { ok: false, issues };

  const raw = doc.toJS() ?? {};
  const top = pipelineShape.safeParse(raw);
  if (!top.success) reportZodIssues(top.error.issues, [], doc, at, pipelineShape);
  // The components are checked even when the top level is wrong: one bad key must not hide the
  // problems of every stage and sink (each is checked wherever it is shaped like a component).
  const given = (top.success ? top.data : raw) as Record<string, unknown>;
  const sourceConfig = asComponent(given.source);
  const stageConfigs = Array.isArray(given.stages) ? given.stages.map(asComponent) : [];
  const sinkConfigs = Array.isArray(given.sinks) ? given.sinks.map(asComponent) : [];
  let settings: RunSettings | undefined;
  if (top.success) {
    const { source: _source, stages: _stages, sinks: _sinks, ...rest } = top.data;
    settings = rest;
  }
  // The two limits must agree: a file the size cap admits must fit the worker it is parsed in.
  const fitsBytes = settings ? Math.floor((settings.max_worker_memory_mb * 1024 * 1024) / WORKER_BYTES_PER_FILE_BYTE) : Infinity;
  if (settings && settings.max_file_bytes > fitsBytes) {
    const where = doc.hasIn(["max_file_bytes"]) ? ["max_file_bytes"] : ["max_worker_memory_mb"];
    at(
      offsetOf(doc, where),
      where[0]!,
      `max_file_bytes (${settings.max_file_bytes}) admits files that cannot fit max_worker_memory_mb (${settings.max_worker_memory_mb} MiB): a worker needs about ${WORKER_BYTES_PER_FILE_BYTE} × a file's size, so files up to ${fitsBytes} bytes fit; lower max_file_bytes or raise max_worker_memory_mb`,
    );
  }

  const component = async <K extends ComponentKind>(kind: K, value: Record<string, unknown>, path: (string | number)[]) => {
    const { type, ...rest } = value as { type: string } & Record<string, unknown>;
    let spec: SpecOf<K>;
    try {
      spec = await loadSpec(kind, type, where.baseDir);
    } catch (err) {
      at(offsetOf(doc, [...path, "type"]), pathText([...path, "type"]), (err as Error).message);
      return undefined;
    }
    // What an older pagestream took here is named with its hint, not as unknown or invalid.
    const retiredKeys = new Set<string>();
    for (const [key, value] of Object.entries(rest)) {
      const optionHint = spec.retired?.options?.[key];
      const valueHint = typeof value === "string" ? spec.retired?.values?.[key]?.[value] : undefined;
      if (optionHint) at(keyOffset(doc, path, key), pathText([...path, key]), optionHint);
      else if (valueHint) at(offsetOf(doc, [...path, key]), pathText([...path, key]), valueHint);
      else continue;
      retiredKeys.add(key);
    }
    const parsed = spec.options.safeParse(rest);
    if (!parsed.success || retiredKeys.size) {
      const zodIssues = parsed.success ? [] : parsed.error.issues;
      const notRetired = (issue: z.core.$ZodIssue) => !(issue.path.length && retiredKeys.has(String(issue.path[0]))) && !(issue.code === "unrecognized_keys" && issue.keys.every((k) => retiredKeys.has(k)));
      reportZodIssues(zodIssues.filter(notRetired), path, doc, at, spec.options);
      return { spec };
    }
    return { type, spec, options: parsed.data as Record<string, unknown> };
  };
  type Checked<K extends ComponentKind> = ComponentConfig<K> | { spec: SpecOf<K>; options?: undefined } | undefined;
  const valid = <K extends ComponentKind>(c: Checked<K>): c is ComponentConfig<K> => c?.options !== undefined;

  const source: Checked<"source"> = sourceConfig ? await component("source", sourceConfig, ["source"]) : undefined;
  const stages: Checked<"stage">[] = await Promise.all(stageConfigs.map((s, i) => (s ? component("stage", s, ["stages", i]) : undefined)));
  const sinks: Checked<"sink">[] = await Promise.all(sinkConfigs.map((s, i) => (s ? component("sink", s, ["sinks", i]) : undefined)));

  stages.forEach((stage, i) => {
    if (!stage) return;
    if (i === 0 && stage.spec.input !== "document") {
      at(offsetOf(doc, ["stages", 0, "type"]), "stages[0].type", `the first stage must read the documents (extract), not "${stage.spec.type}"`);
    } else if (i > 0 && stage.spec.input === "document") {
      at(offsetOf(doc, ["stages", i, "type"]), `stages[${i}].type`, `"${stage.spec.type}" reads documents and must be the first stage`);
    }
  });

  // Second: options that depend on the rest of the pipeline, for every component whose own
  // options are valid. What the pipeline makes is known from the stages' declarations, even
  // those whose options are wrong.
  const facts: PipelineFacts = { chunks: stages.some((s) => s?.spec.producesChunks === true) };
  const placed: [Checked<ComponentKind>, (string | number)[]][] = [
    [source, ["source"]],
    ...stages.map((s, i): [Checked<ComponentKind>, (string | number)[]] => [s, ["stages", i]]),
    ...sinks.map((s, i): [Checked<ComponentKind>, (string | number)[]] => [s, ["sinks", i]]),
  ];
  for (const [component, path] of placed) {
    if (!valid(component)) continue;
    const settled = (component.spec.settle as ((o: Record<string, unknown>, f: PipelineFacts) => Settled<Record<string, unknown>>) | undefined)?.(component.options, facts);
    if (!settled) continue;
    component.options = settled.options;
    if (settled.notes?.length) component.notes = settled.notes;
    for (const problem of settled.problems ?? []) at(offsetOf(doc, [...path, ...problem.path]), pathText([...path, ...problem.path]), problem.message);
  }
  checkOutputs(
    { baseDir: where.baseDir, pipelineFile: resolve(where.baseDir, where.file), ...(settings ? { runFolder: settings.run_folder } : {}) },
    valid(source) ? source : undefined,
    sinks.map((s) => (valid(s) ? s : undefined)),
    (path) => doc.hasIn(path),
    (path, message) => at(offsetOf(doc, path), pathText(path), message),
  );
  if (issues.length || !settings || !valid(source) || !stages.every(valid) || !sinks.every(valid)) {
    return { ok: false, issues: issues.sort((a, b) => a.line - b.line || a.col - b.col) };
  }
  return {
    ok: true,
    config: {
      baseDir: where.baseDir,
      settings,
      source,
      stages,
      sinks,
    },
  };
}

type Reporter = (offset: number, path: string, message: string) => void;

/** A value shaped like a component (a mapping with a `type`), to be checked against its declaration. */
function asComponent(value: unknown): Record<string, unknown> | undefined {
  const v = value as Record<string, unknown> | null | undefined;
  return v && typeof v === "object" && !Array.isArray(v) && typeof v.type === "string" && v.type !== "" ? v : undefined;
}

/** `schema`: what the issues were found against, for the options a mistyped key may have meant. */
function reportZodIssues(zodIssues: readonly z.core.$ZodIssue[], prefix: (string | number)[], doc: Document, at: Reporter, schema: z.ZodType): void {
  for (const issue of zodIssues) {
    const path = [...prefix, ...(issue.path as (string | number)[])];
    // A value that may take two shapes (`queue: URL` or `queue: { url, … }`): the problems of the
    // shape it has, not "invalid input".
    const branch = issue.code === "invalid_union" ? issue.errors.find((errors) => errors.length && !(errors.length === 1 && errors[0]!.code === "invalid_type" && errors[0]!.path.length === 0)) : undefined;
    if (branch) {
      reportZodIssues(branch, path, doc, at, schema);
      continue;
    }
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        at(keyOffset(doc, path, key), pathText([...path, key]), `unknown option "${key}"${suggestion(key, keysAt(schema, issue.path as (string | number)[]))}`);
      }
      continue;
    }
    at(offsetOf(doc, path), pathText(path), describeIssue(issue, doc.getIn(path)));
  }
}

function describeIssue(issue: z.core.$ZodIssue, value: unknown): string {
  switch (issue.code) {
    case "invalid_type":
      if (value === undefined) return `is required (${issue.expected})`;
      return `expected ${article(issue.expected)}, got ${JSON.stringify(value)}`;
    case "invalid_value":
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}, got ${JSON.stringify(value)}`;
    case "too_small":
      return issue.origin === "array" ? `needs at least ${issue.minimum} item(s)` : `must be ${issue.inclusive ? "at least" : "more than"} ${issue.minimum}, got ${JSON.stringify(value)}`;
    case "too_big":
      return `must be ${issue.inclusive ? "at most" : "less than"} ${issue.maximum}, got ${JSON.stringify(value)}`;
    default:
      return issue.message;
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function suggestion(key: string, known: readonly string[]): string {
  const snake = key.replaceAll("-", "_");
  if (key.includes("-") && known.includes(snake)) return ` (options use snake_case: "${snake}")`;
  const near = closestKey(snake, known.filter((k) => k !== "type"));
  if (near) return `: did you mean "${near}"?`;
  return key.includes("-") ? ` (options use snake_case: "${snake}")` : "";
}

/** Where a path points in the source: the deepest node that exists on it. */
function offsetOf(doc: Document, path: (string | number)[]): number {
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n), true) as Node | undefined;
    if (node && (isScalar(node) || isMap(node) || isSeq(node)) && node.range) return node.range[0];
  }
  return 0;
}

function keyOffset(doc: Document, path: (string | number)[], key: string): number {
  const map = doc.getIn(path, true);
  if (isMap(map)) {
    for (const pair of map.items) {
      if (isPair(pair) && isScalar(pair.key) && pair.key.value === key && pair.key.range) return pair.key.range[0];
    }
  }
  return offsetOf(doc, path);
}

export function pathText(path: readonly (string | number | symbol)[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out;
}

/**
 * Before anything is opened, no sink may write another sink's file, the source's folder, the
 * pipeline file or the run folder's own files (output-collisions.ts): a JSONL path that named a
 * source PDF truncated it, one on pipeline.yaml overwrote it, two sinks on one file corrupt it,
 * and a run that reads what it writes feeds on itself.
 */
function checkOutputs(
  config: { baseDir: string; pipelineFile: string; runFolder?: string },
  source: ComponentConfig<"source"> | undefined,
  sinks: (ComponentConfig<"sink"> | undefined)[],
  written: (path: (string | number)[]) => boolean,
  report: (path: (string | number)[], message: string) => void,
): void {
  const collisions = outputCollisions(outputPlaces(config, source, sinks));
  // At the option when the file names the file, else (a default) at the sink's type.
  for (const { sink, option, message } of collisions) report(["sinks", sink, written(["sinks", sink, option]) ? option : "type"], message);
}

