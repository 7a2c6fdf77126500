import { mkdir, open, rename, rm, type FileHandle } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import { z } from "zod";
import { defineSink } from "../core/plugin.js";
import type { ChunkRecord, DocumentResult, Line, PageRecord } from "../core/records.js";
import { documentStatus, pageFlags, pageLabel } from "../core/page-facts.js";

const options = z
  .strictObject({
    records: z
      .enum(["pages", "chunks"])
      .default("pages")
      .describe(
        "What each line holds. pages: a record per page, document error and warning. chunks: one chunk per line, ready for an embedding job or a vector store (needs a chunk stage); document records (status, errors, warnings) go to a `.documents.jsonl` file beside it.",
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
  })
  .superRefine((o, ctx) => {
    if (o.include_lines && o.records === "chunks") ctx.addIssue({ code: "custom", path: ["include_lines"], message: "applies to page records only (records: pages)" });
  });

export default defineSink({
  type: "jsonl",
  summary: "One JSON object per line — page records, or chunk records with their document records in a second file — written atomically.",
  options,
  examples: [
    { path: "out/pages.jsonl" },
    { path: "out/pages-with-geometry.jsonl", include_lines: true },
    { records: "chunks", path: "out/chunks.jsonl" },
  ],
  async create(opts, context) {
    const target = resolve(context.baseDir, opts.path ?? (opts.records === "chunks" ? "out/chunks.jsonl" : "out/pages.jsonl"));
    await mkdir(dirname(target), { recursive: true });
    if (opts.records === "pages") {
      const file = await AtomicFile.open(target);
      return {
        write: (result) => file.append(jsonlRecords(result, opts.include_lines)),
        close: () => file.commit(),
        abort: () => file.discard(),
      };
    }
    const chunksFile = await AtomicFile.open(target);
    const documentsFile = await AtomicFile.open(documentsPath(target));
    let chunks = 0;
    let pagesWithText = 0;
    return {
      async write(result) {
        if (result.status === "ok") {
          const title = result.document.title;
          await chunksFile.append(result.chunks.map((c) => chunkLine(c, title)));
          chunks += result.chunks.length;
          pagesWithText += result.pages.filter((p) => !p.empty).length;
        }
        await documentsFile.append([documentLine(result)]);
      },
      async close() {
        await chunksFile.commit();
        await documentsFile.commit();
        if (chunks === 0 && pagesWithText > 0) context.warn(`${basename(target)} has no chunks: the pipeline needs a chunk stage (- type: chunk) after extract`);
      },
      async abort() {
        await chunksFile.discard();
        await documentsFile.discard();
      },
    };
  },
});

/** `out/chunks.jsonl` → `out/chunks.documents.jsonl`: the document records of a chunk file. */
export function documentsPath(chunksPath: string): string {
  return chunksPath.replace(/\.jsonl$/i, "") + ".documents.jsonl";
}

/**
 * A file written beside its final name and renamed over it when the run ends: a crash never
 * leaves a torn line in the file a reader sees, only a stale temporary file.
 */
class AtomicFile {
  private constructor(
    private readonly target: string,
    private readonly temp: string,
    private handle: FileHandle | undefined,
  ) {}

  static async open(target: string): Promise<AtomicFile> {
    const temp = `${target}.${process.pid}.tmp`;
    return new AtomicFile(target, temp, await open(temp, "w"));
  }

  async append(records: readonly object[]): Promise<void> {
    if (records.length > 0) await this.handle!.write(records.map((r) => JSON.stringify(r) + "\n").join(""));
  }

  async commit(): Promise<void> {
    await this.handle!.sync();
    await this.handle!.close();
    this.handle = undefined;
    await rename(this.temp, this.target);
  }

  async discard(): Promise<void> {
    await this.handle?.close().catch(() => {});
    this.handle = undefined;
    await rm(this.temp, { force: true });
  }
}

/** The JSONL records of one document, keys in a fixed order. */
export function jsonlRecords(result: DocumentResult, includeLines: boolean): object[] {
  const records: object[] = [];
  if (result.status === "failed") {
    const { uri, code, message, documentId } = result.error;
    records.push({ type: "error", uri, ...(documentId ? { doc_id: documentId } : {}), code, message });
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
    doc_id: chunk.documentId,
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
    return { type: "document", ...(documentId ? { doc_id: documentId } : {}), uri, status: "failed", code, message, warnings };
  }
  const { document, pages, chunks } = result;
  return {
    type: "document",
    doc_id: document.id,
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
    doc_id: page.documentId,
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
