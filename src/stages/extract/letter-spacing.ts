/**
 * Letter-spaced words inside one run. pdf.js turns a heading set with wide character spacing
 * into "A N N U A L" (it sees each gap as a space) and keeps the wider word gap as two spaces.
 * A stretch of three or more single letters or digits separated by single spaces, standing as
 * a whole run or between double spaces, is one word (three: two single letters in a row occur in
 * ordinary text; docs/extraction.md §2.3). A lone "a b c" inside a sentence is
 * left alone: only a whole letter-spaced stretch is rewritten.
 */
const LETTER_SPACED = /^[\p{L}\p{N}](?: [\p{L}\p{N}]){2,}$/u;

/** Three single letters or digits a space apart somewhere: what any letter-spaced stretch holds (asked of every run). */
const MAY_BE_LETTER_SPACED = /[\p{L}\p{N}] [\p{L}\p{N}] [\p{L}\p{N}]/u;

export function collapseLetterSpacedText(text: string): string {
  if (!text.includes(" ") || !MAY_BE_LETTER_SPACED.test(text)) return text;
  const parts = text.split(/( {2,})/);
  let changed = false;
  const out = parts.map((part, i) => {
    if (i % 2 === 1) return part;
    const lead = part.match(/^\s*/)![0];
    const trail = part.match(/\s*$/)![0];
    const core = part.trim();
    if (!LETTER_SPACED.test(core)) return part;
    changed = true;
    return lead + core.replaceAll(" ", "") + trail;
  });
  if (!changed) return text;
  // The double spaces that separated letter-spaced words are now plain word spaces.
  return out.map((p, i) => (i % 2 === 1 ? " " : p)).join("");
}
