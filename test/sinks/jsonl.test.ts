import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DocumentResult, PageRecord } from "../../src/core/records.js";
import { emptySummary } from "../../src/run/delivery.js";
import jsonl from "../../src/sinks/jsonl.js";
import { METADATA_FIELDS } from "../../src/sinks/jsonl/chunk-shapes.js";
import { chunkId } from "../../src/stages/chunk/chunk-id.js";
import { DOC_ID, heading, page as fixturePage, result, text, URI } from "../stages/chunk-fixtures.js";

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
  orderReason: "no structure tree",
  untaggedGlyphs: 0,
  columns: n === 2 ? "uncertain" : 1,
  ...(n === 2 ? { furniture: { header: ["Annual Report"], footer: ["Page 2 of 2"], pageLabel: "2" }, continues: true } : {}),
});
const ok: DocumentResult = {
  status: "ok",
  uri: "/in/a.pdf",
  document: { documentId: "abc", uri: "/in/a.pdf", size: 10, pageCount: 2, tagged: false },
  pages: [page(1), page(2)],
  chunks: [],
  warnings: [{ code: "page_unreadable", message: "page 3 could not be read", pages: [3] }],
};
const failed: DocumentResult = { status: "failed", uri: "/in/b.pdf", error: { type: "error", uri: "/in/b.pdf", code: "not_pdf", message: "not a PDF" }, warnings: [] };
const summary = { ...emptySummary(), documents: 2, ok: 1, failed: 1, failedByCode: { not_pdf: 1 }, pages: 2, complete: true };

async function sink(options: Record<string, unknown> = {}, checkpoint?: unknown) {
  return jsonl.create(jsonl.options.parse({ path: "out/pages.jsonl", ...options }), { baseDir: dir, warn: () => {}, checkpoint });
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
      '{"type":"page","document_id":"abc","uri":"/in/a.pdf","page":1,"page_count":2,"text":"Hello","empty":false,"mode":"reflow","order_source":"geometry","order_reason":"no structure tree","untagged_glyphs":0,"columns":1,"flags":[],"width":612,"height":792,"rotation":0}',
      '{"type":"page","document_id":"abc","uri":"/in/a.pdf","page":2,"page_count":2,"text":"Hello","empty":false,"mode":"reflow","order_source":"geometry","order_reason":"no structure tree","untagged_glyphs":0,"columns":"uncertain","flags":["columns_uncertain"],"page_label":"2","furniture":{"header":["Annual Report"],"footer":["Page 2 of 2"]},"continues":true,"width":612,"height":792,"rotation":0}',
      '{"type":"warning","uri":"/in/a.pdf","code":"page_unreadable","message":"page 3 could not be read","pages":[3]}',
      '{"type":"error","uri":"/in/b.pdf","code":"not_pdf","message":"not a PDF"}',
    ]);
  });

  it("writes the document's path under the source's root after its uri, when the source gives one", async () => {
    const s = await sink();
    await s.write({ ...ok, path: "2026/a.pdf" });
    await s.write({ ...failed, path: "b.pdf" });
    await s.close(summary);
    const records = (await readFile(join(dir, "out/pages.jsonl"), "utf8")).trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(records.map((r) => Object.keys(r).slice(0, 4))).toEqual([
      ["type", "document_id", "uri", "path"],
      ["type", "document_id", "uri", "path"],
      ["type", "uri", "path", "code"],
      ["type", "uri", "path", "code"],
    ]);
    expect(records.map((r) => r.path)).toEqual(["2026/a.pdf", "2026/a.pdf", "2026/a.pdf", "b.pdf"]);
  });

  it("says on a page read by OCR that it was, and how (snake_case keys, after the page's own facts)", async () => {
    const s = await sink();
    const ocr = { engine: "tesseract" as const, version: "5.3.0", languages: ["eng", "deu"], dpi: 300, renderer: "pdftoppm" as const, words: 212, meanConfidence: 94.6, lowConfidenceWords: 3, skewDegrees: -0.8 };
    await s.write({ ...ok, pages: [{ ...page(1), scan: true, scanReason: "image_only", source: "ocr", ocr }] } as DocumentResult);
    await s.close(summary);
    const [line] = (await readFile(join(dir, "out/pages.jsonl"), "utf8")).split("\n");
    expect(line).toBe(
      '{"type":"page","document_id":"abc","uri":"/in/a.pdf","page":1,"page_count":2,"text":"Hello","empty":false,"mode":"reflow","order_source":"geometry","order_reason":"no structure tree","untagged_glyphs":0,"columns":1,"flags":["ocr","scan"],"scan_reason":"image_only",' +
        '"source":"ocr","ocr":{"engine":"tesseract","version":"5.3.0","languages":["eng","deu"],"dpi":300,"renderer":"pdftoppm","words":212,"mean_confidence":94.6,"low_confidence_words":3,"skew_degrees":-0.8},"width":612,"height":792,"rotation":0}',
    );
  });

  it("adds lines with their runs when include_lines is set", async () => {
    const s = await sink({ include_lines: true });
    await s.write(ok);
    await s.close(summary);
    const first = JSON.parse((await readFile(join(dir, "out/pages.jsonl"), "utf8")).split("\n")[0]!);
    expect(first.lines).toEqual([{ text: "Hello", x: 72, y: 700, width: 30, font_size: 12, runs: [{ text: "Hello", x: 72, y: 700, width: 30, font_size: 12, font: "f1" }] }]);
  });

  it("appends a run's documents after the previous run's, from the checkpoint the run state recorded", async () => {
    const first = await sink();
    expect(first.resumed).toBe(false);
    await first.write(ok);
    const token = await first.checkpoint();
    await first.close(summary);
    const second = await sink({}, token);
    expect(second.resumed).toBe(true);
    await second.write(failed);
    await second.checkpoint();
    await second.close(summary);
    expect((await readFile(join(dir, "out/pages.jsonl"), "utf8")).split("\n").map((l) => l && JSON.parse(l).type)).toEqual(["page", "page", "warning", "error", ""]);
    expect(await readdir(join(dir, "out"))).toEqual(["pages.jsonl"]);
  });

  it("drops what was written after the last checkpoint: on abort, and on reopening after a kill (a torn line too)", async () => {
    const first = await sink();
    await first.write(ok);
    const token = await first.checkpoint();
    const committed = await readFile(join(dir, "out/pages.jsonl"), "utf8");
    await first.write(failed);
    await first.abort();
    expect(await readFile(join(dir, "out/pages.jsonl"), "utf8")).toBe(committed);
    // A kill leaves an unacknowledged document and half a line after the checkpoint.
    await writeFile(join(dir, "out/pages.jsonl"), committed + '{"type":"error","uri":"/in/b.pdf"}\n{"type":"pa');
    const reopened = await sink({}, token);
    expect(reopened.resumed).toBe(true);
    await reopened.close(summary);
    expect(await readFile(join(dir, "out/pages.jsonl"), "utf8")).toBe(committed);
  });

  it("starts the file anew when it no longer matches its checkpoint (replaced, cut short)", async () => {
    const first = await sink();
    await first.write(ok);
    const token = await first.checkpoint();
    await first.close(summary);
    await writeFile(join(dir, "out/pages.jsonl"), "{}\n");
    const reopened = await sink({}, token);
    expect(reopened.resumed).toBe(false);
    await reopened.close(summary);
    expect(await readFile(join(dir, "out/pages.jsonl"), "utf8")).toBe("");
  });

  it("writes a tombstone before a replaced document's new records, and for a removed one when it prunes", async () => {
    const s = await sink({ prune: true });
    await s.write(failed, { documentId: "old" });
    await s.remove!("/in/a.pdf", { documentId: "abc" });
    await s.checkpoint();
    await s.close(summary);
    expect((await readFile(join(dir, "out/pages.jsonl"), "utf8")).trimEnd().split("\n")).toEqual([
      '{"type":"tombstone","uri":"/in/b.pdf","document_id":"old","reason":"replaced"}',
      '{"type":"error","uri":"/in/b.pdf","code":"not_pdf","message":"not a PDF"}',
      '{"type":"tombstone","uri":"/in/a.pdf","document_id":"abc","reason":"removed"}',
    ]);
    expect((await sink()).remove).toBeUndefined();
  });
});

describe("jsonl sink, chunk records", () => {
  const S = "The east berth closes on the third of May for repairs to the wall.";
  const pages = () => [page1(), page2()];
  const page1 = () => fixturePage(1, [heading("Berth Notice", 16), text(S)], { furniture: { header: [], footer: ["iv"], pageLabel: "iv" } });
  const page2 = () => fixturePage(2, [text("Questions go to the harbour office.")], { furniture: { header: [], footer: ["v"], pageLabel: "v" }, scan: true });

  async function chunkSink(options: Record<string, unknown> = {}, warnings: string[] = []) {
    return jsonl.create(jsonl.options.parse({ records: "chunks", path: "out/chunks.jsonl", ...options }), { baseDir: dir, warn: (m) => warnings.push(m) });
  }
  const lines = async (file: string) => (await readFile(join(dir, file), "utf8")).trimEnd().split("\n");

  it("writes one chunk per line — id, document_id, chunk_index, text, flat metadata — and the document records beside it", async () => {
    const s = await chunkSink();
    await s.write(await result(pages(), { title: "Berth Notice", limits: { maxTokens: 20 } }));
    await s.write(failed);
    await s.close(summary);
    const chunks = (await lines("out/chunks.jsonl")).map((l) => JSON.parse(l));
    expect(chunks.map((c) => Object.keys(c))).toEqual(chunks.map(() => ["id", "document_id", "chunk_index", "text", "metadata"]));
    expect(chunks[0]).toEqual({
      id: chunkId(DOC_ID, URI, 0),
      document_id: DOC_ID,
      chunk_index: 0,
      text: `Berth Notice\n\n${S}`,
      metadata: {
        source_uri: URI,
        title: "Berth Notice",
        page_start: 1,
        page_end: 1,
        page_labels: ["iv"],
        char_start: 0,
        char_end: 80,
        prefix_chars: 0,
        token_count: 19,
        tokenizer: "gpt-tokenizer",
        encoding: "cl100k_base",
        text_format: "plain",
        headings: ["Berth Notice"],
        headings_inside: ["Berth Notice"],
      },
    });
    expect(chunks.map((c) => [c.chunk_index, c.metadata.page_start, c.metadata.page_end, c.metadata.page_labels, c.metadata.flags])).toEqual([
      [0, 1, 1, ["iv"], undefined],
      [1, 2, 2, ["v"], ["scan"]],
    ]);
    // Flat: every metadata value is a string, a number or a non-empty list of strings; never null.
    for (const c of chunks) {
      for (const v of Object.values(c.metadata)) expect(typeof v === "string" || typeof v === "number" || (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "string"))).toBe(true);
    }
    expect((await lines("out/chunks.documents.jsonl")).map((l) => JSON.parse(l))).toEqual([
      {
        type: "document",
        document_id: DOC_ID,
        uri: URI,
        status: "ok",
        title: "Berth Notice",
        page_count: 2,
        pages: [1, 2],
        page_sizes: [
          { page: 1, width: 612, height: 792 },
          { page: 2, width: 612, height: 792 },
        ],
        empty_pages: [],
        scan_pages: [2],
        chunk_count: 2,
        token_count: chunks.reduce((n, c) => n + c.metadata.token_count, 0),
        warnings: [],
      },
      { type: "document", uri: "/in/b.pdf", status: "failed", code: "not_pdf", message: "not a PDF", warnings: [] },
    ]);
  });

  it("leaves the title out when the document has none: no key is ever null", async () => {
    const s = await chunkSink();
    await s.write(await result(pages()));
    await s.close(summary);
    const first = JSON.parse((await lines("out/chunks.jsonl"))[0]!);
    expect("title" in first.metadata).toBe(false);
    expect(JSON.stringify(first)).not.toContain("null");
  });

  it("with stable_keys, writes every metadata key on every line in one order, an empty one as \"\", [] or \"[]\" (a typed store's schema holds)", async () => {
    const s = await chunkSink({ stable_keys: true });
    await s.write(await result(pages(), { limits: { maxTokens: 20 } }));
    await s.close(summary);
    const chunks = (await lines("out/chunks.jsonl")).map((l) => JSON.parse(l));
    const keys = METADATA_FIELDS.map((f) => f.key);
    expect(chunks.map((c) => Object.keys(c.metadata))).toEqual(chunks.map(() => keys));
    expect(chunks[1].metadata).toEqual({
      source_uri: URI,
      path: "",
      title: "",
      page_start: 2,
      page_end: 2,
      page_labels: ["v"],
      char_start: 82,
      char_end: 117,
      prefix_chars: 0,
      token_count: 7,
      tokenizer: "gpt-tokenizer",
      encoding: "cl100k_base",
      text_format: "plain",
      headings: ["Berth Notice"],
      headings_inside: [],
      running_titles: [],
      flags: ["scan"],
      boxes: "[]",
    });
    // Whole numbers on the wire: a typed store reads them as integers.
    expect(await lines("out/chunks.jsonl")).toEqual(expect.arrayContaining([expect.stringContaining('"page_start":2,"page_end":2,')]));
  });

  it("keeps the run state's key of a sink that does not set stable_keys (no default is filled in), and refuses it for page records", () => {
    expect(Object.keys(jsonl.options.parse({ records: "chunks" }))).not.toContain("stable_keys");
    const settled = jsonl.settle!(jsonl.options.parse({ records: "pages", stable_keys: true }), { chunks: true });
    expect(settled.problems).toEqual([{ path: ["stable_keys"], message: "applies to chunk records only (records: chunks): it is about chunk metadata" }]);
  });

  it("lays a chunk out for each loader: langchain (LangChain.js), langchain_python (Python LangChain), llamaindex with the keys it must not embed", async () => {
    const layout = async (shape: string) => {
      await rm(join(dir, "out"), { recursive: true, force: true });
      const s = await chunkSink({ shape });
      await s.write(await result(pages(), { title: "Berth Notice", limits: { maxTokens: 20 } }));
      await s.close(summary);
      return JSON.parse((await lines("out/chunks.jsonl"))[0]!);
    };
    const flat = await layout("flat");
    const withIds = { document_id: DOC_ID, chunk_index: 0, ...flat.metadata };
    expect(await layout("langchain")).toEqual({ pageContent: flat.text, metadata: withIds, id: flat.id });
    expect(Object.keys(await layout("langchain_python"))).toEqual(["page_content", "metadata", "id"]);
    expect(await layout("langchain_python")).toEqual({ page_content: flat.text, metadata: withIds, id: flat.id });
    const llamaindex = await layout("llamaindex");
    expect(Object.keys(llamaindex)).toEqual(["id_", "text", "metadata", "excludedEmbedMetadataKeys", "excludedLlmMetadataKeys"]);
    expect(llamaindex.metadata).toEqual(withIds);
    // Embedded: the text alone. Shown to the LLM: what the text is and where to cite it.
    const all = Object.keys(withIds).concat("boxes");
    expect(all.filter((k) => !llamaindex.excludedEmbedMetadataKeys.includes(k))).toEqual([]);
    expect(all.filter((k) => !llamaindex.excludedLlmMetadataKeys.includes(k))).toEqual(["title", "page_start", "page_end", "page_labels", "headings"]);
  });

  it("keeps the chunk file and its document file at the same checkpoint, and tombstones a replaced document in both", async () => {
    const first = await chunkSink();
    await first.write(await result(pages()));
    const token = await first.checkpoint();
    await first.write(failed);
    await first.abort();
    const second = await jsonl.create(jsonl.options.parse({ records: "chunks", path: "out/chunks.jsonl" }), { baseDir: dir, warn: () => {}, checkpoint: token });
    expect(second.resumed).toBe(true);
    await second.write(await result(pages()), { documentId: DOC_ID });
    await second.checkpoint();
    await second.close(summary);
    const kinds = async (file: string) => (await lines(file)).map((l) => JSON.parse(l).type ?? "chunk");
    expect(await kinds("out/chunks.jsonl")).toEqual(["chunk", "tombstone", "chunk"]);
    expect(await kinds("out/chunks.documents.jsonl")).toEqual(["document", "tombstone", "document"]);
    // One file without the other (deleted by hand) does not describe the same documents: both start anew.
    await rm(join(dir, "out/chunks.documents.jsonl"));
    const third = await jsonl.create(jsonl.options.parse({ records: "chunks", path: "out/chunks.jsonl" }), { baseDir: dir, warn: () => {}, checkpoint: token });
    expect(third.resumed).toBe(false);
    await third.close(summary);
    expect(await readFile(join(dir, "out/chunks.jsonl"), "utf8")).toBe("");
  });

  it("says so when a chunk file gets no chunks because the pipeline has no chunk stage", async () => {
    const warnings: string[] = [];
    const s = await chunkSink({}, warnings);
    await s.write({ ...(await result(pages())), chunks: [] });
    await s.checkpoint();
    await s.close(summary);
    expect(warnings).toEqual(["chunks.jsonl has no chunks: the pipeline needs a chunk stage (- type: chunk) after extract"]);
    expect(await readFile(join(dir, "out/chunks.jsonl"), "utf8")).toBe("");
  });

  it("defaults to out/chunks.jsonl, and refuses include_lines for chunk records", async () => {
    const s = await jsonl.create(jsonl.options.parse({ records: "chunks" }), { baseDir: dir, warn: () => {} });
    await s.close(summary);
    expect((await readdir(join(dir, "out"))).sort()).toEqual(["chunks.documents.jsonl", "chunks.jsonl"]);
    const settled = jsonl.settle!(jsonl.options.parse({ records: "chunks", include_lines: true }), { chunks: true });
    expect(settled.problems).toEqual([{ path: ["include_lines"], message: "applies to page records only (records: pages)" }]);
  });

  it("writes chunks by default after a chunk stage, pages without one, and says which it chose", () => {
    const settle = (options: object, chunks: boolean) => jsonl.settle!(jsonl.options.parse(options), { chunks });
    expect(settle({}, true)).toMatchObject({ options: { records: "chunks" }, problems: [], notes: ["records: chunks (the pipeline has a chunk stage; records: pages writes page records instead)"] });
    expect(settle({}, false)).toMatchObject({ options: { records: "pages" }, problems: [], notes: ["records: pages (there is no chunk stage)"] });
    expect(settle({ records: "pages" }, true)).toMatchObject({ options: { records: "pages" }, notes: [] });
    expect(settle({ records: "chunks" }, false).problems).toEqual([{ path: ["records"], message: "chunks need a chunk stage in the pipeline (- type: chunk), and there is none" }]);
  });
});

describe("document records of a scanned document", () => {
  it("say status scan and which pages have no text", async () => {
    const { documentLine } = await import("../../src/sinks/jsonl.js");
    const scanned: DocumentResult = {
      ...ok,
      status: "ok",
      document: { documentId: "abc", uri: "/in/a.pdf", size: 10, pageCount: 2, tagged: false, scan: true, scanPages: [1, 2] },
      pages: [
        { ...page(1), text: "", empty: true, scan: true, scanReason: "image_only" },
        { ...page(2), text: "", empty: true, scan: true, scanReason: "image_only" },
      ],
      chunks: [],
    } as DocumentResult;
    expect(documentLine(scanned)).toMatchObject({ status: "scan", page_count: 2, scan_pages: [1, 2] });
  });
});
