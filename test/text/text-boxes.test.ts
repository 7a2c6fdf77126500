import { describe, expect, it } from "vitest";
import type { PageBox, PageRecord } from "../../src/core/records.js";
import { chunkDocument } from "../../src/stages/chunk/chunker.js";
import { loadTokenizer } from "../../src/stages/chunk/tokenizer.js";
import { lineBox, mergeBoxes } from "../../src/text/page-boxes.js";
import { linePlaces } from "../../src/text/text-boxes.js";
import { extractFile, okPages } from "../helpers/extract.js";

/**
 * Fixtures of every layout the boxes must follow: one column over pages, two columns, a box
 * beside a column, a table, a page turned by /Rotate, a table beside a chart's labels.
 */
const FIXTURES = [
  "samples/quarterly-report.pdf",
  "two-columns-title.pdf",
  "columns-box-beside-column.pdf",
  "sidebar-beside-main-column.pdf",
  "invoice-blocks-and-item-table.pdf",
  "rotated-page.pdf",
  "table-ruled-beside-chart-labels.pdf",
  "structure-report.pdf",
];

const WORD = /[\p{L}\p{N}]{2,}/gu;

/** Whether `inner` lies inside `outer` (to a hundredth of a point, the boxes' rounding). */
function inside(inner: PageBox, outer: PageBox): boolean {
  const e = 0.02;
  return inner.page === outer.page && inner.x0 >= outer.x0 - e && inner.x1 <= outer.x1 + e && inner.y0 >= outer.y0 - e && inner.y1 <= outer.y1 + e;
}

describe("chunk boxes", () => {
  for (const file of FIXTURES) {
    for (const format of ["plain", "markdown"] as const) {
      it(`holds every word of every ${format} chunk of ${file}`, async () => {
        const pages: PageRecord[] = okPages(await extractFile(`fixtures/${file}`, {}, "default"));
        const chunks = chunkDocument({ documentId: "d", uri: "u", pages }, { maxTokens: 48, overlapTokens: 8, minTokens: 0 }, await loadTokenizer("cl100k_base"), format);
        expect(chunks.length).toBeGreaterThan(0);
        for (const chunk of chunks) {
          const boxes = chunk.boxes ?? [];
          expect(boxes.length, `chunk ${chunk.index}`).toBeGreaterThan(0);
          // Every run on the chunk's pages, with its box on the displayed page.
          const runs = pages
            .filter((p) => p.number >= chunk.pageStart && p.number <= chunk.pageEnd)
            .flatMap((p) => p.lines.flatMap((line) => line.runs.map((run) => ({ text: run.text, box: lineBox(p.number, p.toDisplay!, { ...run, turn: line.turn }) }))));
          // A word of the chunk (its repeated table header aside) stands in a run inside its boxes.
          for (const word of chunk.text.slice(chunk.prefix.length).match(WORD) ?? []) {
            const holders = runs.filter((r) => r.text.includes(word));
            if (holders.length === 0) continue; // a word joined over a line end by dehyphenation
            expect(
              holders.some((r) => boxes.some((b) => inside(r.box, b))),
              `chunk ${chunk.index} word "${word}" outside ${JSON.stringify(boxes)}`,
            ).toBe(true);
          }
        }
      });
    }
  }
});

describe("merging line boxes", () => {
  const line = (page: number, x0: number, y0: number, x1: number) => ({ page, x0, y0, x1, y1: y0 + 10 });

  it("makes one piece of a column, and another of the next column, which starts back up the page", () => {
    const left = [line(1, 72, 100, 290), line(1, 72, 112, 290), line(1, 72, 124, 200)];
    const right = [line(1, 310, 100, 530), line(1, 310, 112, 530)];
    expect(mergeBoxes([...left, ...right])).toEqual([
      { page: 1, x0: 72, y0: 100, x1: 290, y1: 134 },
      { page: 1, x0: 310, y0: 100, x1: 530, y1: 122 },
    ]);
  });

  it("starts a new piece on a new page and after a wide white (a figure between)", () => {
    expect(mergeBoxes([line(1, 72, 700, 500), line(2, 72, 80, 500), line(2, 72, 300, 500)])).toHaveLength(3);
  });
});

describe("placing lines in a view's text", () => {
  const place = (lines: string[], text: string, format: "plain" | "markdown") => {
    const page = { number: 1, lines: lines.map((t) => ({ text: t, x: 0, y: 0, width: 0, fontSize: 10, runs: [] })) };
    return linePlaces([page], text, [{ number: 1, start: 0, end: text.length }], format).get(1)!.map((p) => text.slice(p.start, p.end));
  };

  it("ends a line at its own last word, not at the same letters in the next line", () => {
    const lines = ["moved part of its business to a", "larger port. The commercial team"];
    expect(place(lines, lines.join(" "), "plain")).toEqual(lines.map((l) => l.replace(/\.$/, "")));
  });

  it("ends a table row at its last cell, not at the same digits in a cell before it", () => {
    const rows = ["Anode set\t5\t$1.50\t$7.50", "Paint\t1\t$31.00\t$31.00"];
    const markdown = "| Anode set | 5 | $1.50 | $7.50 |\n| Paint | 1 | $31.00 | $31.00 |";
    expect(place(rows, markdown, "markdown")).toEqual(["Anode set | 5 | $1.50 | $7.50", "Paint | 1 | $31.00 | $31.00"]);
    expect(place(rows, rows.join("\n"), "plain")).toEqual(["Anode set\t5\t$1.50\t$7.50", "Paint\t1\t$31.00\t$31.00"]);
  });

  it("places a line whose first word ends a word broken at the line before", () => {
    const lines = ["The committee agreed to the recog-", "nition of the new berth"];
    expect(place(lines, "The committee agreed to the recognition of the new berth", "plain")).toEqual(["The committee agreed to the recog", "nition of the new berth"]);
  });
});
