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
 *   `check`, optional, looks at the environment in between (see ComponentSpec.check).
 */
import type { Observable } from "rxjs";
import type { z } from "zod";
import type {
  DocRecord,
  DocumentInfo,
  DocumentResult,
  DocumentWarning,
  LoadedDocument,
  SourceChange,
  SourceItem,
} from "./records.js";

/** What every component's `create` gets. */
export interface RunContext {
  /** Directory that relative paths in the pipeline resolve against (the pipeline file's folder). */
  baseDir: string;
  /** Where a component reports something a person should see; never stdout. */
  warn(message: string): void;
}

/** Limits a stage must respect for each document (set by the run; none in `pagestream extract`). */
export interface DocumentLimits {
  /**
   * Most pages to read. The first stage must fail a document that would read more with
   * `too_large`, before reading its pages (the extract stage does).
   */
  readonly maxPages: number;
  /**
   * Pages a stage over page windows holds at once (stage-operators.ts, `pageWindows`); its
   * default, WINDOW_PAGES, when absent. A document up to it is decided as a whole.
   */
  readonly windowPages?: number;
}

/** State of one document while it passes through the stages. */
export interface DocumentContext {
  readonly input: LoadedDocument;
  readonly limits: DocumentLimits;
  /** Set by the first stage once the document is open. */
  document?: DocumentInfo;
  /**
   * Set by the first stage once it knows which pages it reads: the number of the last page it
   * will emit. A stage over page windows then hands on a full window as soon as it is full when
   * more pages are to come, instead of waiting for the next page to learn that (which, stage
   * after stage, held a window in each).
   */
  lastPage?: number;
  /** Warnings about this document; they reach the sinks with the result. */
  readonly warnings: DocumentWarning[];
  /**
   * The first stage SHOULD call it as it reads the pages (with the number read so far), so a run
   * shows progress inside a long document; cheap to call for every page.
   */
  readonly pagesRead?: (count: number) => void;
}

/** What a source's `create` gets besides the run context. */
export interface SourceContext extends RunContext {
  /**
   * "read": the source is built in a worker (a process of the run, or another machine) only to
   * read the items the run sends it: it must not list or probe anything up front.
   */
  readonly purpose: "run" | "read";
  /**
   * Told of every entry the listing passes over, and why ("hidden", "excluded", "not included",
   * a link): the run counts them in its summary, so nothing vanishes without a word.
   */
  readonly skipped?: (entry: { uri: string; reason: string }) => void;
}

export interface Source {
  /**
   * The documents to process, lazily: the runner pulls the next item only when it has room
   * for it, so a source must not list everything up front. A listing that ends without
   * throwing is complete: what it did not yield is gone from the source (and pruned).
   * Items are plain JSON (see SourceItem): the run may send them anywhere to be read.
   */
  list(): AsyncIterable<SourceItem>;
  /**
   * The bytes of an item this source listed, wherever the source was built again from the same
   * options. Called inside the run's limits, in the process that extracts the document. Fails
   * with a DocumentError (`not_found`, `access_denied`, `too_large`, `read_failed`, `timeout`)
   * that names the problem; refuses an item that is not its own.
   */
  read(item: SourceItem, signal?: AbortSignal): Promise<Uint8Array>;
  /**
   * How many items `list()` would yield and their bytes, for the progress display's totals
   * and ETA. Optional; it runs beside the listing, so it must be cheap and hold nothing.
   */
  count?(signal: AbortSignal): Promise<{ items: number; bytes: number }>;
  /**
   * Watch mode, for sources that can: the changes after the listing, as they happen, until
   * `signal` aborts. Called before `list()`, so nothing that changes during the listing is
   * missed (a change the listing already saw is skipped as unchanged). An `upsert` must only
   * be yielded for a file that has stopped changing. `ready`, when given, resolves once every
   * change from then on will be yielded (a watcher that scans first); the run lists only after it.
   */
  watch?(signal: AbortSignal): AsyncIterable<SourceChange> & { ready?: Promise<void> };
}

/**
 * A stage. It is created once per worker and reused for every document that worker runs, in
 * whatever order the run hands them out: it MUST keep nothing from one document to the next
 * (no counts, caches of document content, or learned state), so that a document's output is
 * the same byte for byte whatever the concurrency, the order, the worker, or which documents
 * an incremental run skipped. State that spans documents belongs in an explicit input of the
 * stage (an option naming a file), whose content the config hash then covers.
 */
export interface Stage {
  /**
   * Builds the stream of one document's records. Called once per document with the records of
   * the stage before it; a stage that needs more than one page (furniture, chunking) takes
   * them a window of pages at a time, one that works page by page maps them (see
   * `stage-operators.ts`: mapPages, pageWindows; wholeDocument holds the whole document, so a
   * long one can run its worker over its memory cap).
   */
  apply(records: Observable<DocRecord>, context: DocumentContext): Observable<DocRecord>;
}

/** What a run did, given to the sinks when it ends and written to run-summary.json. */
export interface RunSummary {
  /** Items the source listed (and, in watch mode, changes it reported). */
  listed: number;
  /** Documents the stages processed (ingested or failed). */
  documents: number;
  /** Processed and ingested (status ok or scan). */
  ok: number;
  failed: number;
  failedByCode: Record<string, number>;
  /** Skipped: unchanged since a run that every sink holds, under the same config. */
  skipped: number;
  /** Gone from the source and pruned from the sinks that prune. */
  removed: number;
  /** Entries the source's listing passed over (filters, hidden files, links), and by reason. */
  filtered: number;
  filteredBy: Record<string, number>;
  /** Ingested documents that are scans (no selectable text). */
  scanDocuments: number;
  pages: number;
  emptyPages: number;
  chunks: number;
  seconds: number;
  /** The listing ran to its end: what it did not list is gone from the source. */
  complete: boolean;
  /** A signal stopped the run before it finished. */
  interrupted: boolean;
}

/** What a sink held for a uri before this write or removal: the run state knows it. */
export interface PreviousDelivery {
  /** The sha256 of the version the sink holds, when it was read. */
  documentId?: string;
}

/** What a sink's `create` gets besides the run context. */
/**
 * Where a run's documents came from, as an archive records it so that a reader can find the
 * originals again without the pipeline file: the source's type and the options that locate its
 * documents (paths made absolute), never credentials.
 */
export interface SourceOrigin {
  readonly type: string;
  readonly options: Readonly<Record<string, string | number | boolean>>;
}

/** The run a sink writes for: its pipeline file (absolute) and its source's origin. */
export interface RunOrigin {
  readonly pipeline: string;
  /** Undefined for a source whose declaration does not say how to find its documents again. */
  readonly source?: SourceOrigin;
}

export interface SinkContext extends RunContext {
  /** The pipeline and source the run reads (set by `pagestream run`). */
  readonly origin?: RunOrigin;
  /**
   * What the sink's `checkpoint()` returned at the run state's last commit, or undefined when
   * the state has none for it (a new sink, a new state). Anything written after that
   * checkpoint was never acknowledged and must be dropped.
   */
  readonly checkpoint?: unknown;
  /**
   * Reports an error the sink met outside a call of the runner's (a timer's commit): the run
   * stops on it as on an error thrown from `write`. The sink SHOULD also throw it from its next
   * call. Absent when nobody runs the sink (a test driving it by hand).
   */
  readonly fail?: (error: unknown) => void;
}

/**
 * A sink in an incremental, crash-safe run. The runner writes each document to the sinks that
 * do not hold it yet, in source order; every so often it asks each sink for a durable
 * `checkpoint()` and then records, in the run state, which documents the sinks hold and the
 * tokens they returned. A process killed at any moment therefore restarts from the last
 * checkpoint: the sink drops what came after it, and the runner writes those documents again.
 */
export interface Sink {
  /**
   * True when the sink opened holding exactly what `context.checkpoint` describes; false when
   * it started empty or could not match it (a deleted or replaced file): the runner then
   * writes every document to it again.
   */
  readonly resumed: boolean;
  /** Receives one document, in source order; `previous` when the sink held an earlier version of its uri. */
  write(result: DocumentResult, previous?: PreviousDelivery): Promise<void>;
  /** Present on sinks that prune: the document at `uri` is gone from the source. */
  remove?(uri: string, previous: PreviousDelivery): Promise<void>;
  /** Makes everything written so far durable (fsync, commit) and returns a JSON token that describes it. */
  checkpoint(): Promise<unknown>;
  /** The run ended and its last checkpoint is recorded: release files and connections. */
  close(summary: RunSummary): Promise<void>;
  /** The run failed: drop what was written since the last checkpoint, and release everything. */
  abort(): Promise<void>;
}

/** What a stage consumes: the document's bytes (the first stage, which makes pages) or pages. */
export type StageInput = "document" | "pages";

/** What a component may know, at validation, of the pipeline around it. */
export interface PipelineFacts {
  /** Some stage makes chunk records (see StageSpec.producesChunks). */
  readonly chunks: boolean;
}

/** What `settle` decided: the completed options, and what cannot work in this pipeline. */
export interface Settled<O> {
  options: O;
  /** Errors, each at an option's path (relative to the component). */
  problems?: { path: (string | number)[]; message: string }[];
  /** Defaults chosen from the pipeline, said by `pagestream validate` ("records: chunks, …"). */
  notes?: string[];
}

interface ComponentSpec<Kind extends string, Options extends z.ZodObject, Instance, Context extends RunContext = RunContext> {
  readonly kind: Kind;
  /** The name a pipeline uses in `type:`. */
  readonly type: string;
  /** One sentence: what it does. */
  readonly summary: string;
  /**
   * The version of what the component makes, 1 when left out: raised when its output for the
   * same input and options changes (a stage's records, a sink's format). It enters the run's
   * identity — a stage's in the config hash, so documents are processed again; a sink's in its
   * key, so it gets every document again — and a component of your own is covered by the hash
   * of its module file besides.
   */
  readonly version?: number;
  readonly options: Options;
  readonly examples: readonly z.input<Options>[];
  /**
   * What an older pagestream accepted here and this one does not, each with the sentence a
   * user is told instead of "unknown option": renamed or removed option keys, and removed values
   * of an option (`{ values: { evidence: { run: "…" } } }`).
   */
  readonly retired?: { readonly options?: Readonly<Record<string, string>>; readonly values?: Readonly<Record<string, Readonly<Record<string, string>>>> };
  /**
   * Optional and pure, part of validation: runs after every component's options parsed, and
   * completes options whose default depends on the rest of the pipeline (a jsonl sink writes
   * chunks when there is a chunk stage), or reports what cannot work in it.
   */
  settle?(options: z.output<Options>, pipeline: PipelineFacts): Settled<z.output<Options>>;
  /**
   * Optional: checks what the component needs from the machine and the file cannot say (a
   * program, a language pack). Runs after validation, before anything is built: `pagestream
   * validate` reports it, and a run refuses to start on it before it opens the source. Throws
   * an Error saying what is missing and how to install it. Extraction workers build stages with
   * `create` alone, so a `create` that needs the same must check it too.
   */
  check?(options: z.output<Options>, context: RunContext): Promise<void>;
  /**
   * Optional, for `pagestream validate --env`: looks at what the component will use — the folder
   * it reads exists and can be read, the bucket answers, the files it writes can be written —
   * without changing anything, and returns what it found in a few words ("folder in/ can be
   * read"). Throws an Error naming the thing and the problem. A run finds the same when it
   * opens them; this finds it before the nightly run does. It may touch the network.
   */
  probe?(options: z.output<Options>, context: RunContext): Promise<string>;
  create(options: z.output<Options>, context: Context): Instance | Promise<Instance>;
}

/** What of a document's result a sink reads, beyond text and facts; the run sends workers' results without the rest. */
export interface ResultNeeds {
  /** Each page's lines and paragraphs, with their runs and positions (large: per-line geometry). */
  lines: boolean;
}

export interface SourceSpec<O extends z.ZodObject = z.ZodObject> extends ComponentSpec<"source", O, Source, SourceContext> {
  /** The local folder the source reads under (absolute), if it reads one: no sink may write inside it. Pure. */
  readsFolder?(options: z.output<O>, baseDir: string): string | undefined;
  /**
   * The options that locate the source's documents, for an archive to record (see SourceOrigin):
   * paths absolute, no credentials and nothing secret. Pure. Without it, an archive records only
   * the pipeline file.
   */
  origin?(options: z.output<O>, baseDir: string): SourceOrigin["options"];
}
export interface SinkSpec<O extends z.ZodObject = z.ZodObject> extends ComponentSpec<"sink", O, Sink, SinkContext> {
  /** What the sink reads of a result (by its options). Without it, a sink gets no lines. */
  needs?(options: z.output<O>): Partial<ResultNeeds>;
  /**
   * The local files the sink writes (absolute), each with the option that names it: validation
   * refuses two sinks on one file and a sink writing inside the source's folder. Pure.
   */
  writesFiles?(options: z.output<O>, baseDir: string): { path: string; option: string }[];
}
export interface StageSpec<O extends z.ZodObject = z.ZodObject> extends ComponentSpec<"stage", O, Stage> {
  readonly input: StageInput;
  /** True when the stage adds chunk records to the stream (the chunk stage). */
  readonly producesChunks?: boolean;
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
