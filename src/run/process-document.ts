/**
 * One document through the stages. The run does this in an extraction worker process (see
 * `extraction-worker.ts`); `pagestream extract` does it in its own process.
 */
import { createHash } from "node:crypto";
import { EMPTY, lastValueFrom, type Observable, toArray } from "rxjs";
import { DocumentError, describeError } from "../core/document-error.js";
import { hasPdfSignature } from "./pdf-signature.js";
import type { DocumentContext, DocumentLimits, Stage } from "../core/plugin.js";
import type { ChunkRecord, DocRecord, DocumentResult, DocumentWarning, ErrorRecord, LoadedDocument, PageRecord, SourceItem } from "../core/records.js";

/** No limits: what one file on the command line gets. */
export const NO_LIMITS: DocumentLimits = { maxPages: Infinity };

/** Reads one document and runs it through the stages. Never rejects: failures are results. */
export async function processDocument(item: SourceItem, stages: readonly Stage[], limits: DocumentLimits = NO_LIMITS): Promise<DocumentResult> {
  let input: LoadedDocument;
  try {
    input = await loadDocument(item);
  } catch (err) {
    return failedResult(item.uri, err);
  }
  return processLoaded(input, stages, limits);
}

/**
 * Runs a document whose bytes are read through the stages; a file that is not a PDF at all
 * never reaches the parser. Never rejects.
 */
export async function processLoaded(input: LoadedDocument, stages: readonly Stage[], limits: DocumentLimits): Promise<DocumentResult> {
  const warnings: DocumentWarning[] = [];
  const { item } = input;
  try {
    if (!hasPdfSignature(input.bytes)) throw new DocumentError("not_pdf", "not a PDF: the file does not start with a %PDF- header");
    const context: DocumentContext = { input, limits, warnings };
    let records: Observable<DocRecord> = EMPTY;
    for (const stage of stages) records = stage.apply(records, context);
    const out = await lastValueFrom(records.pipe(toArray()));
    const pages = out.filter((r): r is PageRecord => r.type === "page");
    const chunks = out.filter((r): r is ChunkRecord => r.type === "chunk");
    if (!context.document) throw new DocumentError("stage_failed", "no stage opened the document (the first stage must read it, e.g. extract)");
    return { status: "ok", uri: item.uri, document: context.document, pages, chunks, warnings };
  } catch (err) {
    return failedResult(item.uri, err, input.id, warnings);
  }
}

/** Reads and hashes an item's bytes. Throws a DocumentError (`empty_file`, `read_failed`). */
export async function loadDocument(item: SourceItem): Promise<LoadedDocument> {
  if (item.size === 0) throw new DocumentError("empty_file", "the file is empty (0 bytes)");
  let bytes: Uint8Array;
  try {
    bytes = await item.read();
  } catch (err) {
    if (err instanceof DocumentError) throw err;
    throw new DocumentError("read_failed", `the file could not be read: ${describeError(err)}`, { cause: err });
  }
  if (bytes.length === 0) throw new DocumentError("empty_file", "the file is empty (0 bytes)");
  return { item, id: createHash("sha256").update(bytes).digest("hex"), bytes };
}

export function failedResult(uri: string, err: unknown, documentId?: string, warnings: DocumentWarning[] = []): DocumentResult {
  return { status: "failed", uri, error: toErrorRecord(uri, err, documentId), warnings };
}

export function toErrorRecord(uri: string, err: unknown, documentId?: string): ErrorRecord {
  const code = err instanceof DocumentError ? err.code : "stage_failed";
  const record: ErrorRecord = { type: "error", uri, code, message: describeError(err) };
  if (documentId) record.documentId = documentId;
  return record;
}
