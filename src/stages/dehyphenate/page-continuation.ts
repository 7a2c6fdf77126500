/**
 * A paragraph that runs over a page break: the last paragraph of a page goes on in the first
 * paragraph of the next when the page's last line runs to the margin and the next page's first
 * line is set like a continuation (same size, not indented, not opening a new sentence after one
 * that ended). Marked as `continues` on the page, so document text joins the two halves into one
 * paragraph: a sentence broken across the page boundary reads whole (docs/extraction.md §10.5).
 */
import type { Line, PageRecord } from "../../core/records.js";
import { roleLevel } from "../../text/block-roles.js";
import { maxOf, sameFontSize } from "../../text/text-geometry.js";

const SENTENCE_END = /[.!?:]["”’»)\]]*$/u;
const SENTENCE_START = /^["“‘„«(\[]*\p{Lu}/u;

export function continuesOnNextPage(page: PageRecord, next: PageRecord): boolean {
  const last = page.paragraphs[page.paragraphs.length - 1];
  const first = next.paragraphs[0];
  if (last?.kind !== "text" || first?.kind !== "text") return false;
  // A heading never runs on, nor does a paragraph into one.
  if (roleLevel(last.role) !== undefined || roleLevel(first.role) !== undefined) return false;
  const tail = page.lines[last.end - 1]!;
  const head = next.lines[first.start]!;
  if (!sameFontSize(tail.fontSize, head.fontSize)) return false;
  // The next page's first line indented (more than an em) against the line under it opens a paragraph.
  const after = next.lines[first.start + 1];
  if (after && first.end > first.start + 1 && head.x - after.x > head.fontSize) return false;
  if (!reachesMargin(page.lines, tail, page.width)) return false;
  // A full last line that ends a sentence, followed by a capital (after any opening quote or
  // bracket: "“Contributor” shall mean…"): a new paragraph as likely as not.
  return !(SENTENCE_END.test(tail.text) && SENTENCE_START.test(head.text));
}

/**
 * The line ends at the right edge of the page's text of its size (within two ems: room for ragged
 * right and a hyphenated break; a paragraph's last line falls shorter). With too few
 * such lines to know that edge (a caption alone on a page), it must span most of the page.
 */
function reachesMargin(lines: readonly Line[], line: Line, pageWidth: number): boolean {
  const same = lines.filter((l) => !l.offAxis && sameFontSize(l.fontSize, line.fontSize));
  if (same.length < 3 && pageWidth > 0 && line.width < 0.6 * pageWidth) return false;
  const right = maxOf(same, (l) => l.x + l.width);
  return right - (line.x + line.width) <= 2 * line.fontSize;
}
