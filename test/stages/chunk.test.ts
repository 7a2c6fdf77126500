import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { lastValueFrom, of, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import { countTokens as cl100kCount } from "gpt-tokenizer/encoding/cl100k_base";
import { parsePipeline, formatIssue } from "../../src/pipeline/config.js";
import type { DocumentContext } from "../../src/core/plugin.js";
import type { ChunkRecord, DocRecord, PageRecord } from "../../src/core/records.js";
import { loadSpec } from "../../src/pipeline/registry.js";
import { processFile } from "../../src/run/process-document.js";
import { documentView, type Block } from "../../src/text/document-view.js";
import { withBlockRoles } from "../../src/text/block-roles.js";
import { sentenceStarts, spansAt } from "../../src/stages/chunk/boundaries.js";
import { chunkId, uuidV5 } from "../../src/stages/chunk/chunk-id.js";
import { documentText } from "../../src/text/document-text.js";
import { CUT, cutBetween, sectionCut } from "../../src/stages/chunk/pieces.js";
import chunkStage from "../../src/stages/chunk/stage.js";
import { chunk, code, DOC_ID, heading, page, table, text, tokenizer, URI } from "./chunk-fixtures.js";

// Sentences of 15, 14 and 13 tokens (cl100k_base), and a tail of 7.
const S0 = "The east berth closes on the third of May for repairs to the wall.";
const S1 = "Fishing vessels will use the outer wall until the work is done.";
const S2 = "The harbour master will assign the berths each morning at seven.";
const TAIL = "It is open again in June.";

const texts = (chunks: ChunkRecord[]) => chunks.map((c) => c.text);

describe("chunk stage: where chunks are cut", () => {
  it("measures the example sentences as the tests assume", () => {
    expect([S0, S1, S2, TAIL].map((s) => cl100kCount(s))).toEqual([15, 14, 13, 7]);
  });

  it("cuts before a heading rather than after the paragraph that follows it", async () => {
    // Greedy filling would end the first chunk after "2. Moorings" and its first paragraph.
    const pages = [page(1, [heading("Annual Report", 20), heading("1. Berths", 14), text(S0), text(S1), heading("2. Moorings", 14), text(S2), text(S0)])];
    expect(texts(await chunk(pages, { maxTokens: 50 }))).toEqual([
      `Annual Report\n\n1. Berths\n\n${S0}\n\n${S1}`,
      `2. Moorings\n\n${S2}\n\n${S0}`,
    ]);
  });

  it("keeps paragraphs whole rather than filling a chunk with the next paragraph's first sentence", async () => {
    const pages = [page(1, [text(S0, S1), text(S2, S0)])];
    expect(texts(await chunk(pages, { maxTokens: 45 }))).toEqual([`${S0} ${S1}`, `${S2} ${S0}`]);
  });

  it("cuts a paragraph that does not fit between sentences", async () => {
    const pages = [page(1, [text(S0, S1, S2)])];
    expect(texts(await chunk(pages, { maxTokens: 40 }))).toEqual([`${S0} ${S1}`, S2]);
  });

  it("cuts a sentence that does not fit between words, never inside one", async () => {
    const sentence = `${S0.slice(0, -1)} and ${S1.toLowerCase()}`;
    const chunks = await chunk([page(1, [text(sentence)])], { maxTokens: 16 });
    expect(chunks.length).toBeGreaterThan(1);
    expect(texts(chunks).join(" ")).toBe(sentence);
    for (const c of chunks) expect(c.tokenCount).toBeLessThanOrEqual(16);
  });

  it("keeps a heading with what it heads, and a chain of headings together", async () => {
    const pages = [page(1, [text(S0, S1), heading("Part Two", 20), heading("2.1 Berths", 14), text(S2)])];
    expect(texts(await chunk(pages, { maxTokens: 36 }))).toEqual([`${S0} ${S1}`, `Part Two\n\n2.1 Berths\n\n${S2}`]);
  });

  it("does not prefer a page break in mid-sentence as a cut", () => {
    const t = "the work will be\n\nfinished in June.\n\nA new paragraph.\n\nAfter a full stop.\n\nlower case again";
    const block = (start: string, end: string, p: number, kind: Block["kind"] = "text", level?: number): Block => ({
      kind,
      start: t.indexOf(start),
      end: t.indexOf(end) + end.length,
      page: p,
      ...(level ? { level } : {}),
    });
    const willBe = block("the work", "will be", 1);
    const finished = block("finished", "June.", 2);
    expect(cutBetween(willBe, finished, t)).toBe(CUT.word);
    expect(cutBetween(willBe, { ...finished, page: 1 }, t)).toBe(CUT.paragraph); // same page: a real paragraph break
    expect(cutBetween(block("After", "stop.", 2), block("lower", "again", 3), t)).toBe(CUT.paragraph); // the page ended a sentence
    expect(cutBetween(block("A new", "paragraph.", 2), block("After", "stop.", 3), t)).toBe(CUT.paragraph);
    expect(cutBetween({ ...block("A new", "paragraph.", 2), continues: true }, block("After", "stop.", 3), t)).toBe(CUT.word); // dehyphenation said it goes on
    expect(cutBetween(willBe, { ...finished, kind: "heading", level: 2 }, t)).toBe(sectionCut(2));
    expect(cutBetween({ ...willBe, kind: "heading", level: 1 }, finished, t)).toBe(CUT.word);
    expect(sectionCut(1)).toBeGreaterThan(sectionCut(2));
    expect(sectionCut(6)).toBeGreaterThan(CUT.paragraph);
  });
});

describe("chunk stage: tables and code listings", () => {
  const rows = ["Berth\tVessel\tFrom", "North\tFerry\t06:00", "East\tTrawler\t07:30", "West\tYacht\t09:15"];

  it("keeps a table whole when it fits", async () => {
    expect(texts(await chunk([page(1, [text(S0), table(...rows)])], { maxTokens: 60 }))).toEqual([`${S0}\n\n${rows.join("\n")}`]);
  });

  it("splits a table that does not fit by rows, each part repeating the header row", async () => {
    const chunks = await chunk([page(1, [table(...rows, "South\tTug\t10:45", "Quay\tBarge\t12:00")])], { maxTokens: 24 });
    expect(texts(chunks)).toEqual([
      "Berth\tVessel\tFrom\nNorth\tFerry\t06:00\nEast\tTrawler\t07:30",
      "Berth\tVessel\tFrom\nWest\tYacht\t09:15\nSouth\tTug\t10:45",
      "Berth\tVessel\tFrom\nQuay\tBarge\t12:00",
    ]);
    expect(chunks.map((c) => c.prefix)).toEqual(["", "Berth\tVessel\tFrom\n", "Berth\tVessel\tFrom\n"]);
    const doc = documentText([page(1, [table(...rows, "South\tTug\t10:45", "Quay\tBarge\t12:00")])]).text;
    for (const c of chunks) expect(c.text).toBe(c.prefix + doc.slice(c.charStart, c.charEnd));
  });

  it("shows tables as Markdown with text_format markdown, a continued part repeating the header and its separator", async () => {
    const pages = [page(1, [table(...rows, "South\tTug\t10:45", "Quay\tBar|ge\t12:00")])];
    const chunks = await chunk(pages, { maxTokens: 40 }, DOC_ID, "markdown");
    const head = "| Berth | Vessel | From |\n| --- | --- | --- |";
    expect(texts(chunks)).toEqual([
      `${head}\n| North | Ferry | 06:00 |\n| East | Trawler | 07:30 |`,
      `${head}\n| West | Yacht | 09:15 |\n| South | Tug | 10:45 |`,
      `${head}\n| Quay | Bar\\|ge | 12:00 |`,
    ]);
    expect(chunks.every((c) => c.tokenCount <= 40)).toBe(true);
    // Offsets point into the Markdown view the chunks carry: each chunk is its prefix and its span of it.
    const view = documentView(withBlockRoles(pages), "markdown").text;
    for (const c of chunks) expect(c.text).toBe(c.prefix + view.slice(c.charStart, c.charEnd));
  });

  it("never ends a chunk with a table's header row: the header goes with the rows under it", async () => {
    const pages = [page(1, [text(S0), table(...rows, "South\tTug\t10:45", "Quay\tBarge\t12:00")])];
    const tsv = await chunk(pages, { maxTokens: 40 });
    expect(tsv.every((c) => !c.text.endsWith(rows[0]!))).toBe(true);
    expect(tsv[0]!.text).toContain(`${rows[0]}\n${rows[1]}`);
    const markdown = await chunk(pages, { maxTokens: 40 }, DOC_ID, "markdown");
    expect(markdown.every((c) => !c.text.endsWith("| --- | --- | --- |"))).toBe(true);
  });

  it("splits a code listing that does not fit at line breaks, indentation kept", async () => {
    const listing = ["def berth_for(vessel):", "    if vessel.length > 40:", "        return 'north'", "    if vessel.kind == 'ferry':", "        return 'east'", "    return 'outer wall'"];
    const chunks = await chunk([page(1, [code(...listing)])], { maxTokens: 24 });
    expect(texts(chunks)).toEqual([listing.slice(0, 3).join("\n"), listing.slice(3).join("\n")]);
  });
});

describe("chunk stage: overlap and small chunks", () => {
  it("starts the overlap at a sentence start inside the chunk before", async () => {
    const chunks = await chunk([page(1, [text(S0, S1, S2), text(S1, S2)])], { maxTokens: 48, overlapTokens: 16 });
    expect(texts(chunks)).toEqual([`${S0} ${S1}`, `${S1} ${S2}`, `${S2}\n\n${S1} ${S2}`]);
    expect(chunks.map((c) => [c.charStart, c.charEnd])).toEqual([
      [0, 130],
      [67, 195],
      [131, 325],
    ]);
  });

  it("never repeats text across documents: a document's first chunk has no overlap", async () => {
    const [first] = await chunk([page(1, [text(S0, S1, S2), text(S1, S2)])], { maxTokens: 48, overlapTokens: 16 });
    expect(first!.charStart).toBe(0);
  });

  it("leaves a tiny tail alone without min_tokens, and gives it words from the chunk before with it", async () => {
    const pages = [page(1, [text(S0, S1, S2, TAIL)])];
    expect(texts(await chunk(pages, { maxTokens: 28 }))).toEqual([S0, `${S1} ${S2}`, TAIL]);
    expect(texts(await chunk(pages, { maxTokens: 28, minTokens: 10 }))).toEqual([S0, S1, `${S2} ${TAIL}`]);
  });

  it("merges a tiny section into the chunk before when they fit together, giving up the stronger cut", async () => {
    // The H1 "Note" is the strongest cut, which leaves it and its 7-token paragraph alone.
    const pages = [page(1, [text(S0, S2), heading("Note", 20), text(TAIL), heading("Next", 14), text(S1, S2, TAIL)])];
    expect(texts(await chunk(pages, { maxTokens: 40 }))).toEqual([`${S0} ${S2}`, `Note\n\n${TAIL}`, `Next\n\n${S1} ${S2} ${TAIL}`]);
    expect(texts(await chunk(pages, { maxTokens: 40, minTokens: 12 }))).toEqual([`${S0} ${S2}\n\nNote\n\n${TAIL}`, `Next\n\n${S1} ${S2} ${TAIL}`]);
  });
});

describe("chunk stage: what every chunk knows", () => {
  it("keeps a short document in one chunk, with its pages, labels, offsets, headings, flags and id", async () => {
    const pages = [
      page(1, [heading("Harbour Notice", 16), text("The east berth closes on 3 May.", "Fishing vessels use the outer wall.")], { furniture: { header: [], footer: ["iv"], pageLabel: "iv" }, columns: "uncertain" }),
      page(2, [], {}),
      page(3, [text("Questions go to the harbour office.")], { furniture: { header: [], footer: ["v"], pageLabel: "v" }, ocrLayer: true }),
    ];
    const documentText = "Harbour Notice\n\nThe east berth closes on 3 May. Fishing vessels use the outer wall.\n\nQuestions go to the harbour office.";
    expect(await chunk(pages, { maxTokens: 100, overlapTokens: 10, minTokens: 5 })).toEqual([
      {
        type: "chunk",
        id: "622ae7f4-2fbe-52a5-8a65-93d88c465d08",
        documentId: DOC_ID,
        uri: URI,
        index: 0,
        text: documentText,
        prefix: "",
        pageStart: 1,
        pageEnd: 3,
        pageLabels: ["iv", "v"],
        charStart: 0,
        charEnd: documentText.length,
        tokenCount: cl100kCount(documentText),
        tokenizer: "gpt-tokenizer",
        encoding: "cl100k_base",
        limits: { maxTokens: 100, overlapTokens: 10, minTokens: 5 },
        headings: ["Harbour Notice"],
        headingsInside: ["Harbour Notice"],
        runningTitles: [],
        textFormat: "plain",
        flags: ["columns_uncertain", "ocr_layer"],
        // These pages say nothing of where their lines stand on the displayed page (no toDisplay).
        boxes: [],
      },
    ]);
  });

  it("gives the heading path from font sizes: the largest size is the outermost heading", async () => {
    const pages = [
      page(1, [heading("Annual Report", 20), heading("1. Traffic", 16), heading("1.1 Ferries", 13), text(S0)]),
      page(2, [heading("2. Finance", 16), text(S1), heading("2.1 Income", 13), text(S2)]),
    ];
    const chunks = await chunk(pages, { maxTokens: 30 });
    // The path in force where each chunk starts, and every heading that starts inside it.
    expect(chunks.map((c) => [c.text.split("\n")[0], c.headings, c.headingsInside])).toEqual([
      ["Annual Report", ["Annual Report"], ["Annual Report", "1. Traffic", "1.1 Ferries"]],
      ["2. Finance", ["Annual Report", "2. Finance"], ["2. Finance"]],
      ["2.1 Income", ["Annual Report", "2. Finance", "2.1 Income"], ["2.1 Income"]],
    ]);
  });

  it("says every section a chunk covers, and the path in force where it starts, not where its first heading is", async () => {
    // One chunk holds the end of §8, all of §9 and the start of §10 (the Bitcoin paper's chunk 9).
    const pages = [page(1, [heading("Paper", 20), heading("8. Verification", 14), text(S0, S1), heading("9. Value", 14), text(S2), heading("10. Privacy", 14), text(TAIL)])];
    const chunks = await chunk(pages, { maxTokens: 400 });
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.headingsInside).toEqual(["Paper", "8. Verification", "9. Value", "10. Privacy"]);
    // Cut smaller, with an overlap: the chunk that holds §9's text starts in §8's (its overlap
    // repeats §8's last sentence) and says so, and names §9 and §10 as inside it.
    const split = await chunk(pages, { maxTokens: 60, overlapTokens: 12 });
    const middle = split.find((c) => c.text.includes(S2))!;
    expect(middle.text.startsWith("9. Value")).toBe(false);
    expect(middle.headings).toEqual(["Paper", "8. Verification"]);
    expect(middle.headingsInside[0]).toBe("9. Value");
  });

  it("takes heading levels from structure roles over sizes, and a tagged P is no heading however large", async () => {
    const pages = [page(1, [{ lines: ["Overview"], tag: "H2" }, text(S0), { lines: ["A pull quote"], size: 24, tag: "P" }, text(S1)])];
    const [only] = await chunk(pages, { maxTokens: 100 });
    expect(only!.headings).toEqual(["Overview"]);
  });

  it("does not take a large paragraph of body text for a heading", async () => {
    const big = { lines: [S0, S1, S2, S0], size: 14 };
    const [only] = await chunk([page(1, [big, text(S1)])], { maxTokens: 200 });
    expect(only!.headings).toEqual([]);
  });

  it("makes ids that are UUIDv5 of the document hash, the chunk index and the uri, the same on every run", async () => {
    const pages = [page(1, [text(S0, S1, S2)])];
    const first = await chunk(pages, { maxTokens: 20 });
    expect(first.map((c) => c.id)).toEqual(first.map((_, i) => chunkId(DOC_ID, URI, i)));
    expect((await chunk(pages, { maxTokens: 20 })).map((c) => c.id)).toEqual(first.map((c) => c.id));
    expect(new Set(first.map((c) => c.id)).size).toBe(first.length);
  });

  it("computes UUIDv5 as RFC 9562 does (the DNS-namespace example)", () => {
    expect(uuidV5("www.example.com", "6ba7b810-9dad-11d1-80b4-00c04fd430c8")).toBe("2ed6657d-e927-568b-95e1-2665a8aea6a2");
  });

  it("counts text that spells a special token as plain text instead of throwing", async () => {
    const [only] = await chunk([page(1, [text("The log ends with <|endoftext|> and nothing else.")])]);
    expect(only!.tokenCount).toBe(cl100kCount("The log ends with <|endoftext|> and nothing else.", { disallowedSpecial: new Set() }));
  });

  it("cuts a word longer than a chunk between characters, never inside a surrogate pair", async () => {
    const blob = "ab😀".repeat(400);
    const chunks = await chunk([page(1, [text(`Before ${blob} after`)])], { maxTokens: 32 });
    const doc = `Before ${blob} after`;
    expect(chunks.length).toBeGreaterThan(10);
    let end = 0;
    for (const c of chunks) {
      expect(c.tokenCount).toBeLessThanOrEqual(32);
      expect(c.text).toBe(doc.slice(c.charStart, c.charEnd));
      expect(doc.slice(end, c.charStart)).toMatch(/^\s*$/);
      for (const at of [c.charStart, c.charEnd]) expect(/[\uDC00-\uDFFF]/.test(doc[at] ?? "")).toBe(false);
      end = c.charEnd;
    }
    expect(end).toBe(doc.length);
  });

  it("has no chunks for a document without text", async () => {
    expect(await chunk([page(1, []), page(2, [])])).toEqual([]);
  });
});

describe("chunk stage: sentence boundaries", () => {
  const sentences = (t: string) => spansAt(t, 0, t.length, sentenceStarts(t, 0, t.length)).map((s) => t.slice(s.start, s.end));
  it.each([
    ["Dues rose. Costs fell.", ["Dues rose.", "Costs fell."]],
    ["S. Haddad noted it. The supplier came.", ["S. Haddad noted it.", "The supplier came."]],
    ["Use a fender, e.g. The big one. Then tie up.", ["Use a fender, e.g. The big one.", "Then tie up."]],
    ["1. Minutes of the last meeting The minutes were agreed.", ["1. Minutes of the last meeting The minutes were agreed."]],
    ['He said "stop." Then he left!', ['He said "stop."', "Then he left!"]],
    ["Is it open? Yes. 2026 was busy.", ["Is it open?", "Yes.", "2026 was busy."]],
    ["the version 2.5 release", ["the version 2.5 release"]],
    ["港は閉鎖された。船は外壁を使う。", ["港は閉鎖された。", "船は外壁を使う。"]],
  ])("%s", (input, expected) => {
    expect(sentences(input)).toEqual(expected);
  });
});

describe("chunk stage: in a pipeline", () => {
  it("puts its chunks after the pages, and a second chunk stage replaces the first one's chunks", async () => {
    const pages = [page(1, [text(S0, S1, S2)])];
    const context = { input: { item: { uri: URI, size: 10, mtimeMs: 0, fingerprint: "f" }, documentId: DOC_ID, bytes: new Uint8Array() }, warnings: [] } as unknown as DocumentContext;
    const small = await chunkStage.create(chunkStage.options.parse({ max_tokens: 20, overlap_tokens: 0, min_tokens: 0 }), { baseDir: ".", warn: () => {} });
    const whole = await chunkStage.create(chunkStage.options.parse({ max_tokens: 100, overlap_tokens: 0, min_tokens: 0 }), { baseDir: ".", warn: () => {} });
    const run = (stages: typeof small[]) => lastValueFrom(stages.reduce((r$, s) => s.apply(r$, context), of<DocRecord>(...pages)).pipe(toArray()));
    expect((await run([small])).map((r) => r.type)).toEqual(["page", "chunk", "chunk", "chunk"]);
    const twice = await run([small, whole]);
    expect(twice.map((r) => r.type)).toEqual(["page", "chunk"]);
    expect((twice[1] as ChunkRecord).text).toBe(`${S0} ${S1} ${S2}`);
  });

  it.each([
    ["plain", "text"],
    ["markdown", "markdown"],
  ] as const)("points its %s offsets into the text `pagestream extract --format %s` prints (empty pages add nothing)", async (textFormat, format) => {
    for (const name of ["empty-middle-page.pdf", "structure-report.pdf"]) {
      const file = resolve("fixtures", name);
      const printed = spawnSync(process.execPath, [resolve("dist/cli.js"), "extract", file, "--format", format, "--no-strip-furniture", "--no-dehyphenate"], { encoding: "utf8" }).stdout;
      const stages = [];
      for (const [type, options] of [["extract", {}], ["flag-scans", {}], ["chunk", { max_tokens: 24, overlap_tokens: 8, min_tokens: 0, text_format: textFormat }]] as const) {
        const spec = await loadSpec("stage", type, ".");
        stages.push(await spec.create(spec.options.parse(options), { baseDir: ".", warn: () => {} }));
      }
      const result = await processFile(file, stages);
      if (result.status !== "ok") throw new Error(result.error.message);
      expect(result.chunks.length).toBeGreaterThan(2);
      expect(documentView(result.pages as PageRecord[], textFormat).text + "\n").toBe(printed);
      for (const c of result.chunks) expect(c.text).toBe(c.prefix + printed.slice(c.charStart, c.charEnd));
      if (name === "empty-middle-page.pdf") expect(result.chunks.map((c) => [c.pageStart, c.pageEnd])).toContainEqual([1, 3]);
    }
  });

  it("opens a code listing's fence again in a chunk that goes on with it, as a continued table repeats its header", async () => {
    const listing = ["def berth_for(vessel):", "    if vessel.length > 40:", "        return 'north'", "    if vessel.kind == 'ferry':", "        return 'east'", "    return 'outer wall'"];
    const chunks = await chunk([page(1, [code(...listing)])], { maxTokens: 24 }, DOC_ID, "markdown");
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks[0]!.text.startsWith("```\ndef berth_for(vessel):")).toBe(true);
    for (const c of chunks.slice(1)) expect(c.prefix).toBe("```\n");
    expect(chunks[chunks.length - 1]!.text.endsWith("\n```")).toBe(true);
  });

  it("reports bad limits at the option in pipeline.yaml", async () => {
    const yaml = ["source: { type: folder, path: in }", "stages:", "  - type: extract", "  - type: chunk", "    max_tokens: 100", "    overlap_tokens: 60", "    min_tokens: 90", "sinks: [{ type: jsonl }]", ""].join("\n");
    const r = await parsePipeline(yaml, { file: "pipeline.yaml", baseDir: process.cwd() });
    expect(r.ok ? [] : r.issues.map(formatIssue)).toEqual([
      "pipeline.yaml:6:21 stages[1].overlap_tokens: must be at most half of max_tokens (50), got 60",
      "pipeline.yaml:7:17 stages[1].min_tokens: must be at most max_tokens − overlap_tokens (40), got 90",
    ]);
  });

  it("measures in o200k_base when told to", async () => {
    const tok = await tokenizer("o200k_base");
    const { countTokens } = await import("gpt-tokenizer/encoding/o200k_base");
    expect(tok.count(S0)).toBe(countTokens(S0));
    expect(tok.encoding).toBe("o200k_base");
  });
});
