/**
 * Long documents (issue 35): the built-in stages take a document a window of pages at a time and
 * the worker sends its records to the run in parts as they come, so what a worker holds does not
 * grow with the document's length. Windows are lowered here (DocumentLimits.windowPages) so that
 * a document of a few pages spans several.
 */
import { from, map } from "rxjs";
import PDFDocument from "pdfkit";
import { describe, expect, it } from "vitest";
import type { DocumentLimits, Source, Stage } from "../../src/core/plugin.js";
import type { ChunkRecord, DocRecord, DocumentResult, Line, LoadedDocument, PageRecord } from "../../src/core/records.js";
import { loadSpec } from "../../src/pipeline/registry.js";
import { processJob, processLoaded, trimResult } from "../../src/run/process-document.js";
import { withParts, type ResultPart } from "../../src/run/result-parts.js";
import { pageRecord } from "../helpers/page-record.js";

const BODY = [
  "The east berth closes on the third of May for repairs to the quay wall and its fenders, and vessels over ninety metres are directed to the west berth while the work lasts.",
  "Pilots board at the outer buoy two hours before high water, weather permitting, and cargo handlers report to the harbour office before the first shift of each week.",
  "The dredging of the inner channel resumes once the survey vessel has finished its soundings; fuel is supplied from the north jetty between six in the morning and eight at night.",
];

/** A report of `pages` pages: a running header, a section heading and three paragraphs on each, and "Page n of N" at the foot. */
function reportPdf(pages: number): Promise<Buffer> {
  const doc = new PDFDocument({ size: "LETTER", margin: 72, autoFirstPage: false, compress: false, info: { CreationDate: new Date(0), ModDate: new Date(0) } });
  const parts: Buffer[] = [];
  doc.on("data", (c: Buffer) => parts.push(Buffer.from(c)));
  const done = new Promise<Buffer>((ok, fail) => {
    doc.on("end", () => ok(Buffer.concat(parts)));
    doc.on("error", fail);
  });
  for (let n = 1; n <= pages; n++) {
    doc.addPage();
    doc.font("Helvetica").fontSize(9).text("Harbour Authority Annual Report", 72, 40, { lineBreak: false });
    doc.font("Helvetica-Bold").fontSize(16).text(`Section ${n}: berths and channels`, 72, 90, { lineBreak: false });
    doc.font("Helvetica").fontSize(11);
    let y = 130;
    for (const [i, paragraph] of [...BODY, ...BODY].entries()) {
      doc.text(`${paragraph} Notice ${n}.${i}.`, 72, y, { width: 468, lineGap: 3 });
      y = doc.y + 14;
    }
    doc.font("Helvetica").fontSize(9).text(`Page ${n} of ${pages}`, 72, 740, { lineBreak: false });
  }
  doc.end();
  return done;
}

/** The default pipeline's stages (extract … chunk), chunked without overlap so that every chunk is one section. */
async function defaultStages(): Promise<Stage[]> {
  const context = { baseDir: process.cwd(), warn: () => {} };
  const options: Record<string, Record<string, unknown>> = { chunk: { max_tokens: 512, overlap_tokens: 0, text_format: "markdown" } };
  const stages: Stage[] = [];
  for (const type of ["extract", "flag-scans", "strip-furniture", "dehyphenate", "chunk"]) {
    const spec = await loadSpec("stage", type, process.cwd());
    stages.push(await spec.create(spec.options.parse(options[type] ?? {}), context));
  }
  return stages;
}

function loaded(bytes: Uint8Array): LoadedDocument {
  return { item: { uri: "file:///report.pdf", size: bytes.length, mtimeMs: 0, fingerprint: "f" }, documentId: "0".repeat(64), bytes: new Uint8Array(bytes) };
}

function ok(result: DocumentResult) {
  if (result.status !== "ok") throw new Error(`${result.error.code}: ${result.error.message}`);
  return result;
}

describe("a document read a window of pages at a time", () => {
  it("comes out as it does read whole: furniture, page labels, headings and chunks across the windows' edges", async () => {
    const input = loaded(await reportPdf(10));
    const stages = await defaultStages();
    const whole = ok(await processLoaded(input, stages, { maxPages: Infinity }));
    // 10 pages in windows of 3: four windows, edges after pages 3, 6 and 9.
    const windowed = ok(await processLoaded(input, stages, { maxPages: Infinity, windowPages: 3 }));
    expect(whole.pages.map((p) => p.furniture?.pageLabel)).toEqual(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]);
    expect(whole.pages.every((p) => p.furniture?.header.join() === "Harbour Authority Annual Report")).toBe(true);
    expect(whole.chunks.map((c) => c.pageStart)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(windowed.pages).toEqual(whole.pages);
    expect(windowed.chunks).toEqual(whole.chunks);
    expect(windowed.document).toEqual(whole.document);
    expect(windowed.warnings).toEqual(whole.warnings);
  });

  it("numbers chunks and places their offsets in the document's text across windows, and carries the heading in force", async () => {
    const input = loaded(await reportPdf(5));
    const stages = await defaultStages();
    const windowed = ok(await processLoaded(input, stages, { maxPages: Infinity, windowPages: 2 }));
    expect(windowed.chunks.map((c) => c.index)).toEqual([0, 1, 2, 3, 4]);
    for (const [i, chunk] of windowed.chunks.entries()) {
      if (i > 0) expect(chunk.charStart).toBe(windowed.chunks[i - 1]!.charEnd + 2);
      expect(chunk.charEnd - chunk.charStart).toBe(chunk.text.length - chunk.prefix.length);
      expect(chunk.headings).toEqual([`Section ${i + 1}: berths and channels`]);
    }
  });
});

function fail(message: string): never {
  throw new Error(message);
}

const WORDS = ["Pilots", "Dredgers", "Tugs", "Ferries", "Trawlers", "Tankers", "Barges"];

/** A synthetic page: a running header, twenty body lines (different from page to page), a page number. */
function syntheticPage(n: number): PageRecord {
  const line = (text: string, y: number, fontSize = 11): Line => ({ text, x: 72, y, width: 6 * text.length, fontSize, runs: [] });
  const body = Array.from({ length: 20 }, (_, i) => line(`${WORDS[(n + i) % WORDS.length]} report to the harbour office before the tide turns,`, 700 - 14 * i));
  const lines = [line("Harbour Authority Annual Report", 750, 9), ...body, line(`${n}`, 40, 9)];
  return pageRecord(lines, [{ start: 0, end: 1, kind: "text" }, { start: 1, end: 21, kind: "text" }, { start: 21, end: 22, kind: "text" }], { number: n });
}

/**
 * A first stage that makes `pages` synthetic pages one at a time, with a pause between two, saying
 * when each goes; `saysLastPage`: it tells the stages after it which page is its last, as the extract stage does.
 */
function slowPages(pages: number, events: string[], saysLastPage = false): Stage {
  return {
    apply: (_records, context) => {
      context.document = { documentId: context.input.documentId, uri: context.input.item.uri, size: 1, pageCount: pages, tagged: false };
      if (saysLastPage) context.lastPage = pages;
      return from(
        (async function* () {
          for (let n = 1; n <= pages; n++) {
            await new Promise((resolve) => setTimeout(resolve, 2));
            events.push(`page ${n}`);
            yield syntheticPage(n) as DocRecord;
          }
        })(),
      );
    },
  };
}

describe("a worker's records on their way to the run", () => {
  const source: Source = { list: async function* () {}, read: async () => Buffer.from("%PDF-1.4\n") };
  const job = { item: { uri: "file:///long.pdf", size: 9, mtimeMs: 0, fingerprint: "f" } };
  const limits = (windowPages?: number): DocumentLimits & { maxFileBytes: number } => ({ maxPages: Infinity, maxFileBytes: Infinity, ...(windowPages ? { windowPages } : {}) });

  it("go out in parts through every built-in stage before the document's last page is read", async () => {
    const [, ...rest] = await defaultStages();
    const events: string[] = [];
    const parts: ResultPart[] = [];
    const onPart = (part: ResultPart) => {
      parts.push(part);
      events.push(`part ${part.pages.map((p) => p.number).join(",")}`);
    };
    // Each stage holds a window (and strip-furniture two pages more, dehyphenate one): 30 pages
    // in windows of 3 leave room for the first records to come out while pages are still read.
    const outcome = await processJob(job, source, [slowPages(30, events), ...rest], limits(3), { lines: false }, undefined, { send: onPart, chunks: true });
    expect(outcome.kind).toBe("processed");
    const firstPart = events.findIndex((e) => e.startsWith("part"));
    expect(firstPart).toBeGreaterThanOrEqual(0);
    expect(firstPart).toBeLessThan(events.indexOf("page 30"));
    // The outcome carries none of them: put together, they are the result a whole read gives.
    if (outcome.kind !== "processed") throw new Error("processed");
    expect(ok(outcome.result).pages).toEqual([]);
    const whole = trimResult(await processLoaded({ item: { ...job.item }, documentId: outcome.documentId!, bytes: Buffer.from("%PDF-1.4\n") }, [slowPages(30, []), ...rest], limits(3)), { lines: false });
    const assembled = ok(withParts(outcome.result, parts));
    expect(assembled.pages).toEqual(ok(whole).pages);
    expect(assembled.chunks).toEqual(ok(whole).chunks);
    expect(assembled.pages.map((p) => p.number)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(assembled.pages.every((p) => p.lines.length === 0 && typeof p.markdown === "string")).toBe(true);
    expect(assembled.chunks.map((c: ChunkRecord) => c.index)).toEqual(assembled.chunks.map((_, i) => i));
  });

  it("leave each stage as soon as its window is full when the first stage says which page is its last, not a window later at each stage", async () => {
    const [, ...rest] = await defaultStages();
    // The page read when the first part left, and the result put together from the parts.
    const firstPartAfter = async (saysLastPage: boolean) => {
      const events: string[] = [];
      const parts: ResultPart[] = [];
      const onPart = (part: ResultPart) => {
        parts.push(part);
        events.push("part");
      };
      const outcome = await processJob(job, source, [slowPages(30, events, saysLastPage), ...rest], limits(3), { lines: false }, undefined, { send: onPart, chunks: true });
      if (outcome.kind !== "processed") throw new Error("processed");
      const pagesBefore = events.slice(0, events.indexOf("part")).length;
      return { pagesBefore, assembled: ok(withParts(outcome.result, parts)) };
    };
    const told = await firstPartAfter(true);
    const untold = await firstPartAfter(false);
    // Four window stages: waiting for the page after each full window held one window (3 pages) more at each.
    expect(untold.pagesBefore).toBeGreaterThanOrEqual(12);
    // Told, what is held is the pages strip-furniture and dehyphenate keep across a window's edge, and the windows filling.
    expect(told.pagesBefore).toBeLessThanOrEqual(9);
    // The same records either way.
    expect(told.assembled).toEqual(untold.assembled);
  });

  it("of a document that fails after some went out reach the run as its failure alone", async () => {
    const events: string[] = [];
    // Fails on page 9, after flag-scans let the windows before it go.
    const failing: Stage = { apply: (records) => records.pipe(map((r) => (r.type === "page" && r.number === 9 ? fail("bad page 9") : r))) };
    const [, flagScans] = await defaultStages();
    const parts: ResultPart[] = [];
    const outcome = await processJob(job, source, [slowPages(12, events), flagScans!, failing], limits(2), { lines: false }, undefined, { send: (part) => parts.push(part), chunks: false });
    if (outcome.kind !== "processed") throw new Error("processed");
    expect(outcome.result.status).toBe("failed");
    expect(parts.length).toBeGreaterThan(0);
    expect(withParts(outcome.result, parts)).toEqual(outcome.result);
  });
});
