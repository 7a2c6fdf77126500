/**
 * The text of a page from its lines and paragraphs (docs/extraction.md §6.2). Every stage that changes lines
 * or paragraphs calls this again, so the text and the structure never disagree.
 * - reflow: a paragraph's lines joined into one line, paragraphs separated by one blank line;
 * - preserve: every line kept, paragraphs still separated by one blank line.
 * The items of a list set tight (`sameBlock`) are one block: an item on each line, no blank line.
 * Verbatim paragraphs (code) keep their lines and indentation in both modes, and tables one row
 * per line with tab-separated cells.
 * No space is ever put after a hyphen that ends a line glued to a word ("COVID-" + "19"): whether
 * that hyphen stays is the dehyphenation stage's decision, and a space would be wrong either way.
 * A soft hyphen (U+00AD) at a line end joins the word in reflow and prints as "-" in preserve.
 * Lines of Chinese or Japanese join with no space at all (line-join.ts).
 */
import type { Line, Paragraph, TextMode } from "../core/records.js";
import { lineJoiner } from "./line-join.js";
import { blankCodeLines, median } from "./text-geometry.js";

const SOFT_HYPHEN = "\u00AD";
const GLUED_HYPHEN_END = /[\p{L}\p{N}][-\u2010\u2011]$/u;

export function renderPageText(lines: readonly Line[], paragraphs: readonly Paragraph[], mode: TextMode): string {
  let out = "";
  for (const p of paragraphs) {
    const text = paragraphText(lines, p, mode);
    if (text.length === 0) continue;
    out += out === "" ? text : (p.sameBlock ? "\n" : "\n\n") + text;
  }
  return out;
}

/** One paragraph's text as the page text prints it ("" for a paragraph with no text). */
export function paragraphText(lines: readonly Line[], paragraph: Paragraph, mode: TextMode): string {
  return renderParagraph(lines.slice(paragraph.start, paragraph.end), paragraph.kind === "text" ? mode : paragraph.kind);
}

/** Lines of running text joined into one line, as reflow prints a paragraph (a heading, a table cell). */
export function reflowLines(lines: readonly Line[]): string {
  return renderParagraph(lines, "reflow");
}

function renderParagraph(lines: readonly Line[], mode: TextMode | "verbatim" | "table"): string {
  if (mode === "verbatim") return renderVerbatim(lines);
  if (mode === "table") return lines.map((l) => l.text).join("\n");
  const texts = lines.map((l) => l.text.trim()).filter((t) => t.length > 0);
  if (mode === "preserve") return texts.map((t) => (t.endsWith(SOFT_HYPHEN) ? t.slice(0, -1) + "-" : t)).join("\n");
  let out = "";
  for (const t of texts) {
    if (out === "") out = t;
    else if (out.endsWith(SOFT_HYPHEN)) out = out.slice(0, -1) + t;
    else if (GLUED_HYPHEN_END.test(out)) out += t;
    else out += lineJoiner(out, t) + t;
  }
  return out.endsWith(SOFT_HYPHEN) ? out.slice(0, -1) + "-" : out;
}

/**
 * Code and typewriter text: line breaks kept, indentation rebuilt from x in character cells,
 * and the program's blank lines from gaps of whole line pitches.
 */
export function renderVerbatim(lines: readonly Line[]): string {
  const left = Math.min(...lines.map((l) => l.x));
  // The pitch is the smaller half's median: a listing may hold as many blank lines as lines.
  const gaps = lines.slice(1).map((l, i) => lines[i]!.y - l.y).filter((g) => g > 0).sort((a, b) => a - b);
  const pitch = median(gaps.slice(0, Math.ceil(gaps.length / 2)));
  return lines
    .map((l, i) => {
      const first = l.runs[0];
      const cell = first && first.text.length > 0 ? first.width / first.text.length : 0;
      const indent = cell > 0 ? Math.round((l.x - left) / cell) : 0;
      const blank = i > 0 ? blankCodeLines(lines[i - 1]!.y - l.y, pitch) : 0;
      return "\n".repeat(blank) + (" ".repeat(Math.max(0, indent)) + l.text.trim()).trimEnd();
    })
    .join("\n");
}
