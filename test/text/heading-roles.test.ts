import { describe, expect, it } from "vitest";
import type { Line, Paragraph } from "../../src/core/records.js";
import { headingLevel, withHeadingRoles } from "../../src/text/heading-roles.js";

const line = (text: string, fontSize: number, role?: string): Line => ({ text, x: 72, y: 700, width: text.length * 5, fontSize, runs: [], ...(role ? { role } : {}) });
/** A page of paragraphs, each given as its lines. */
function page(...paragraphs: { lines: Line[]; kind?: Paragraph["kind"]; role?: string }[]) {
  const lines: Line[] = [];
  const paras: Paragraph[] = [];
  for (const p of paragraphs) {
    paras.push({ start: lines.length, end: lines.length + p.lines.length, kind: p.kind ?? "text", ...(p.role ? { role: p.role } : {}) });
    lines.push(...p.lines);
  }
  return { lines, paragraphs: paras };
}
const body = (n = 3) => ({ lines: Array.from({ length: n }, (_, i) => line(`Body text of the report, line ${i} with enough words to weigh.`, 10)) });
const roles = (pages: ReturnType<typeof page>[]) => withHeadingRoles(pages).map((p) => p.paragraphs.map((q) => q.role ?? "-"));

describe("heading roles", () => {
  it("ranks headings by size over the whole document: the largest is H1", () => {
    const pages = [page({ lines: [line("Annual Report", 20)] }, { lines: [line("1. Traffic", 16)] }, body()), page({ lines: [line("1.1 Ferries", 13)] }, body(), { lines: [line("2. Finance", 16)] }, body())];
    expect(roles(pages)).toEqual([["H1", "H2", "-"], ["H3", "-", "H2", "-"]]);
  });

  it("keeps a tagged page's roles, ranks a tagged H by size, and takes no tagged P or table for a heading", () => {
    const pages = [page({ lines: [line("Overview", 11)], role: "H2" }, { lines: [line("A pull quote", 24)], role: "P" }, { lines: [line("Section", 14)], role: "H" }, { lines: [line("Big\t1", 18)], kind: "table" }, body())];
    expect(roles(pages)).toEqual([["H2", "P", "H1", "-", "-"]]);
  });

  it("takes no long paragraph of large type for a heading", () => {
    expect(roles([page({ lines: [line("a", 14), line("b", 14), line("c", 14), line("d", 14)] }, body(8))])).toEqual([["-", "-"]]);
  });

  it("reads a heading's level from its role, or from the role all its lines share", () => {
    expect(headingLevel({ start: 0, end: 1, kind: "text", role: "H3" }, [line("x", 10)])).toBe(3);
    expect(headingLevel({ start: 0, end: 1, kind: "text" }, [line("x", 10, "H4")])).toBe(4);
    expect(headingLevel({ start: 0, end: 1, kind: "text", role: "P" }, [line("x", 30)])).toBeUndefined();
  });
});
