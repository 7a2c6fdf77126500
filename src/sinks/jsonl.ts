import { basename, dirname, resolve } from "node:path";
import { z } from "zod";
import { ensureFolder } from "../core/output-folder.js";
import { defineSink, type PreviousDelivery } from "../core/plugin.js";
import type { ChunkRecord, DocumentResult, Line, PageRecord } from "../core/records.js";
import { documentStatus, pageFlags, pageLabel } from "../text/page-facts.js";
import { isLogFileToken, LogFile, type LogFileToken } from "./log-file.js";

const options = z
  .strictObject({
    records: z
      .enum(["pages", "chunks"])
      .optional()
      .describe(
        "What each line holds. pages: a record per page, document error and warning. chunks: one chunk per line, ready for an embedding job or a vector store (needs a chunk stage); document records (status, errors, warnings) go to a `.documents.jsonl` file beside it. Default: chunks when the pipeline has a chunk stage, pages otherwise (`pagestream validate` says which).",
      ),
    path: z
      .string()
      .min(1)
      .optional()
      .describe("The file to write, relative to the pipeline file. Default: out/pages.jsonl, or out/chunks.jsonl for chunks."),
    include_lines: z
      .boolean()
      .default(false)
      .describe("Also write each page's lines with their runs and positions (larger files; for layout-aware consumers). Page records only."),
    prune: z
      .boolean()
      .default(false)
      .describe("When a document is gone from the source (deleted or moved), write a tombstone for it, so the file mirrors the source. Leave off when runs cover only part of the source."),
  });

/** The checkpoint token: each file's, by its name. */
interface JsonlCheckpoint {
  files: Record<string, LogFileToken>;
}

export default defineSink({
  type: "jsonl",
  summary: "One JSON object per line — page records, or chunk records with their document records in a second file — appended run after run, with tombstones for replaced and removed documents.",
  options,
  examples: [
    { path: "out/pages.jsonl" },
    { path: "out/pages-with-geometry.jsonl", include_lines: true },
    { records: "chunks", path: "out/chunks.jsonl", prune: true },
  ],
  needs: (opts) => ({ lines: opts.include_lines }),
  writesFiles(opts, baseDir) {
    const records = opts.records ?? "pages";
    const target = resolve(baseDir, opts.path ?? (records === "chunks" ? "out/chunks.jsonl" : "out/pages.jsonl"));
    return records === "chunks" ? [{ path: target, option: "path" }, { path: documentsPath(target), option: "path" }] : [{ path: target, option: "path" }];
  },
  settle(opts, pipeline) {
    const records = opts.records ?? (pipeline.chunks ? "chunks" : "pages");
    const problems = [];
    if (records === "chunks" && !pipeline.chunks) problems.push({ path: ["records"], message: "chunks need a chunk stage in the pipeline (- type: chunk), and there is none" });
    if (records === "chunks" && opts.include_lines) problems.push({ path: ["include_lines"], message: "applies to page records only (records: pages)" });
    const notes = opts.records ? [] : [`records: ${records} (${pipeline.chunks ? "the pipeline has a chunk stage; records: pages writes page records instead" : "there is no chunk stage"})`];
    return { options: { ...opts, records }, problems, notes };
  },
  async create(opts, context) {
    const records = opts.records ?? "pages";
    const target = resolve(context.baseDir, opts.path ?? (records === "chunks" ? "out/chunks.jsonl" : "out/pages.jsonl"));
    await ensureFolder(dirname(target));
    const paths = records === "pages" ? [target] : [target, documentsPath(target)];
    const files = await openTogether(paths, context.checkpoint as JsonlCheckpoint | undefined);
    const [main, documents] = files as [LogFile, LogFile | undefined];
    let chunks = 0;
    let pagesWithText = 0;
    const tombstoneEverywhere = (uri: string, previous: PreviousDelivery, reason: "replaced" | "removed") =>
      Promise.all(files.map((f) => f.append([tombstone(uri, previous, reason)])));
    return {
      resumed: files[0]!.resumed,
      async write(result, previous) {
        const head = previous ? [tombstone(result.uri, previous, "replaced")] : [];
        if (!documents) return main.append([...head, ...jsonlRecords(result, opts.include_lines)]);
        const chunkLines = result.status === "ok" ? result.chunks.map((c) => chunkLine(c, result.document.title)) : [];
        if (result.status === "ok") {
          chunks += result.chunks.length;
          pagesWithText += result.pages.filter((p) => !p.empty).length;
        }
        await main.append([...head, ...chunkLines]);
        await documents.append([...head, documentLine(result)]);
      },
      ...(opts.prune ? { remove: (uri: string, previous: PreviousDelivery) => tombstoneEverywhere(uri, previous, "removed").then(() => {}) } : {}),
      async checkpoint(): Promise<JsonlCheckpoint> {
        const tokens: Record<string, LogFileToken> = {};
        for (const f of files) tokens[basename(f.path)] = await f.checkpoint();
        return { files: tokens };
      },
      async close() {
        for (const f of files) await f.close();
        if (documents && chunks === 0 && pagesWithText > 0) context.warn(`${basename(target)} has no chunks: the pipeline needs a chunk stage (- type: chunk) after extract`);
      },
      async abort() {
        for (const f of files) {
          await f.rollback().catch(() => {});
          await f.close().catch(() => {});
        }
      },
    };
  },
});

/** `out/chunks.jsonl` → `out/chunks.documents.jsonl`: the document records of a chunk file. */
export function documentsPath(chunksPath: string): string {
  return chunksPath.replace(/\.jsonl$/i, "") + ".documents.jsonl";
}

/** The files of one sink resume together or start anew together, so they always describe the same documents. */
async function openTogether(paths: string[], checkpoint: JsonlCheckpoint | undefined): Promise<LogFile[]> {
  const token = (path: string) => {
    const t = checkpoint?.files?.[basename(path)];
    return isLogFileToken(t) ? t : undefined;
  };
  const files = await Promise.all(paths.map((p) => LogFile.open(p, token(p))));
  if (files.every((f) => f.resumed) || files.every((f) => !f.resumed)) return files;
  for (const f of files) await f.close();
  return Promise.all(paths.map((p) => LogFile.open(p, undefined)));
}

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
  if (result.status === "failed") {
    const { uri, code, message, documentId } = result.error;
    records.push({ type: "error", uri, ...(documentId ? { document_id: documentId } : {}), code, message });
  } else {
    for (const page of result.pages) records.push(pageRecord(page, result.document.pageCount, includeLines));
  }
  for (const w of result.warnings) records.push({ type: "warning", uri: result.uri, ...warning(w) });
  return records;
}

/**
 * A chunk as embedding jobs and vector stores take it: `id` and `text` at the top, flat metadata
 * (strings, numbers, lists of strings) and no nulls — a missing title is left out.
 */
export function chunkLine(chunk: ChunkRecord, title: string | undefined): object {
  return {
    id: chunk.id,
    document_id: chunk.documentId,
    chunk_index: chunk.index,
    text: chunk.text,
    metadata: {
      source_uri: chunk.uri,
      ...(title ? { title } : {}),
      page_start: chunk.pageStart,
      page_end: chunk.pageEnd,
      page_labels: chunk.pageLabels,
      char_start: chunk.charStart,
      char_end: chunk.charEnd,
      prefix_chars: chunk.prefix.length,
      token_count: chunk.tokenCount,
      tokenizer: chunk.tokenizer,
      encoding: chunk.encoding,
      headings: chunk.headings,
      flags: chunk.flags,
    },
  };
}

/** One line per document in `*.documents.jsonl`: what happened to it, and why when it failed. */
export function documentLine(result: DocumentResult): object {
  const warnings = result.warnings.map(warning);
  if (result.status === "failed") {
    const { uri, code, message, documentId } = result.error;
    return { type: "document", ...(documentId ? { document_id: documentId } : {}), uri, status: "failed", code, message, warnings };
  }
  const { document, pages, chunks } = result;
  return {
    type: "document",
    document_id: document.documentId,
    uri: document.uri,
    status: documentStatus(document),
    ...(document.title ? { title: document.title } : {}),
    page_count: document.pageCount,
    pages: pages.map((p) => p.number),
    empty_pages: pages.filter((p) => p.empty).map((p) => p.number),
    scan_pages: pages.filter((p) => pageFlags(p).includes("scan")).map((p) => p.number),
    chunk_count: chunks.length,
    token_count: chunks.reduce((sum, c) => sum + c.tokenCount, 0),
    warnings,
  };
}

function warning(w: DocumentResult["warnings"][number]): object {
  return { code: w.code, message: w.message, ...(w.pages ? { pages: w.pages } : {}) };
}

function pageRecord(page: PageRecord, pageCount: number, includeLines: boolean): object {
  const label = pageLabel(page);
  return {
    type: "page",
    document_id: page.documentId,
    uri: page.uri,
    page: page.number,
    page_count: pageCount,
    text: page.text,
    empty: page.empty,
    mode: page.mode,
    order_source: page.orderSource,
    order_reason: page.orderReason,
    untagged_glyphs: page.untaggedGlyphs,
    columns: page.columns,
    flags: pageFlags(page),
    ...(page.scanReason ? { scan_reason: page.scanReason } : {}),
    ...(label ? { page_label: label } : {}),
    ...(page.furniture ? { furniture: { header: page.furniture.header, footer: page.furniture.footer } } : {}),
    ...(page.continues ? { continues: true } : {}),
    width: page.width,
    height: page.height,
    rotation: page.rotation,
    ...(includeLines ? { lines: page.lines.map(lineRecord) } : {}),
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
    runs: line.runs.map((run) => ({ text: run.text, x: r(run.x), y: r(run.y), width: r(run.width), font_size: r(run.fontSize), font: run.fontName })),
  };
}
