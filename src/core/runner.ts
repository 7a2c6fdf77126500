/**
 * Source → stages → sinks, as one RxJS pipeline.
 *
 * Items are pulled from the source only when fewer than `concurrency` documents are in flight;
 * a document's bytes are read inside that limit, so memory holds only the documents in flight.
 * Each document runs through the stages as its own record stream, so a stage can see a whole
 * document when it needs to. A document that fails anywhere becomes an error record that the
 * sinks receive like any other result, and the run goes on.
 */
import { createHash } from "node:crypto";
import { concatMap, defer, EMPTY, from, lastValueFrom, type Observable, tap, toArray } from "rxjs";
import { DocumentError, describeError } from "./document-error.js";
import { mapOrdered } from "./ordered-concurrency.js";
import { hasPdfSignature } from "./pdf-signature.js";
import type { DocumentContext, RunSummary, Sink, Source, Stage } from "./plugin.js";
import type { ChunkRecord, DocRecord, DocumentResult, DocumentWarning, ErrorRecord, PageRecord, SourceItem } from "./records.js";

export interface Pipeline {
  source: Source;
  stages: Stage[];
  sinks: Sink[];
  /** Documents processed at once. */
  concurrency: number;
}

export interface RunHooks {
  /** Called after the sinks received each document's result. */
  onResult?(result: DocumentResult): void;
}

export async function runPipeline(pipeline: Pipeline, hooks: RunHooks = {}): Promise<RunSummary> {
  const started = process.hrtime.bigint();
  const summary: RunSummary = { documents: 0, ok: 0, failed: 0, failedByCode: {}, pages: 0, emptyPages: 0, seconds: 0 };
  const results$: Observable<DocumentResult> = defer(() =>
    from(mapOrdered(pipeline.source.list(), pipeline.concurrency, (item) => processDocument(item, pipeline.stages))),
  );
  try {
    await lastValueFrom(
      results$.pipe(
        concatMap(async (result) => {
          for (const sink of pipeline.sinks) await sink.write(result);
          return result;
        }),
        tap((result) => {
          count(summary, result);
          hooks.onResult?.(result);
        }),
      ),
      { defaultValue: undefined },
    );
  } catch (err) {
    await Promise.allSettled(pipeline.sinks.map((s) => s.abort()));
    throw err;
  }
  summary.seconds = Number(process.hrtime.bigint() - started) / 1e9;
  for (const sink of pipeline.sinks) await sink.close(summary);
  return summary;
}

/** Reads one document and runs it through the stages. Never rejects: failures are results. */
export async function processDocument(item: SourceItem, stages: readonly Stage[]): Promise<DocumentResult> {
  const warnings: DocumentWarning[] = [];
  let documentId: string | undefined;
  try {
    const bytes = await readBytes(item);
    documentId = createHash("sha256").update(bytes).digest("hex");
    const context: DocumentContext = { input: { item, id: documentId, bytes }, warnings };
    let records: Observable<DocRecord> = EMPTY;
    for (const stage of stages) records = stage.apply(records, context);
    const out = await lastValueFrom(records.pipe(toArray()));
    const pages = out.filter((r): r is PageRecord => r.type === "page");
    const chunks = out.filter((r): r is ChunkRecord => r.type === "chunk");
    if (!context.document) throw new DocumentError("stage_failed", "no stage opened the document (the first stage must read it, e.g. extract)");
    return { status: "ok", uri: item.uri, document: context.document, pages, chunks, warnings };
  } catch (err) {
    return { status: "failed", uri: item.uri, error: toErrorRecord(item.uri, err, documentId), warnings };
  }
}

async function readBytes(item: SourceItem): Promise<Uint8Array> {
  if (item.size === 0) throw new DocumentError("empty_file", "the file is empty (0 bytes)");
  let bytes: Uint8Array;
  try {
    bytes = await item.read();
  } catch (err) {
    // A source that knows why (too large, gone, access denied) says so with its own code.
    if (err instanceof DocumentError) throw err;
    throw new DocumentError("read_failed", `the file could not be read: ${describeError(err)}`, { cause: err });
  }
  if (bytes.length === 0) throw new DocumentError("empty_file", "the file is empty (0 bytes)");
  if (!hasPdfSignature(bytes)) throw new DocumentError("not_pdf", "not a PDF: the file does not start with a %PDF- header");
  return bytes;
}

export function toErrorRecord(uri: string, err: unknown, documentId?: string): ErrorRecord {
  const code = err instanceof DocumentError ? err.code : "stage_failed";
  const record: ErrorRecord = { type: "error", uri, code, message: describeError(err) };
  if (documentId) record.documentId = documentId;
  return record;
}

function count(summary: RunSummary, result: DocumentResult): void {
  summary.documents++;
  if (result.status === "failed") {
    summary.failed++;
    summary.failedByCode[result.error.code] = (summary.failedByCode[result.error.code] ?? 0) + 1;
    return;
  }
  summary.ok++;
  summary.pages += result.pages.length;
  summary.emptyPages += result.pages.filter((p) => p.empty).length;
}
