/**
 * A page's running titles: what its header and footer lines say once their page numbers are
 * taken off (docs/extraction.md §9.8). The one line that names the fund, the contract or the
 * court file is often only there ("Privium Done Hedge Fund" above "Key figures"), and a chunk
 * that loses it no longer says whose figures it holds; chunks carry these titles as metadata.
 * - a "page" phrase at either end goes ("Page 3 of 9", "Seite 3", "Página 2 de 3");
 * - a number at either end goes when it is the printed page label or three digits at most
 *   ("62 ANNUAL REPORT 2021" keeps "ANNUAL REPORT 2021"), and so do the marks set around it
 *   ("- 7 -", "74 |");
 * - a line with fewer than two letters left (a bare page number, a rule of dots) is no title;
 * - a line repeated on the page is kept once.
 */
import { PAGE_WORD } from "./page-number-line.js";

/** "of" between a page number and the page count. */
const OF_WORD = /^(?:of|de|von|sur|di|van|av|z|из)$/iu;
/** Marks set around or beside a page number. */
const DECORATION = /^[-–—|•·[\]():/]+$/u;

export function runningTitles(lines: readonly string[], pageLabel: string | undefined): string[] {
  const titles: string[] = [];
  for (const line of lines) {
    const title = withoutPageNumber(line, pageLabel);
    if ((title.match(/\p{L}/gu) ?? []).length >= 2 && !titles.includes(title)) titles.push(title);
  }
  return titles;
}

function withoutPageNumber(line: string, pageLabel: string | undefined): string {
  // Cells of a header set as a row keep apart.
  const tokens = line.normalize("NFKC").replace(/\t/gu, "  ").trim().split(/\s+/u);
  const pageNumber = (t: string) => t === pageLabel || /^\d{1,3}$/u.test(t) || /^\d{1,4}\/\d{1,4}$/u.test(t);
  const trim = (from: "start" | "end") => {
    const at = () => (from === "start" ? 0 : tokens.length - 1);
    const take = () => (from === "start" ? tokens.shift() : tokens.pop());
    while (tokens.length && DECORATION.test(tokens[at()]!)) take();
    // "Page 3 of 9" / "Page 3" at the start, "… Page 3 of 9" / "… Page 3" at the end.
    const phrase = from === "start" ? tokens.slice(0, 4) : tokens.slice(-4);
    const words = from === "start" ? phrase : [...phrase].reverse();
    if (from === "start" && words[0] && PAGE_WORD.test(words[0]) && words[1] && pageNumber(words[1])) {
      tokens.splice(0, words[2] && OF_WORD.test(words[2]) && words[3] ? 4 : 2);
    } else if (from === "end") {
      const n = tokens.length;
      if (n >= 4 && PAGE_WORD.test(tokens[n - 4]!) && OF_WORD.test(tokens[n - 2]!) && pageNumber(tokens[n - 3]!)) tokens.splice(n - 4, 4);
      else if (n >= 2 && PAGE_WORD.test(tokens[n - 2]!) && pageNumber(tokens[n - 1]!)) tokens.splice(n - 2, 2);
    }
    if (tokens.length && pageNumber(tokens[at()]!)) take();
    while (tokens.length && DECORATION.test(tokens[at()]!)) take();
  };
  trim("start");
  trim("end");
  return tokens.join(" ");
}
