import { from, lastValueFrom, toArray } from "rxjs";
import { describe, expect, it } from "vitest";
import { rerender } from "../../src/text/page-edit.js";
import type { Line, PageRecord } from "../../src/core/records.js";
import { detectFurniture, furnitureKey } from "../../src/stages/strip-furniture/furniture-detection.js";
import { isPageNumberLine } from "../../src/stages/strip-furniture/page-number-line.js";
import { runningTitles } from "../../src/stages/strip-furniture/running-titles.js";
import { chunkDocument } from "../../src/stages/chunk/chunker.js";
import { loadTokenizer } from "../../src/stages/chunk/tokenizer.js";
import { extractFile, okPages } from "../helpers/extract.js";

const options = { bandRatio: 0.12, maxLinesPerBand: 3, windowPages: 2, minPages: 2, isolationRatio: 1.3 };

function line(text: string, y: number, fontSize = 10, extra: Partial<Line> = {}): Line {
  return { text, x: 72, y, width: text.length * 5, fontSize, runs: [], ...extra };
}

/** A page of body text (lines 700 down to 120, 12 pt apart) with the given furniture lines. */
function page(number: number, furniture: Line[], body = 49): PageRecord {
  const lines = [...furniture.filter((l) => l.y > 700), ...Array.from({ length: body }, (_, i) => line(`body line ${i} of page ${number} with ordinary words`, 700 - 12 * i)), ...furniture.filter((l) => l.y <= 700)];
  return rerender({
    type: "page", documentId: "d", uri: "u", number, width: 612, height: 792, rotation: 0, lines,
    paragraphs: [{ start: 0, end: lines.length, kind: "text" }], text: "", mode: "reflow", empty: false,
    orderSource: "geometry", orderReason: "", untaggedGlyphs: 0, columns: 1,
  });
}

const removed = (pages: PageRecord[]) => detectFurniture(pages, options).map((f, p) => [...f.remove].map((i) => pages[p]!.lines[i]!.text));

describe("running headers and footers", () => {
  it("normalises page numbers and roman numerals in what it compares", () => {
    expect(furnitureKey("Page 3 of 12")).toBe("Page#of#");
    expect(furnitureKey("— 7 —")).toBe("—#—");
    expect(furnitureKey("xiv")).toBe("#");
    expect(furnitureKey("Civil Code")).toBe("CivilCode");
  });

  it("matches OCR footers whose guessed sizes differ, and not typeset ones that differ as much", () => {
    const sizes = [8.2, 12.5, 16.8];
    // Not a page number, which needs no match (see "page numbers without a second page").
    const pages = (source?: "ocr") => [1, 2, 3].map((n) => ({ ...page(n, [line("Harbour Safety Review", 40, sizes[n - 1])]), ...(source ? { source } : {}) }));
    expect(removed(pages("ocr"))).toEqual([["Harbour Safety Review"], ["Harbour Safety Review"], ["Harbour Safety Review"]]);
    expect(removed(pages())).toEqual([[], [], []]);
  });

  it("matches a footer whose word spaces OCR dropped on one page (Page 1 of3)", () => {
    expect(furnitureKey("Page 1 of3")).toBe(furnitureKey("Page 2 of 3"));
    const pages = [1, 2, 3].map((n) => page(n, [line("Body text of the page.", 400, 11), line(n === 1 ? "Page 1 of3" : `Page ${n} of 3`, 50, 9)]));
    expect(removed(pages)).toEqual([["Page 1 of3"], ["Page 2 of 3"], ["Page 3 of 3"]]);
  });

  it("takes a header and a 'Page n of N' footer off every page and reads the page label", () => {
    const pages = [1, 2, 3, 4].map((n) => page(n, [line("Annual Report 2025", 760, 9), line(`Page ${n} of 4`, 50, 9)]));
    expect(removed(pages)).toEqual([1, 2, 3, 4].map((n) => ["Annual Report 2025", `Page ${n} of 4`]));
    const found = detectFurniture(pages, options);
    expect(found.map((f) => f.pageLabel)).toEqual(["1", "2", "3", "4"]);
    expect(found[0]!.header).toEqual(["Annual Report 2025"]);
    expect(found[0]!.footer).toEqual(["Page 1 of 4"]);
  });

  it("takes alternating left and right headers", () => {
    const pages = [1, 2, 3, 4, 5].map((n) => page(n, [n % 2 ? line(`GPL-3.0 ${n}`, 760, 9, { x: 480 }) : line(`${n} GNU General Public License`, 760, 9)]));
    expect(removed(pages).map((r) => r.length)).toEqual([1, 1, 1, 1, 1]);
  });

  it("takes a page-number footer '— 7 —'", () => {
    const pages = [6, 7, 8].map((n) => page(n, [line(`— ${n} —`, 50, 9)]));
    expect(removed(pages)).toEqual([["— 6 —"], ["— 7 —"], ["— 8 —"]]);
    expect(detectFurniture(pages, options).map((f) => f.pageLabel)).toEqual(["6", "7", "8"]);
  });

  it("catches a header that changes with each chapter", () => {
    const headers = ["Chapter 1: Intake", "Chapter 1: Intake", "Chapter 1: Intake", "Chapter 2: Storage", "Chapter 2: Storage", "Chapter 2: Storage"];
    const pages = headers.map((h, i) => page(i + 1, [line(h, 760, 9)]));
    expect(removed(pages).map((r) => r.length)).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it("in a short 3-page document, takes the title repeated as a header but leaves the title on page 1", () => {
    const title = line("Harbour Safety Review", 730, 18);
    const pages = [page(1, [title]), page(2, [line("Harbour Safety Review", 760, 9)]), page(3, [line("Harbour Safety Review", 760, 9)])];
    expect(removed(pages)).toEqual([[], ["Harbour Safety Review"], ["Harbour Safety Review"]]);
  });

  it("never takes body text: a line repeated in the middle of pages, or a first body line set like the body", () => {
    const repeated = (n: number) => {
      const p = page(n, []);
      const lines = p.lines.map((l, i) => (i === 20 ? { ...l, text: "The parties agree as follows:" } : i === 0 ? { ...l, text: "WHEREAS the Council has decided" } : l));
      return rerender({ ...p, lines });
    };
    const pages = [1, 2, 3].map(repeated);
    expect(removed(pages)).toEqual([[], [], []]);
  });

  it("takes what a tagged PDF declares as an artifact, without evidence", () => {
    const pages = [page(1, [line("Draft — internal", 760, 9, { role: "Artifact" })])];
    expect(removed(pages)).toEqual([["Draft — internal"]]);
  });

  it("leaves a one-page document's unrepeated lines alone", () => {
    expect(removed([page(1, [line("Minutes of the meeting", 760, 9)])])).toEqual([[]]);
  });

  it("matches a footer that a slide deck set at 14 pt on some slides and 11 pt on others", () => {
    const pages = [14, 14, 11, 11].map((size, i) => page(i + 1, [line("Prices include service", 50, size)]));
    expect(removed(pages).map((r) => r.length)).toEqual([1, 1, 1, 1]);
  });

  it("takes a repeated header off a page with four lines, measuring the gap by the document's line step", () => {
    const sparse = rerender({ ...page(2, []), lines: [line("Impact Study", 760, 8), line("CHAPTER I: PREAMBLE", 400, 18), line("Scope and method", 380, 12), line("1", 60, 9)] });
    const pages = [page(1, [line("Impact Study", 760, 8)]), sparse, page(3, [line("Impact Study", 760, 8)])];
    expect(removed(pages)[1]).toEqual(["Impact Study", "1"]);
  });

  it("finishes a document of 300,000 lines (spreading every line into Math.max overflowed the stack)", () => {
    // 6,000 pages of 51 lines: 60 RFCs merged into one PDF had 125,000 and failed.
    const one = page(1, [line("RFC 959 File Transfer Protocol", 760, 9), line("Page 1", 50, 9)]);
    const pages = Array.from({ length: 6000 }, (_, p) => ({
      ...one,
      number: p + 1,
      lines: one.lines.map((l) => (l.text === "Page 1" ? { ...l, text: `Page ${p + 1}` } : l)),
    }));
    expect(pages.reduce((n, p) => n + p.lines.length, 0)).toBe(306_000);
    const found = detectFurniture(pages, options);
    expect(found.every((f, p) => f.header.join() === "RFC 959 File Transfer Protocol" && f.footer.join() === `Page ${p + 1}`)).toBe(true);
    expect(found[5999]!.pageLabel).toBe("6000");
  });
});

describe("page numbers without a second page", () => {
  it("recognises a printed page number by its text", () => {
    for (const text of ["15", "－ 15 －", "- 7 -", "xii", "XIV", "1.9", "2/3", "Page 4", "Facture n° 2022089083 - Page 1/1", "Formulario I-9 10/21/19 Página 2 de 3", "Seite 3 von 12"]) {
      expect(isPageNumberLine(text, 9, 10), text).toBe(true);
    }
    for (const text of ["Total 189,00 €", "Annual Report 2025", "Berlin, 12 March 2026", "Page layout and design", "See page 4 for details.", "civil", "MILD", "Page dim"]) {
      expect(isPageNumberLine(text, 9, 10), text).toBe(false);
    }
  });

  it("takes a running title with its page number only when it is set smaller than the body and is no sentence", () => {
    expect(isPageNumberLine("62 ANNUAL REPORT 2021", 5.5, 7)).toBe(true);
    expect(isPageNumberLine("74 | AB INCOME FUND abfunds.com", 6.5, 9.5)).toBe(true);
    expect(isPageNumberLine("Items delivered 12", 10, 10)).toBe(false);
    expect(isPageNumberLine("1 Members who wish to join should call the depot.", 9, 10.9)).toBe(false);
  });

  it("takes a one-page document's page number at the foot of the page, not a footnote above it", () => {
    const footnote = line("1 Members who wish to join the scheme should contact the office", 80, 9);
    expect(removed([page(1, [footnote, line("Page 1/1", 40, 8)])])).toEqual([["Page 1/1"]]);
    // Its label, with no neighbour to compare with, is the number of its "page" phrase.
    expect(detectFurniture([page(1, [line("Facture n° 2022089083 - Page 1/1", 40, 8)])], options)[0]!.pageLabel).toBe("1");
    expect(detectFurniture([page(1, [line("Formulario I-9 10/21/19 Página 2 de 3", 40, 8)])], options)[0]!.pageLabel).toBe("2");
    expect(removed([page(1, [line("ANNUAL REPORT 2021 63", 40, 7)])])).toEqual([["ANNUAL REPORT 2021 63"]]);
  });

  it("keeps a number that is not at the page's edge, or that sits close to the body", () => {
    // A lone number in the body's rhythm is a table's or a list's, not a page number.
    expect(removed([page(1, [line("15", 700 - 12 * 49, 10)])])).toEqual([[]]);
    expect(removed([page(1, [line("Page 1/1", 40, 8), line("Printed by the office", 20, 6)])])).toEqual([[]]);
  });
});

describe("running titles", () => {
  it("keeps what the running headers and footers say, without their page numbers or 'Page n of N'", () => {
    expect(runningTitles(["63 HARBOUR BOARD ANNUAL REPORT 2025", "Page 3 of 9", "- 7 -", "Privium Done Hedge Fund", "74 | AB INCOME FUND abfunds.com"], "63")).toEqual([
      "HARBOUR BOARD ANNUAL REPORT 2025",
      "Privium Done Hedge Fund",
      "AB INCOME FUND abfunds.com",
    ]);
    expect(runningTitles(["Seite 4 von 12", "iv", "Contract 2026-17 — Page iv"], "iv")).toEqual(["Contract 2026-17"]);
  });

  it("puts them on the page a one-page report's running title came off, and every chunk of it carries them", async () => {
    const result = await extractFile("fixtures/one-page-running-title-page-number.pdf", {}, "default");
    const [page] = okPages(result);
    expect(page!.furniture?.titles).toEqual(["HARBOUR BOARD ANNUAL REPORT 2025"]);
    const chunks = chunkDocument({ documentId: "d", uri: "u", pages: okPages(result) }, { maxTokens: 64, overlapTokens: 0, minTokens: 0 }, await loadTokenizer("cl100k_base"), "markdown");
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(c.runningTitles).toEqual(["HARBOUR BOARD ANNUAL REPORT 2025"]);
  });
});

describe("headings after the furniture is gone", () => {
  it("leaves no heading level empty where a running header had been read as a heading", async () => {
    // Heading detection read each page's running header ("2 Ruth Dgani": a number, in the body's
    // size) as a heading between the sections (H2) and their subsections (H4).
    const header = (n: number) => line(`${n} Ruth Dgani`, 760, 10);
    const doc = [1, 2, 3].map((n) => {
      const lines = [header(n), line(["Planetary Nebulae", "Numerical Models", "Magnetic Fields"][n - 1]!, 700, 14), line(["Why it matters", "The adiabatic model", "General features"][n - 1]!, 680, 11), ...Array.from({ length: 40 }, (_, i) => line(`body line ${i} of page ${n} with ordinary words`, 660 - 12 * i))];
      const paragraphs = [{ start: 0, end: 1, kind: "text" as const, role: "H3" as const }, { start: 1, end: 2, kind: "text" as const, role: (n === 1 ? "H1" : "H2") as "H1" | "H2" }, { start: 2, end: 3, kind: "text" as const, role: "H4" as const }, { start: 3, end: lines.length, kind: "text" as const }];
      return rerender({ ...page(n, []), lines, paragraphs });
    });
    const spec = (await import("../../src/stages/strip-furniture/stage.js")).default;
    const stage = await spec.create(spec.options.parse({}), { baseDir: ".", warn: () => {} });
    const out = (await lastValueFrom(stage.apply(from(doc), { input: {} as never, limits: { maxPages: Infinity }, warnings: [] }).pipe(toArray()))) as PageRecord[];
    expect(out.map((p) => p.furniture?.header)).toEqual([["1 Ruth Dgani"], ["2 Ruth Dgani"], ["3 Ruth Dgani"]]);
    expect(out.map((p) => p.paragraphs.map((q) => q.role ?? "-"))).toEqual([
      ["H1", "H3", "-"],
      ["H2", "H3", "-"],
      ["H2", "H3", "-"],
    ]);
  });
});
