/**
 * Rejoining words broken at line ends, within paragraphs and across page breaks. The decided
 * word is moved up whole onto the line where it starts (`well-` + `known fault` becomes
 * `well-known` + `fault`), so both modes read right: preserve keeps its lines, and reflow joins
 * them with a plain space. It runs after furniture is gone and after reading order is fixed, so
 * the hyphen is at the end of the right line (docs/extraction.md §10).
 */
import { withLineTexts } from "../../text/page-edit.js";
import type { Dehyphenation, PageRecord } from "../../core/records.js";
import { decideHyphen, type HyphenDecision, type WordEvidence } from "./hyphen-decision.js";

export interface BrokenWordOptions {
  /** Join a word broken over a page break (the first line of the next page). */
  acrossPages: boolean;
  /**
   * Leading pages whose own line ends were decided already (a page a window held back for the
   * break after it, src/core/stage-operators.ts): only the break after them is looked at. 0 when absent.
   */
  decided?: number;
}

/** A line that ends in a word and a hyphen glued to it, or a soft hyphen. */
const BROKEN_END = /([\p{L}\p{N}]+)([-\u2010\u2011\u00AD])$/u;
/** Justified text sometimes sets the break hyphen apart ("pre -"): joined only on evidence. */
const SPACED_END = /(\p{L}+) [-\u2010\u2011]$/u;
/** A line that ends in a letter: a word that goes on on the next line when the hyphen was lost. */
const BARE_END = /(\p{L}+)$/u;

// Each end is looked for in the line's last word (the last two for a spaced hyphen), which holds
// all of what it matches: the same match, without the pattern being tried from every position of
// the line (the dehyphenate stage asks this of every line of every paragraph).

/** The word and the hyphen a line ends in, glued (BROKEN_END): [, word, hyphen]. */
export function brokenEnd(line: string): RegExpExecArray | null {
  return BROKEN_END.exec(line.slice(line.lastIndexOf(" ") + 1));
}

/** The word a line ends in before a hyphen set apart (SPACED_END): [, word]. */
function spacedEnd(line: string): RegExpExecArray | null {
  return SPACED_END.exec(line.slice(line.lastIndexOf(" ", line.length - 3) + 1));
}

/** The letters a line ends in (BARE_END): [, word]. */
function bareEnd(line: string): RegExpExecArray | null {
  return BARE_END.exec(line.slice(line.lastIndexOf(" ") + 1));
}
export const FIRST_CHUNK = /^(\S+)/u;
export const FIRST_WORD = /^[\p{L}\p{N}]+/u;

interface Place {
  page: number;
  line: number;
}

export function joinBrokenWords(pages: readonly PageRecord[], evidence: WordEvidence, options: BrokenWordOptions): PageRecord[] {
  const texts = pages.map((p) => p.lines.map((l) => l.text));
  const joins: Dehyphenation[][] = pages.map(() => []);
  const pairs: [Place, Place][] = [];
  const decided = options.decided ?? 0;
  pages.forEach((page, p) => {
    if (p < decided) return;
    for (const para of page.paragraphs) {
      if (para.kind !== "text") continue;
      for (let i = para.start; i + 1 < para.end; i++) pairs.push([{ page: p, line: i }, { page: p, line: i + 1 }]);
    }
  });
  if (options.acrossPages) {
    for (let p = Math.max(0, decided - 1); p + 1 < pages.length; p++) {
      const last = lastTextLine(pages[p]!);
      const first = firstTextLine(pages[p + 1]!);
      if (last !== undefined && first !== undefined) pairs.push([{ page: p, line: last }, { page: p + 1, line: first }]);
    }
  }
  const edges = lineEdgeWords(pairs, texts);
  const lostHyphens = losesHyphens(pairs, texts, evidence, edges);
  for (const [upper, lower] of pairs) {
    const above = texts[upper.page]![upper.line]!;
    const below = texts[lower.page]![lower.line]!;
    const chunk = FIRST_CHUNK.exec(below)?.[1];
    const right = chunk ? FIRST_WORD.exec(chunk)?.[0] : undefined;
    if (!chunk || !right) continue;
    const broken = brokenEnd(above);
    const spaced = broken ? null : spacedEnd(above);
    const bare = broken || spaced || !lostHyphens ? null : bareEnd(above);
    let keptText: string;
    let left: string;
    let join: boolean;
    let reason: HyphenDecision["reason"] | "lost_hyphen";
    if (broken) {
      left = broken[1]!;
      const decision = decideHyphen(left, right, broken[2] === "\u00AD", evidence);
      ({ join, reason } = decision);
      keptText = above.slice(0, -1) + (join ? "" : "-");
    } else if (spaced) {
      left = spaced[1]!;
      const solid = (left + right).toLowerCase();
      // Only with evidence: a spaced dash at a line end is more often a dash.
      if (!(evidence.count(solid) > 0 || evidence.isWord?.(solid))) continue;
      join = true;
      reason = evidence.count(solid) > 0 ? "document" : "dictionary";
      keptText = above.slice(0, -2);
    } else if (bare && isLostBreak(bare[1]!, right, evidence, edges)) {
      left = bare[1]!;
      join = true;
      reason = "lost_hyphen";
      keptText = above;
    } else {
      continue;
    }
    texts[upper.page]![upper.line] = keptText + chunk;
    texts[lower.page]![lower.line] = below.slice(chunk.length).trimStart();
    joins[upper.page]!.push({ left: bare ? left : `${left}-`, right, result: join ? left + right : `${left}-${right}`, reason });
  }
  return pages.map((page, p) => {
    const changed = new Map<number, string>();
    texts[p]!.forEach((t, i) => {
      if (t !== page.lines[i]!.text) changed.set(i, t);
    });
    const edited = withLineTexts(page, changed);
    return joins[p]!.length ? { ...edited, dehyphenated: [...(page.dehyphenated ?? []), ...joins[p]!] } : edited;
  });
}

/**
 * Some PDFs map the typesetter's hyphen to a soft hyphen (U+00AD; LaTeX's tagging does, as
 * PDF/UA asks), and pdf.js drops soft hyphens from the text layer: "in" + "cluding" is all that
 * is left. A document shows it by line ends that only make words when joined ("cluding" is no
 * word, "including" is) outnumbering the hyphens that did survive at line ends. Then, and only
 * then, such line ends are joined.
 */
function losesHyphens(pairs: readonly [Place, Place][], texts: readonly string[][], evidence: WordEvidence, edges: ReadonlyMap<string, number>): boolean {
  let lost = 0;
  let visible = 0;
  for (const [upper, lower] of pairs) {
    const above = texts[upper.page]![upper.line]!;
    const right = firstWord(texts[lower.page]![lower.line]!);
    if (!right) continue;
    if (brokenEnd(above)) visible++;
    else {
      const bare = bareEnd(above);
      if (bare && isLostBreak(bare[1]!, right, evidence, edges)) lost++;
    }
  }
  return lost >= MIN_LOST_BREAKS && lost > visible;
}

/** Line ends that need a lost hyphen to make sense before a document is read as losing them: one is a coincidence ("engineer's" + "time"). */
const MIN_LOST_BREAKS = 2;

/**
 * `left` + `right` is a word the evidence knows and one of the halves is none. A half counts as
 * a word when the word list has it or the text uses it away from line ends ("docu" broken twice
 * occurs twice, both times at a line end).
 */
function isLostBreak(left: string, right: string, evidence: WordEvidence, edges: ReadonlyMap<string, number>): boolean {
  if (!/^\p{Ll}/u.test(right)) return false;
  const isWord = (word: string) => evidence.isWord?.(word) ?? false;
  const used = (word: string) => evidence.count(word) > (edges.get(word) ?? 0);
  // The counts are asked before the word list, and the halves before the word they make: most
  // line ends are two words the text uses elsewhere, and are settled without a lookup in the list.
  const half = (word: string) => used(word) || isWord(word);
  if (half(left.toLowerCase()) && half(right.toLowerCase())) return false;
  const solid = (left + right).toLowerCase();
  return evidence.count(solid) > 0 || isWord(solid);
}

/** How often each word (lower case) stands at the end of a line or the start of the next, over the pairs. */
function lineEdgeWords(pairs: readonly [Place, Place][], texts: readonly string[][]): Map<string, number> {
  const edges = new Map<string, number>();
  const add = (word: string | undefined) => {
    if (word) edges.set(word.toLowerCase(), (edges.get(word.toLowerCase()) ?? 0) + 1);
  };
  for (const [upper, lower] of pairs) {
    add(bareEnd(texts[upper.page]![upper.line]!)?.[1]);
    add(firstWord(texts[lower.page]![lower.line]!));
  }
  return edges;
}

function firstWord(text: string): string | undefined {
  return FIRST_WORD.exec(FIRST_CHUNK.exec(text)?.[1] ?? "")?.[0];
}

function lastTextLine(page: PageRecord): number | undefined {
  const para = page.paragraphs[page.paragraphs.length - 1];
  return para?.kind === "text" ? para.end - 1 : undefined;
}

function firstTextLine(page: PageRecord): number | undefined {
  const para = page.paragraphs[0];
  return para?.kind === "text" ? para.start : undefined;
}
