import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DocumentResult, PageRecord } from "../../src/core/records.js";
import jsonl from "../../src/sinks/jsonl.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pagestream-jsonl-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const page = (n: number): PageRecord => ({
  type: "page",
  documentId: "abc",
  uri: "/in/a.pdf",
  number: n,
  width: 612,
  height: 792,
  rotation: 0,
  lines: [{ text: "Hello", x: 72, y: 700, width: 30, fontSize: 12, runs: [{ text: "Hello", x: 72, y: 700, width: 30, fontSize: 12, fontName: "f1" }] }],
  paragraphs: [{ start: 0, end: 1, kind: "text" }],
  text: "Hello",
  mode: "reflow",
  empty: false,
  orderSource: "geometry",
});
const ok: DocumentResult = {
  status: "ok",
  uri: "/in/a.pdf",
  document: { id: "abc", uri: "/in/a.pdf", size: 10, pageCount: 2, tagged: false },
  pages: [page(1), page(2)],
  chunks: [],
  warnings: [{ code: "page_unreadable", message: "page 3 could not be read", pages: [3] }],
};
const failed: DocumentResult = { status: "failed", uri: "/in/b.pdf", error: { type: "error", uri: "/in/b.pdf", code: "not_pdf", message: "not a PDF" }, warnings: [] };
const summary = { documents: 2, ok: 1, failed: 1, failedByCode: { not_pdf: 1 }, pages: 2, emptyPages: 0, seconds: 0 };

async function sink(options: Record<string, unknown> = {}) {
  return jsonl.create(jsonl.options.parse({ path: "out/pages.jsonl", ...options }), { baseDir: dir, warn: () => {} });
}

describe("jsonl sink", () => {
  it("writes a line per page, per error and per warning, keys in a fixed order", async () => {
    const s = await sink();
    await s.write(ok);
    await s.write(failed);
    await s.close(summary);
    const lines = (await readFile(join(dir, "out/pages.jsonl"), "utf8")).split("\n");
    expect(lines.pop()).toBe("");
    expect(lines).toEqual([
      '{"type":"page","doc_id":"abc","uri":"/in/a.pdf","page":1,"page_count":2,"text":"Hello","empty":false,"mode":"reflow","order_source":"geometry","width":612,"height":792,"rotation":0}',
      '{"type":"page","doc_id":"abc","uri":"/in/a.pdf","page":2,"page_count":2,"text":"Hello","empty":false,"mode":"reflow","order_source":"geometry","width":612,"height":792,"rotation":0}',
      '{"type":"warning","uri":"/in/a.pdf","code":"page_unreadable","message":"page 3 could not be read","pages":[3]}',
      '{"type":"error","uri":"/in/b.pdf","code":"not_pdf","message":"not a PDF"}',
    ]);
  });

  it("adds lines with their runs when include_lines is set", async () => {
    const s = await sink({ include_lines: true });
    await s.write(ok);
    await s.close(summary);
    const first = JSON.parse((await readFile(join(dir, "out/pages.jsonl"), "utf8")).split("\n")[0]!);
    expect(first.lines).toEqual([{ text: "Hello", x: 72, y: 700, width: 30, font_size: 12, runs: [{ text: "Hello", x: 72, y: 700, width: 30, font_size: 12, font: "f1" }] }]);
  });

  it("shows nothing of a run in progress: the file appears whole when the run ends", async () => {
    await writeFile(join(dir, "previous.jsonl"), "");
    const s = await sink();
    await s.write(ok);
    await expect(readFile(join(dir, "out/pages.jsonl"))).rejects.toThrow(/ENOENT/);
    await s.close(summary);
    expect((await readFile(join(dir, "out/pages.jsonl"), "utf8")).split("\n")).toHaveLength(4);
    expect(await readdir(join(dir, "out"))).toEqual(["pages.jsonl"]);
  });

  it("leaves the previous output untouched when the run is aborted", async () => {
    const first = await sink();
    await first.write(ok);
    await first.close(summary);
    const before = await readFile(join(dir, "out/pages.jsonl"), "utf8");
    const second = await sink();
    await second.write(failed);
    await second.abort();
    expect(await readFile(join(dir, "out/pages.jsonl"), "utf8")).toBe(before);
    expect(await readdir(join(dir, "out"))).toEqual(["pages.jsonl"]);
  });
});
