import { describe, expect, it } from "vitest";
import type { Line, PageRecord, Paragraph } from "../../src/core/records.js";
import { documentView, pageMarkdown } from "../../src/text/document-view.js";
import { escapeBlockStart, escapeInline, renderPageMarkdown } from "../../src/text/markdown.js";
import { pageRecord } from "../helpers/page-record.js";
import { tableHasHeader } from "../../src/text/table-header.js";

const line = (text: string, { x = 72, size = 10, bold = false, monospace = false } = {}): Line => ({
  text,
  x,
  y: 700,
  width: text.length * size * 0.5,
  fontSize: size,
  runs: [{ text, x, y: 700, width: text.length * size * 0.6, fontSize: size, fontName: "f1", ...(bold ? { bold: true } : {}), ...(monospace ? { monospace: true } : {}) }],
});

type Spec = Omit<Paragraph, "start" | "end"> & { lines: Line[] };

/** Lines and paragraphs of a page, lines going down 12 pt apart. */
function laid(...specs: Spec[]): { lines: Line[]; paragraphs: Paragraph[] } {
  const lines: Line[] = [];
  const paragraphs: Paragraph[] = [];
  for (const { lines: own, ...p } of specs) {
    paragraphs.push({ ...p, start: lines.length, end: lines.length + own.length });
    for (const l of own) lines.push({ ...l, y: 760 - lines.length * 12, runs: l.runs.map((r) => ({ ...r, y: 760 - lines.length * 12 })) });
  }
  return { lines, paragraphs };
}

const md = (...specs: Spec[]) => {
  const { lines, paragraphs } = laid(...specs);
  return renderPageMarkdown(lines, paragraphs, "reflow").text;
};
const text = (...t: string[]): Spec => ({ kind: "text", lines: t.map((s) => line(s)) });

describe("Markdown view", () => {
  it("prints headings as ATX headings at their level, their lines joined, a closing run of # escaped", () => {
    expect(md({ kind: "text", role: "H2", lines: [line("2. Harbour"), line("dues")] }, text("Body."), { kind: "text", role: "H3", lines: [line("Notes on C #")] })).toBe(
      "## 2. Harbour dues\n\nBody.\n\n### Notes on C \\#",
    );
  });

  it("nests list items under the content column of the item they belong to, and keeps markers Markdown has no list for", () => {
    const out = md(
      { kind: "text", role: "LI", depth: 1, lines: [line("10. Ask the office.")] },
      { kind: "text", role: "LI", depth: 2, sameBlock: true, lines: [line("• by phone")] },
      { kind: "text", role: "LI", depth: 3, sameBlock: true, lines: [line("a) before noon")] },
      { kind: "text", role: "LI", depth: 1, sameBlock: true, lines: [line("11. Pay at the gate.")] },
      { kind: "text", role: "LI", depth: 1, lines: [line("Printed with no marker")] },
    );
    expect(out).toBe("10. Ask the office.\n    - • by phone\n      - a) before noon\n11. Pay at the gate.\n\n- Printed with no marker");
  });

  it("fences code with a fence longer than any backtick run that starts one of its lines, lines and indentation kept", () => {
    // A run of backticks mid-line closes nothing; one that starts a line would close a fence as long.
    expect(md({ kind: "verbatim", role: "Code", lines: [line("echo ```", { monospace: true })] })).toBe("```\necho ```\n```");
    const code = [line("```js", { monospace: true }), line("ls", { x: 72 + 4 * 6, monospace: true }), line("```", { monospace: true })];
    expect(md({ kind: "verbatim", role: "Code", lines: code })).toBe("````\n```js\n    ls\n```\n````");
  });

  it("prints a table as a GFM pipe table: the first row its header when it reads as one, else an empty header; pipes escaped", () => {
    const row = (t: string, bold = false) => ({ ...line(t, { bold }), cells: t.split("\t") });
    expect(md({ kind: "table", role: "Table", lines: [row("Quay\tLandings"), row("North\t1,240"), row("East|West\t980")] })).toBe(
      "| Quay | Landings |\n| --- | --- |\n| North | 1,240 |\n| East\\|West | 980 |",
    );
    expect(md({ kind: "table", role: "Table", lines: [row("North\tFerry"), row("East\tTrawler")] })).toBe("|  |  |\n| --- | --- |\n| North | Ferry |\n| East | Trawler |");
  });

  it("tells a header row by its weight or by names over figures", () => {
    const row = (t: string, bold = false) => ({ ...line(t, { bold }), cells: t.split("\t") });
    expect(tableHasHeader([row("Berth\tVessel", true), row("North\tFerry")])).toBe(true);
    expect(tableHasHeader([row("Date\tAmount"), row("04/02\t€ 18,40"), row("11/02\t€ 21,96")])).toBe(true);
    expect(tableHasHeader([row("North\tFerry"), row("East\tTrawler")])).toBe(false);
  });

  it("escapes what would start another block at a line's start, and only what would pair into emphasis or code", () => {
    expect(["# not a heading", "1. not an item", "2019. A year", "- dash", "> quote", "| cell |", "***", "=== "].map(escapeBlockStart)).toEqual([
      "\\# not a heading",
      "1\\. not an item",
      "2019\\. A year",
      "\\- dash",
      "\\> quote",
      "\\| cell |",
      "\\***",
      "\\=== ",
    ]);
    expect(["file_name", "window.__init", "5 * 3 = 15", "***-**-0860", "Nº ___________", "a *b* c", "use `ls` here"].map(escapeInline)).toEqual([
      "file_name",
      "window.__init",
      "5 * 3 = 15",
      "\\*\\*\\*-\\*\\*-0860",
      "Nº \\_\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_",
      "a \\*b\\* c",
      "use \\`ls\\` here",
    ]);
  });
});

describe("document views", () => {
  const page = (number: number, spec: ReturnType<typeof laid>, extra: Partial<PageRecord> = {}): PageRecord => pageRecord(spec.lines, spec.paragraphs, { number, ...extra });

  it("joins pages as the plain text does: a blank line, or a space where a paragraph runs on; blocks and page spans located in the view", () => {
    const pages = [page(1, laid({ kind: "text", role: "H1", lines: [line("Report")] }, text("The quay was")), { continues: true }), page(2, laid(text("closed in March.")))];
    const view = documentView(pages, "markdown");
    expect(view.text).toBe("# Report\n\nThe quay was closed in March.");
    expect(view.pages).toEqual([
      { number: 1, start: 0, end: 22 },
      { number: 2, start: 23, end: 39 },
    ]);
    expect(view.blocks.map((b) => [b.kind, view.text.slice(b.start, b.end), b.heading])).toEqual([
      ["heading", "# Report", "Report"],
      ["text", "The quay was", undefined],
      ["text", "closed in March.", undefined],
    ]);
    expect(documentView(pages, "plain").text).toBe("Report\n\nThe quay was closed in March.");
  });

  it("shows a page whose text a stage rewrote by hand as that text, escaped, never as paragraphs it no longer has", () => {
    const p = page(1, laid({ kind: "text", role: "H1", lines: [line("Report")] }, text("Body.")), { text: "# REPORT\n\nBODY." });
    expect(pageMarkdown(p).text).toBe("\\# REPORT\n\nBODY.");
  });
});
