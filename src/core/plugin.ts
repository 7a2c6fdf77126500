/**
 * The plugin contract. A source, a stage and a sink are each one declaration in one file:
 * `export default defineStage({ type, summary, options, examples, create })`.
 *
 * - `options` is a zod object schema, strict, with a `.describe()` on every option: it is the
 *   single source of the TypeScript type, the validation, `pipeline.schema.json` and the README
 *   table. Keys use snake_case and carry their unit (`timeout_seconds`, `max_tokens`).
 * - `examples` are option objects (without `type`) that a test validates, so they cannot rot.
 * - `create` is the second phase: it runs only after the whole pipeline validated, and may touch
 *   the environment (open files, connect). It must not do heavy imports before it is called.
 */
import type { Observable } from "rxjs";
import type { z } from "zod";
import type {
  DocRecord,
  DocumentInfo,
  DocumentResult,
  DocumentWarning,
  LoadedDocument,
  SourceItem,
} from "./records.js";

/** What every component's `create` gets. */
export interface RunContext {
  /** Directory that relative paths in the pipeline resolve against (the pipeline file's folder). */
  baseDir: string;
  /** Where a component reports something a person should see; never stdout. */
  warn(message: string): void;
}

/** State of one document while it passes through the stages. */
export interface DocumentContext {
  readonly input: LoadedDocument;
  /** Set by the first stage once the document is open. */
  document?: DocumentInfo;
  /** Warnings about this document; they reach the sinks with the result. */
  readonly warnings: DocumentWarning[];
}

export interface Source {
  /**
   * The documents to process, lazily: the runner pulls the next item only when it has room
   * for it, so a source must not list everything up front.
   */
  list(): AsyncIterable<SourceItem>;
}

export interface Stage {
  /**
   * Builds the stream of one document's records. Called once per document with the records of
   * the stage before it; a stage that needs the whole document (furniture, chunking) can
   * collect them, one that works page by page maps them (see `stage-operators.ts`: mapPages,
   * wholeDocument).
   */
  apply(records: Observable<DocRecord>, context: DocumentContext): Observable<DocRecord>;
}

/** Totals of a run, given to the sinks when it ends. */
export interface RunSummary {
  documents: number;
  ok: number;
  failed: number;
  failedByCode: Record<string, number>;
  pages: number;
  emptyPages: number;
  seconds: number;
}

export interface Sink {
  /** Receives each document once, in source order. A sink must not lose or tear a document it has accepted. */
  write(result: DocumentResult): Promise<void>;
  /** The run finished: make everything written visible (commit, rename). */
  close(summary: RunSummary): Promise<void>;
  /** The run failed: leave the previous output as it was. */
  abort(): Promise<void>;
}

/** What a stage consumes: the document's bytes (the first stage, which makes pages) or pages. */
export type StageInput = "document" | "pages";

interface ComponentSpec<Kind extends string, Options extends z.ZodObject, Instance> {
  readonly kind: Kind;
  /** The name a pipeline uses in `type:`. */
  readonly type: string;
  /** One sentence: what it does. */
  readonly summary: string;
  readonly options: Options;
  readonly examples: readonly z.input<Options>[];
  create(options: z.output<Options>, context: RunContext): Instance | Promise<Instance>;
}

export type SourceSpec<O extends z.ZodObject = z.ZodObject> = ComponentSpec<"source", O, Source>;
export type SinkSpec<O extends z.ZodObject = z.ZodObject> = ComponentSpec<"sink", O, Sink>;
export interface StageSpec<O extends z.ZodObject = z.ZodObject> extends ComponentSpec<"stage", O, Stage> {
  readonly input: StageInput;
}
export type AnySpec = SourceSpec | StageSpec | SinkSpec;
export type ComponentKind = AnySpec["kind"];

export function defineSource<O extends z.ZodObject>(spec: Omit<SourceSpec<O>, "kind">): SourceSpec<O> {
  return { kind: "source", ...spec };
}

export function defineStage<O extends z.ZodObject>(
  spec: Omit<StageSpec<O>, "kind" | "input"> & { input?: StageInput },
): StageSpec<O> {
  return { kind: "stage", input: "pages", ...spec };
}

export function defineSink<O extends z.ZodObject>(spec: Omit<SinkSpec<O>, "kind">): SinkSpec<O> {
  return { kind: "sink", ...spec };
}
