import { describe, expect, it } from "vitest";
import type { Line, PageRecord, Paragraph } from "../../src/core/records.js";
import { withoutLines } from "../../src/text/page-edit.js";
import { pageRecord } from "../helpers/page-record.js";

function page(texts: string[], paragraphs: Paragraph[]): PageRecord {
  const lines: Line[] = texts.map((text, i) => ({ text, x: 100, y: 700 - 12 * i, width: 300, fontSize: 10, runs: [] }));
  return pageRecord(lines, paragraphs);
}

describe("page edits", () => {
  const list = () =>
    page(
      ["Bring these:", "• a hat", "• water", "• a coat"],
      [
        { start: 0, end: 1, kind: "text" },
        { start: 1, end: 2, kind: "text" },
        { start: 2, end: 3, kind: "text", sameBlock: true },
        { start: 3, end: 4, kind: "text", sameBlock: true },
      ],
    );

  it("keeps a tight list one block when a line outside it is removed", () => {
    const edited = withoutLines(list(), new Set([0]));
    expect(edited.text).toBe("• a hat\n• water\n• a coat");
  });

  it("sets an item apart from the paragraph before it when the item it stood under is removed", () => {
    const edited = withoutLines(list(), new Set([1]));
    expect(edited.paragraphs.map((p) => p.sameBlock ?? false)).toEqual([false, false, true]);
    expect(edited.text).toBe("Bring these:\n\n• water\n• a coat");
  });
});
