/**
 * A page number that needs no other page to be recognised (docs/extraction.md §9.6). Nightly
 * ingestion is full of one- and two-page documents — invoices, excerpts, forms — where a footer
 * has no neighbour to repeat on, yet "Page 1/1", "－ 15 －" or "62 ANNUAL REPORT 2021" in the
 * bottom margin is no more content than on page 40 of a book. The text alone decides here; where
 * such a line may be taken (the outermost line of its band, set apart from the body) is decided
 * with the repeated furniture in `furniture-detection.ts`.
 */

/** Words for "page" in the languages of the documents pagestream reads. */
export const PAGE_WORD = /^(?:page|pages|pp?|seite|s|página|pagina|pág|pag|blatt|folio|feuille|sida|strona|str)\.?$/i;

/** "of" between a page number and the page count ("Page 2 of 3", "Página 2 de 3", "Seite 2 von 3"). */
const OF_WORD = /^(?:of|de|von|sur|di|van|av|z|из)$/i;

/** Marks set around or beside a page number: "- 7 -", "[7]", "74 |", "• 7". */
const DECORATION = /^[-–—|•·[\]()]+$/;

/** A roman numeral, well formed: "xii", "XIV", never a word made of their letters ("civil", "mild"). */
export const ROMAN = /^(?=[ivxlcdm]+$)m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$/i;

/** A page number: four digits at most, or a roman numeral. */
const isNumber = (token: string) => /^\d{1,4}$/.test(token) || ROMAN.test(token);

/** A chapter-relative page number standing alone ("1.9", "3-12", "A-4"). */
const CHAPTER_PAGE = /^(?:\d{1,2}|[A-Z])[.\-–]\d{1,3}$/;

/** "2/3": a page and the page count in one token. */
const PAGE_OF_COUNT = /^\d{1,4}\/\d{1,4}$/;

/**
 * An edge number (the line's first or last word, beside a running title) is a page number only
 * up to this: beyond it a number at a line's end is a year ("Annual Report 2021") or an amount.
 */
const MAX_EDGE_PAGE = 999;

/**
 * An edge number counts only on a line set smaller than the page's body text (× this): running
 * titles with their page number are small type, while a total or a reference at the foot of an
 * invoice, in body type, ends with a number too.
 */
const SMALL_TYPE_RATIO = 0.9;

/** Words in a running title beside its page number, at most. */
const MAX_TITLE_WORDS = 8;

/**
 * Whether a line is, or ends or starts with, a printed page number: a lone number (decorated or
 * not: "15", "- 15 -", "xii", "1.9"), a "page" phrase at either end ("Facture 20220 - Page 1/1",
 * "Página 2 de 3"), or — on a line set smaller than the body — a running title with the page
 * number at its outer end ("62 ANNUAL REPORT 2021", "74 | AB INCOME FUND").
 */
export function isPageNumberLine(text: string, fontSize: number, bodySize: number): boolean {
  const tokens = text.normalize("NFKC").trim().split(/\s+/).filter(Boolean);
  if (tokens.length === 0) return false;
  const words = tokens.filter((t) => !DECORATION.test(t));
  if (words.length === 1 && (isNumber(words[0]!) || CHAPTER_PAGE.test(words[0]!) || PAGE_OF_COUNT.test(words[0]!))) return true;
  if (words.length === 0) return false;
  if (pagePhraseAt(words, "end") !== undefined || pagePhraseAt(words, "start") !== undefined) return true;
  if (!(bodySize > 0 && fontSize <= SMALL_TYPE_RATIO * bodySize)) return false;
  // A running title is a few words and no sentence; a footnote ("1 Members who wish to…") is one.
  if (words.length > MAX_TITLE_WORDS || /[.!?:;]$/.test(words[words.length - 1]!)) return false;
  return edgePage(tokens[0]!) || edgePage(tokens[tokens.length - 1]!);
}

/**
 * The printed page number of a "page" phrase at either end of a line ("Facture 20220 - Page 1/1"
 * gives "1", "Página 2 de 3" gives "2"), or undefined: the page label of a line that has no
 * neighbour to compare with (furniture-detection.ts).
 */
export function pagePhraseNumber(text: string): string | undefined {
  const words = text.normalize("NFKC").trim().split(/\s+/).filter((t) => t && !DECORATION.test(t));
  return pagePhraseAt(words, "end") ?? pagePhraseAt(words, "start");
}

/** The number of a "Page 3", "Page 3 of 9", "Page 3/9" or "p. 3" as the first or the last words. */
function pagePhraseAt(words: readonly string[], end: "start" | "end"): string | undefined {
  for (const length of [2, 4]) {
    if (words.length < length) continue;
    const number = pagePhrase(end === "start" ? words.slice(0, length) : words.slice(-length));
    if (number !== undefined) return number;
  }
  return undefined;
}

function pagePhrase(part: readonly string[]): string | undefined {
  const [word, number, of, count] = part;
  if (!word || !PAGE_WORD.test(word) || !number) return undefined;
  if (part.length === 2) return isNumber(number) ? number : PAGE_OF_COUNT.test(number) ? number.split("/")[0] : undefined;
  return isNumber(number) && OF_WORD.test(of!) && /^\d{1,4}$/.test(count!) ? number : undefined;
}

function edgePage(token: string): boolean {
  return /^\d{1,3}$/.test(token) && Number(token) >= 1 && Number(token) <= MAX_EDGE_PAGE;
}
