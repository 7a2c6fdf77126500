/**
 * The lines of the JSONL files other than chunks: page records, document records, errors,
 * warnings and tombstones, keys in a fixed order. `path` (where the document is under the
 * source's root) follows `uri` when the source gives one.
 */
import type { PreviousDelivery } from "../../core/plugin.js";
import type { DocumentResult, Line, OcrFacts, PageRecord } from "../../core/records.js";
import { chunksFormat, pageViewText } from "../../text/document-view.js";
import { documentStatus, pageFlags, pageLabel } from "../../text/page-facts.js";

/**
 * Withdraws what the file said before about `uri`: the document was replaced by the records
 * that follow, or removed from the source.
 */
export function tombstone(uri: string, previous: PreviousDelivery, reason: "replaced" | "removed"): object {
  return { type: "tombstone", uri, ...(previous.documentId ? { document_id: previous.documentId } : {}), reason };
}

/** The JSONL records of one document, keys in a fixed order. */
export function jsonlRecords(result: DocumentResult, includeLines: boolean): object[] {
  const records: object[] = [];
  const path = pathOf(result);
  if (result.status === "failed") {
    const { uri, code, message, documentId } = result.error;
    records.push({ type: "error", uri, ...path, ...(documentId ? { document_id: documentId } : {}), code, message });
  } else {
    const markdown = chunksFormat(result.chunks) === "markdown";
    for (const page of result.pages) records.push(pageRecord(page, result.document.pageCount, includeLines, path, markdown));
  }
  for (const w of result.warnings) records.push({ type: "warning", uri: result.uri, ...path, ...warning(w) });
  return records;
}

/** One line per document in `*.documents.jsonl`: what happened to it, and why when it failed. */
export function documentLine(result: DocumentResult): object {
  const warnings = result.warnings.map(warning);
  const path = pathOf(result);
  if (result.status === "failed") {
    const { uri, code, message, documentId } = result.error;
    return { type: "document", ...(documentId ? { document_id: documentId } : {}), uri, ...path, status: "failed", code, message, warnings };
  }
  const { document, pages, chunks } = result;
  return {
    type: "document",
    document_id: document.documentId,
    uri: document.uri,
    ...path,
    status: documentStatus(document),
    ...(document.title ? { title: document.title } : {}),
    page_count: document.pageCount,
    pages: pages.map((p) => p.number),
    // Each page's size as displayed (points), for drawing a chunk's boxes over it.
    page_sizes: pages.map((p) => ({ page: p.number, width: p.width, height: p.height })),
    empty_pages: pages.filter((p) => p.empty).map((p) => p.number),
    scan_pages: pages.filter((p) => pageFlags(p).includes("scan")).map((p) => p.number),
    chunk_count: chunks.length,
    token_count: chunks.reduce((sum, c) => sum + c.tokenCount, 0),
    warnings,
  };
}

function pathOf(result: DocumentResult): { path?: string } {
  return result.path !== undefined ? { path: result.path } : {};
}

function warning(w: DocumentResult["warnings"][number]): object {
  return { code: w.code, message: w.message, ...(w.pages ? { pages: w.pages } : {}) };
}

/** A page's line; with `markdown` (the document's chunks are Markdown) its Markdown text too, which chunk offsets point into. */
function pageRecord(page: PageRecord, pageCount: number, includeLines: boolean, path: { path?: string }, markdown: boolean): object {
  const label = pageLabel(page);
  return {
    type: "page",
    document_id: page.documentId,
    uri: page.uri,
    ...path,
    page: page.number,
    page_count: pageCount,
    text: page.text,
    ...(markdown ? { markdown: pageViewText(page, "markdown") } : {}),
    empty: page.empty,
    mode: page.mode,
    order_source: page.orderSource,
    order_reason: page.orderReason,
    untagged_glyphs: page.untaggedGlyphs,
    columns: page.columns,
    flags: pageFlags(page),
    ...(page.scanReason ? { scan_reason: page.scanReason } : {}),
    ...(label ? { page_label: label } : {}),
    ...(page.furniture ? { furniture: { header: page.furniture.header, footer: page.furniture.footer, ...(page.furniture.titles?.length ? { titles: page.furniture.titles } : {}) } } : {}),
    ...(page.continues ? { continues: true } : {}),
    ...(page.ocr ? { source: "ocr", ocr: ocrRecord(page.ocr) } : {}),
    width: page.width,
    height: page.height,
    rotation: page.rotation,
    ...(includeLines ? { lines: page.lines.map(lineRecord) } : {}),
  };
}

/** How the ocr stage read the page, with the file's snake_case keys. */
function ocrRecord(ocr: OcrFacts): object {
  return {
    engine: ocr.engine,
    version: ocr.version,
    languages: ocr.languages,
    dpi: ocr.dpi,
    renderer: ocr.renderer,
    words: ocr.words,
    mean_confidence: ocr.meanConfidence,
    low_confidence_words: ocr.lowConfidenceWords,
    skew_degrees: ocr.skewDegrees,
  };
}

function lineRecord(line: Line): object {
  const r = (v: number) => Math.round(v * 100) / 100;
  return {
    text: line.text,
    x: r(line.x),
    y: r(line.y),
    width: r(line.width),
    font_size: r(line.fontSize),
    runs: line.runs.map((run) => ({ text: run.text, x: r(run.x), y: r(run.y), width: r(run.width), font_size: r(run.fontSize), font: run.fontName, ...(run.bold ? { bold: true } : {}) })),
  };
}
