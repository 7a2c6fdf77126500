import { from, lastValueFrom, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import type { Stage } from "../../src/core/plugin.js";
import type { Line, PageRecord } from "../../src/core/records.js";
import { joinBrokenWords } from "../../src/stages/dehyphenate/broken-words.js";
import { joinBrokenCellWords } from "../../src/stages/dehyphenate/cell-words.js";
import { decideHyphen } from "../../src/stages/dehyphenate/hyphen-decision.js";
import { continuesOnNextPage } from "../../src/stages/dehyphenate/page-continuation.js";
import { englishWordList, evidenceFrom, SortedWords, WordCounts } from "../../src/stages/dehyphenate/word-evidence.js";
import { rerender } from "../../src/text/page-edit.js";

const noEvidence = evidenceFrom([]);
const join = (left: string, right: string, evidence = noEvidence) => {
  const d = decideHyphen(left, right, false, evidence);
  return d.join ? left + right : `${left}-${right}`;
};

describe("hyphen decisions (docs/extraction.md §10.1, §10.2)", () => {
  it.each([
    ["self", "contained", "selfcontained"],
    ["re", "encode", "reencode"],
    ["client", "Side", "client-Side"],
    ["Osei", "Mensah", "Osei-Mensah"],
    ["COVID", "19", "COVID-19"],
    ["2026", "03", "2026-03"],
    ["well", "known", "wellknown"],
  ])("base rule: %s- + %s → %s", (left, right, result) => {
    expect(join(left, right)).toBe(result);
  });

  it("keeps well-known when the document writes it with its hyphen elsewhere", () => {
    const counts = new WordCounts();
    counts.addText("a well-known problem");
    expect(join("well", "known", evidenceFrom([counts]))).toBe("well-known");
  });

  it("joins when the document writes the word whole elsewhere, even after a capital", () => {
    const counts = new WordCounts();
    counts.addText("The Bundesverfassungsgericht ruled");
    expect(join("Bundes", "verfassungsgericht", evidenceFrom([counts]))).toBe("Bundesverfassungsgericht");
  });

  it("keeps the capital of a German compound broken at its own hyphen", () => {
    expect(join("Bundes", "Verfassungsgericht")).toBe("Bundes-Verfassungsgericht");
  });

  it("uses the English word list: joins real words, keeps compounds whose halves are words", () => {
    const words = evidenceFrom([], englishWordList);
    expect(join("well", "known", words)).toBe("well-known");
    expect(join("self", "contained", words)).toBe("self-contained");
    expect(join("house", "hold", words)).toBe("household");
    expect(join("con", "nections", words)).toBe("connections");
  });

  it("joins words broken in text set in capitals when the word list has them (EX- + PRESSED)", () => {
    const words = evidenceFrom([], englishWordList);
    expect(join("EX", "PRESSED", words)).toBe("EXPRESSED");
    expect(join("INCI", "DENTAL", words)).toBe("INCIDENTAL");
    expect(join("Osei", "Mensah", words)).toBe("Osei-Mensah");
  });

  it("always joins at a soft hyphen", () => {
    expect(decideHyphen("infor", "mation", true, noEvidence)).toEqual({ join: true, reason: "soft_hyphen" });
  });
});

function line(text: string, y: number, x = 72, width = 400): Line {
  return { text, x, y, width, fontSize: 10, runs: [] };
}

function page(number: number, lines: Line[], mode: "reflow" | "preserve" = "reflow"): PageRecord {
  return rerender({
    type: "page", documentId: "d", uri: "u", number, width: 612, height: 792, rotation: 0, lines,
    paragraphs: lines.length ? [{ start: 0, end: lines.length, kind: "text" }] : [], text: "", mode, empty: true,
    orderSource: "geometry", orderReason: "", untaggedGlyphs: 0, columns: 1,
  });
}

describe("rejoining broken words", () => {
  it("moves the word up whole, so reflow and preserve both read it right, and records the decision", () => {
    const p = page(1, [line("the long delay between a leak and its dis-", 700), line("covery. In Eastbrook the meters", 688, 72, 300)], "preserve");
    const [out] = joinBrokenWords([p], noEvidence, { acrossPages: true });
    expect(out!.text).toBe("the long delay between a leak and its discovery.\nIn Eastbrook the meters");
    expect(out!.dehyphenated).toEqual([{ left: "dis-", right: "covery", result: "discovery", reason: "case_rule" }]);
    expect(rerender({ ...out!, mode: "reflow" }).text).toBe("the long delay between a leak and its discovery. In Eastbrook the meters");
  });

  it("never leaves a space after a kept hyphen", () => {
    const p = page(1, [line("led by Kofi Osei-", 700), line("Mensah, who joined", 688, 72, 200)]);
    expect(joinBrokenWords([p], noEvidence, { acrossPages: true })[0]!.text).toBe("led by Kofi Osei-Mensah, who joined");
  });

  it("joins a word broken over a page break with the next page's first line", () => {
    const first = page(1, [line("the standard was revised after the sub-", 100)]);
    const second = page(2, [line("scription model changed and the", 700), line("board approved it.", 688, 72, 120)]);
    const [a, b] = joinBrokenWords([first, second], noEvidence, { acrossPages: true });
    expect(a!.text).toBe("the standard was revised after the subscription");
    expect(b!.text).toBe("model changed and the board approved it.");
  });

  it("removes a line left empty by the move", () => {
    const p = page(1, [line("a word at the very end of the para-", 700), line("graph", 688, 72, 30)]);
    const [out] = joinBrokenWords([p], noEvidence, { acrossPages: true });
    expect(out!.lines.map((l) => l.text)).toEqual(["a word at the very end of the paragraph"]);
    expect(out!.paragraphs).toEqual([{ start: 0, end: 1, kind: "text" }]);
  });

  it("joins a hyphen set apart by justification only when the document has the word", () => {
    const p = page(1, [line("con carácter pre -", 700), line("vio al inicio de la actividad.", 688, 72, 200)]);
    expect(joinBrokenWords([p], noEvidence, { acrossPages: true })[0]!.text).toBe("con carácter pre - vio al inicio de la actividad.");
    const counts = new WordCounts();
    counts.addText("el informe previo");
    expect(joinBrokenWords([p], evidenceFrom([counts]), { acrossPages: true })[0]!.text).toBe("con carácter previo al inicio de la actividad.");
  });
});

describe("words broken inside a table cell", () => {
  /** A table row as extract gives it: cells apart, a wrapped cell's printed lines apart by a line feed. */
  const row = (cells: string[], y: number): Line => ({ ...line(cells.map((c) => c.replace(/-\n/g, "-").replace(/\n/g, " ")).join("\t"), y), cells, role: "TR" });
  const table = (rows: Line[]) =>
    rerender({ ...page(1, rows), paragraphs: [{ start: 0, end: rows.length, kind: "table" }] });

  it("decides a cell's line-end hyphen as in running text and rebuilds the row's text", () => {
    const out = joinBrokenCellWords(table([row(["0304", "Filetes y demás car-\nnes de pescado", "105.434"], 700), row(["0511", "Prod. no exp. en otros\ncapítulos", "203"], 680)]), noEvidence);
    expect(out.lines.map((l) => l.text)).toEqual(["0304\tFiletes y demás carnes de pescado\t105.434", "0511\tProd. no exp. en otros capítulos\t203"]);
    expect(out.lines[0]!.cells).toEqual(["0304", "Filetes y demás carnes\nde pescado", "105.434"]);
    expect(out.dehyphenated).toEqual([{ left: "car-", right: "nes", result: "carnes", reason: "case_rule" }]);
    expect(out.text).toBe("0304\tFiletes y demás carnes de pescado\t105.434\n0511\tProd. no exp. en otros capítulos\t203");
  });

  it("keeps a cell's real hyphen, with no space after it", () => {
    const out = joinBrokenCellWords(table([row(["Kofi Osei-\nMensah", "Accra"], 700), row(["Period 2001-\n07", "12"], 680)]), noEvidence);
    expect(out.lines.map((l) => l.text)).toEqual(["Kofi Osei-Mensah\tAccra", "Period 2001-07\t12"]);
  });

  it("counts a cell's printed lines as evidence, never the glued break", () => {
    const counts = new WordCounts().addPages([table([row(["Filetes y demás car-\nnes de pescado", "1"], 700)])]);
    expect(counts.count("car-nes")).toBe(0);
    expect(counts.count("nes")).toBe(1);
  });
});

describe("hyphens the text layer lost", () => {
  // LaTeX's tagging maps the break hyphen to U+00AD, which pdf.js drops: only "in" + "cluding" is left.
  const lost = () =>
    page(1, [
      line("structures found in a document, in", 700),
      line("cluding titles and lists. The order is fol", 688),
      line("low the flow of the text through the", 676),
      line("columns of the page.", 664, 72, 120),
    ]);
  const english = () => evidenceFrom([new WordCounts().addPages([lost()])], englishWordList);

  it("joins line ends that only make words when joined, in a document that shows it lost its hyphens", () => {
    const [out] = joinBrokenWords([lost()], english(), { acrossPages: true });
    expect(out!.text).toBe("structures found in a document, including titles and lists. The order is follow the flow of the text through the columns of the page.");
    expect(out!.dehyphenated).toEqual([
      { left: "in", right: "cluding", result: "including", reason: "lost_hyphen" },
      { left: "fol", right: "low", result: "follow", reason: "lost_hyphen" },
    ]);
  });

  it("joins nothing without a hyphen in a document whose hyphens survived", () => {
    const p = page(1, [...lost().lines, line("the water meters were replaced after a dis-", 652), line("covery in the spring and the", 640), line("repair of the mains in the autumn re-", 628), line("duced the losses by a fifth.", 616, 72, 200)]);
    const [out] = joinBrokenWords([p], evidenceFrom([new WordCounts().addPages([p])], englishWordList), { acrossPages: true });
    expect(out!.text).toContain("document, in cluding titles");
    expect(out!.text).toContain("discovery in the spring");
    expect(out!.dehyphenated!.map((d) => d.reason)).not.toContain("lost_hyphen");
  });

  it("never joins two words that stand on their own (in + to stays in to)", () => {
    const p = page(1, [line("structures found in a document, in", 700), line("cluding the items it went in", 688), line("to the list that was fol", 676), line("low the text.", 664, 72, 120)]);
    const [out] = joinBrokenWords([p], evidenceFrom([new WordCounts().addPages([p])], englishWordList), { acrossPages: true });
    expect(out!.text).toBe("structures found in a document, including the items it went in to the list that was follow the text.");
  });
});

describe("paragraphs over page breaks", () => {
  it("continues when the last line runs to the margin and the next page does not open a paragraph", () => {
    const a = page(1, [line("The committee met on Tuesday and", 120), line("agreed that the budget for the new", 108)]);
    const b = page(2, [line("library should be raised by a fifth", 700), line("before the end of the year.", 688, 72, 200)]);
    expect(continuesOnNextPage(a, b)).toBe(true);
  });

  it("does not continue after a short last line, or into an indented first line", () => {
    const short = page(1, [line("The committee met on Tuesday and", 120), line("agreed the budget.", 108, 72, 120)]);
    const next = page(2, [line("library should be raised by a fifth", 700), line("before the end of the year.", 688, 72, 200)]);
    expect(continuesOnNextPage(short, next)).toBe(false);
    const full = page(1, [line("The committee met on Tuesday and", 120), line("agreed that the budget for the new", 108)]);
    const indented = page(2, [line("Library hours will change in May", 700, 90, 382), line("and the rota will follow.", 688, 72, 200)]);
    expect(continuesOnNextPage(full, indented)).toBe(false);
  });

  it("never runs a heading on over a page break, nor a paragraph into a heading", () => {
    const a = page(1, [line("The committee met on Tuesday and", 120), line("agreed that the budget for the new", 108)]);
    const b = page(2, [line("library should be raised by a fifth", 700), line("before the end of the year.", 688, 72, 200)]);
    const asHeading = (p: PageRecord, k: number): PageRecord => ({ ...p, paragraphs: p.paragraphs.map((q, i) => (i === k ? { ...q, role: "H2" as const } : q)) });
    expect(continuesOnNextPage(a, asHeading(b, 0))).toBe(false);
    expect(continuesOnNextPage(asHeading(a, 0), b)).toBe(false);
  });

  it("does not continue after a full line that ends a sentence when the next page opens with a quoted capital", () => {
    const a = page(1, [line("designated in writing by the copyright", 120), line("owner as \"Not a Contribution.\"", 108)]);
    const b = page(2, [line("\"Contributor\" shall mean Licensor and", 700), line("any individual or Legal Entity.", 688, 72, 200)]);
    expect(continuesOnNextPage(a, b)).toBe(false);
  });
});

describe("the English word list, searched in its file's bytes", () => {
  it("finds every word of an-array-of-english-words and nothing else", async () => {
    const { createRequire } = await import("node:module");
    const all = createRequire(import.meta.url)("an-array-of-english-words") as string[];
    const list = englishWordList();
    expect(all.filter((w) => !list.has(w))).toEqual([]);
    expect(["", "zzzzq", "well-known", "Apple", "café", "a b", "aaa\u0000"].filter((w) => list.has(w))).toEqual([]);
  });

  it("handles the smallest lists and words between neighbours", () => {
    const of = (words: string[]) => SortedWords.fromJsonArray(Buffer.from(JSON.stringify(words)));
    expect(of([]).has("a")).toBe(false);
    expect([of(["a"]).has("a"), of(["a"]).has("b")]).toEqual([true, false]);
    const abc = of(["a", "b", "c"]);
    expect(["a", "b", "c", "bb", "0", "d"].map((w) => abc.has(w))).toEqual([true, true, true, false, false, false]);
  });

  it("reads a list written with white space between its words, and words of many bytes", () => {
    const words = ["Zürich", "ab", "abc", "b", "café", "naïve", "x", "ça", "œuvre"].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    const list = SortedWords.fromJsonArray(Buffer.from(JSON.stringify(words, null, 2)));
    expect(words.filter((w) => !list.has(w))).toEqual([]);
    expect(["a", "abcd", "caf", "cafés", "z", "ç", "Zurich", ""].filter((w) => list.has(w))).toEqual([]);
  });
});

describe("the dehyphenate stage across documents", () => {
  const run = async (stage: Stage, pages: PageRecord[]) =>
    (await lastValueFrom(stage.apply(from(pages), { input: {} as never, limits: { maxPages: Infinity }, warnings: [] }).pipe(toArray()))) as PageRecord[];
  // Document A writes "well-known" with its hyphen; document B breaks "well-" / "known" at a line
  // end and has no evidence of its own, so the case rule joins it — evidence learned from A would
  // have kept the hyphen, making B's text depend on what the worker saw before.
  const a = [page(1, [line("The well-known harbour office is open all week.", 700)])];
  const b = () => [page(1, [line("The office is well-", 700), line("known to the pilots of the port.", 688)])];

  it("judges each document on its own evidence, whatever came before it in the same worker", async () => {
    const spec = (await import("../../src/stages/dehyphenate/stage.js")).default;
    const fresh = await spec.create(spec.options.parse({ dictionary: "none" }), { baseDir: ".", warn: () => {} });
    const reused = await spec.create(spec.options.parse({ dictionary: "none" }), { baseDir: ".", warn: () => {} });
    await run(reused, a);
    const alone = (await run(fresh, b()))[0]!.text;
    expect((await run(reused, b()))[0]!.text).toBe(alone);
    expect(alone).toBe("The office is wellknown to the pilots of the port.");
  });

  it("names evidence: run as removed, with the reason, at its line and column", async () => {
    const { parsePipeline, formatIssue } = await import("../../src/pipeline/config.js");
    const r = await parsePipeline("source: { type: folder, path: in }\nstages:\n  - type: extract\n  - type: dehyphenate\n    evidence: run\nsinks: [{ type: jsonl }]\n", { file: "p.yaml", baseDir: "." });
    expect(r.ok ? [] : r.issues.map(formatIssue)).toEqual([
      "p.yaml:5:15 stages[1].evidence: evidence: run was removed: it learned words from the documents a worker happened to process before, so a document's text depended on scheduling, restarts and what an incremental run skipped. Use evidence: document (the default).",
    ]);
  });
});
