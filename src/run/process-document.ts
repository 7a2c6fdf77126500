/**
 * One document through the stages, in the process that extracts it: an extraction worker of the
 * run (see `extraction-worker.ts`), a queue worker, or `pagestream extract` for one file. The
 * bytes are read here, through the process's own copy of the source, and hashed into the
 * document's id; nothing here rejects: every failure becomes a result with an error record.
 */
import { createHash } from "node:crypto";
import { readFileSync, statSync, type Stats } from "node:fs";
import { EMPTY, type Observable } from "rxjs";
import { DocumentError, describeError } from "../core/document-error.js";
import { chunksFormat } from "../text/document-view.js";
import type { DocumentContext, DocumentLimits, ResultNeeds, Source, Stage } from "../core/plugin.js";
import type { ChunkRecord, DocRecord, DocumentResult, DocumentWarning, ErrorRecord, LoadedDocument, PageRecord, SourceItem } from "../core/records.js";
import { hasPdfSignature } from "./pdf-signature.js";
import { ResultParts, trimPage, type ResultPart } from "./result-parts.js";
import { StageFailure } from "./stage-failure.js";
import type { DocumentJob, JobOutcome } from "./processor.js";

/** No limits: what one file on the command line gets. */
export const NO_LIMITS: DocumentLimits = { maxPages: Infinity };

/** What a worker applies to every document, besides the stages. */
export interface JobLimits extends DocumentLimits {
  /** Most bytes to read; a file that grew past it since it was listed fails with too_large. */
  readonly maxFileBytes: number;
}

/** Everything a sink may read: what `pagestream extract` and in-process callers get. */
export const ALL_NEEDS: ResultNeeds = { lines: true };

/** How a job's records leave as they are made (result-parts.ts), instead of in its outcome. */
export interface PartsOptions {
  send(part: ResultPart): void;
  /** Some stage makes chunk records (StageSpec.producesChunks): pages wait for the first to know their view. */
  chunks: boolean;
}

/**
 * A job in this process: the bytes read through `source`, hashed, compared with the document
 * the sinks hold (same bytes: `unchanged`, the stages never run), then processed, and the result
 * trimmed to what the sinks read (`needs`), so what crosses to the run stays small.
 */
export async function processJob(
  job: DocumentJob,
  source: Source,
  stages: readonly Stage[],
  limits: JobLimits,
  needs: ResultNeeds,
  onPage?: (pagesRead: number) => void,
  parts?: PartsOptions,
): Promise<JobOutcome> {
  let input: LoadedDocument;
  try {
    input = await readDocument(source, job.item, limits.maxFileBytes);
  } catch (err) {
    return { kind: "processed", documentId: null, result: failedResult(job.item.uri, err) };
  }
  if (job.skipIfDocumentId === input.documentId) return { kind: "unchanged", documentId: input.documentId };
  if (!parts) return { kind: "processed", documentId: input.documentId, result: trimResult(await processLoaded(input, stages, limits, onPage), needs) };
  // The records go out in parts as the stages emit them: the outcome carries none of them.
  const collected = new ResultParts(needs, parts.send, parts.chunks);
  const result = await processLoaded(input, stages, limits, onPage, (record) => collected.add(record));
  if (result.status === "ok") collected.end();
  else collected.discard();
  return { kind: "processed", documentId: input.documentId, result };
}

/** Reads and hashes an item's bytes. Throws a DocumentError (`empty_file`, `too_large`, `read_failed`, or the source's own). */
export async function readDocument(source: Source, item: SourceItem, maxFileBytes = Infinity): Promise<LoadedDocument> {
  if (item.size === 0) throw new DocumentError("empty_file", "the file is empty (0 bytes)");
  let bytes: Uint8Array;
  try {
    bytes = await source.read(item);
  } catch (err) {
    throw readFailed(err);
  }
  return loadedDocument(item, bytes, maxFileBytes);
}

/** What a failed read of a document's bytes throws: the source's own DocumentError, or `read_failed`. */
function readFailed(err: unknown): DocumentError {
  if (err instanceof DocumentError) return err;
  return new DocumentError("read_failed", `the file could not be read: ${describeError(err)}`, { cause: err });
}

/**
 * A file on this machine as a document, for in-process callers. Read synchronously, as the folder
 * source reads (folder.ts readSettled): the document is worked on in this process next, and
 * each awaited file call is a round trip through libuv's thread pool.
 */
export async function readFileDocument(path: string): Promise<LoadedDocument> {
  let info: Stats;
  let bytes: Buffer;
  try {
    info = statSync(path);
    // The file's own bytes, viewed rather than copied: pdf.js is handed a copy of them (openPdf).
    bytes = readFileSync(path);
  } catch (err) {
    // As a source's failed read: a missing file is no stage's failure.
    throw readFailed(err);
  }
  const item: SourceItem = { uri: path, size: info.size, mtimeMs: info.mtimeMs, fingerprint: `size:${info.size} mtime:${Math.round(info.mtimeMs)}` };
  return loadedDocument(item, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

function loadedDocument(item: SourceItem, bytes: Uint8Array, maxFileBytes = Infinity): LoadedDocument {
  if (bytes.length === 0) throw new DocumentError("empty_file", "the file is empty (0 bytes)");
  if (bytes.length > maxFileBytes) throw new DocumentError("too_large", `the file has ${bytes.length} bytes, more than max_file_bytes (${maxFileBytes}); it grew after it was listed`);
  return { item, documentId: createHash("sha256").update(bytes).digest("hex"), bytes };
}

/** One file on this machine through the stages (what `pagestream extract` does). Never rejects. */
export async function processFile(path: string, stages: readonly Stage[], limits: DocumentLimits = NO_LIMITS): Promise<DocumentResult> {
  let input: LoadedDocument;
  try {
    input = await readFileDocument(path);
  } catch (err) {
    return failedResult(path, err);
  }
  return processLoaded(input, stages, limits);
}

/**
 * Runs a document whose bytes are read through the stages; a file that is not a PDF at all
 * never reaches the parser. Never rejects.
 */
export async function processLoaded(
  input: LoadedDocument,
  stages: readonly Stage[],
  limits: DocumentLimits,
  onPage?: (pagesRead: number) => void,
  onRecord?: (record: DocRecord) => void,
): Promise<DocumentResult> {
  const warnings: DocumentWarning[] = [];
  const { item } = input;
  try {
    if (!hasPdfSignature(input.bytes)) throw new DocumentError("not_pdf", "not a PDF: the file does not start with a %PDF- header");
    const context: DocumentContext = { input, limits, warnings, ...(onPage ? { pagesRead: onPage } : {}) };
    let records: Observable<DocRecord> = EMPTY;
    for (const stage of stages) records = stage.apply(records, context);
    // Handed on as they come (`onRecord`), or collected into the result.
    const pages: PageRecord[] = [];
    const chunks: ChunkRecord[] = [];
    await records.forEach(onRecord ?? ((record) => (record.type === "page" ? pages.push(record) : chunks.push(record))));
    if (!context.document) throw new DocumentError("stage_failed", "no stage opened the document (the first stage must read it, e.g. extract)");
    return { status: "ok", uri: item.uri, document: context.document, pages, chunks, warnings };
  } catch (err) {
    return failedResult(item.uri, err, input.documentId, warnings);
  }
}

/**
 * The result without what no sink reads: per-line geometry is most of a page record's size. When
 * the chunks are Markdown, each page keeps its Markdown text instead (the sinks store it beside
 * the chunks, whose offsets point into it).
 */
export function trimResult(result: DocumentResult, needs: ResultNeeds): DocumentResult {
  if (needs.lines || result.status === "failed") return result;
  const format = chunksFormat(result.chunks);
  return { ...result, pages: result.pages.map((page) => trimPage(page, format)) };
}

export function failedResult(uri: string, err: unknown, documentId?: string, warnings: DocumentWarning[] = []): DocumentResult {
  return { status: "failed", uri, error: toErrorRecord(uri, err, documentId), warnings };
}

/**
 * A stage's DocumentError keeps its code and its sentence; anything else a stage threw is
 * `stage_failed`, its message led by the stage's name (stage-failure.ts).
 */
export function toErrorRecord(uri: string, err: unknown, documentId?: string): ErrorRecord {
  const thrown = err instanceof StageFailure ? err.error : err;
  const code = thrown instanceof DocumentError ? thrown.code : "stage_failed";
  const message = code === "stage_failed" ? describeError(err) : describeError(thrown);
  const record: ErrorRecord = { type: "error", uri, code, message };
  if (documentId) record.documentId = documentId;
  return record;
}
