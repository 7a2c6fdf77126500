import { mkdir, open, rename, rm, type FileHandle } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { z } from "zod";
import { defineSink } from "../core/plugin.js";
import type { DocumentResult, Line, PageRecord } from "../core/records.js";

const options = z.strictObject({
  path: z.string().min(1).default("out/pages.jsonl").describe("The file to write, relative to the pipeline file."),
  include_lines: z
    .boolean()
    .default(false)
    .describe("Also write each page's lines with their runs and positions (larger files; for layout-aware consumers)."),
});

export default defineSink({
  type: "jsonl",
  summary: "One JSON object per line: a record per page, per document error and per warning, written atomically.",
  options,
  examples: [{ path: "out/pages.jsonl" }, { path: "out/pages-with-geometry.jsonl", include_lines: true }],
  async create(opts, context) {
    const target = resolve(context.baseDir, opts.path);
    await mkdir(dirname(target), { recursive: true });
    // Written beside the target and renamed over it at the end: a crash never leaves a torn
    // line in the file a reader sees, only a stale temporary file.
    const temp = `${target}.${process.pid}.tmp`;
    let handle: FileHandle | undefined = await open(temp, "w");
    return {
      async write(result) {
        await handle!.write(jsonlRecords(result, opts.include_lines).map((r) => JSON.stringify(r) + "\n").join(""));
      },
      async close() {
        await handle!.sync();
        await handle!.close();
        handle = undefined;
        await rename(temp, target);
      },
      async abort() {
        await handle?.close().catch(() => {});
        handle = undefined;
        await rm(temp, { force: true });
      },
    };
  },
});

/** The JSONL records of one document, keys in a fixed order. */
export function jsonlRecords(result: DocumentResult, includeLines: boolean): object[] {
  const records: object[] = [];
  if (result.status === "failed") {
    const { uri, code, message, documentId } = result.error;
    records.push({ type: "error", uri, ...(documentId ? { doc_id: documentId } : {}), code, message });
  } else {
    for (const page of result.pages) records.push(pageRecord(page, result.document.pageCount, includeLines));
  }
  for (const w of result.warnings) {
    records.push({ type: "warning", uri: result.uri, code: w.code, message: w.message, ...(w.pages ? { pages: w.pages } : {}) });
  }
  return records;
}

function pageRecord(page: PageRecord, pageCount: number, includeLines: boolean): object {
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
