/**
 * Section numbers a heading opens with, and how deep in the outline each puts it
 * (docs/extraction.md §6.6): "3.1.2 Results" is three deep, "Article 4." and "Chapter II" are
 * as deep as their keyword ranks (a part over a chapter over a section over an article), "A."
 * and "IV." one deep, and the Chinese and Japanese counters "第一章", "第二节", "一、", "（一）" as
 * deep as their rank. The number alone never makes a heading: "3. The board approved…" is a
 * list item. It says how headings that look alike nest, and backs a line that looks like a
 * heading in every other way.
 */

export interface SectionNumber {
  /** 1 for a top-level number ("3.", "Chapter 2", "A."), one more for each level below. */
  depth: number;
  /** How the number is written: its depth compares only with numbers written the same way. */
  scheme: "decimal" | "letter" | "roman" | "keyword" | "cjk";
  /** The number as printed ("3.1.2", "Article 4", "第二节"). */
  label: string;
}

/** "3", "3.1", "3.1.2." followed by a space and more: at most 3 digits a part, 6 parts (RFC 959 goes to 3.1.1.5.2). */
const DECIMAL = /^(\d{1,3}(?:\.\d{1,3}){0,5})\.?(?=\s+\S)/u;
/** "A." or "B)" before a title: appendices, annexes. */
const LETTER = /^([A-Z])[.)](?=\s+\S)/u;
/** "IV." before a title, a well-formed roman numeral of up to 7 letters. */
const ROMAN = /^((?=[IVXLC]+\.)(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3}))\.(?=\s+\S)/u;

/**
 * Structural keywords and their rank: what a part, a chapter, a section and an article are called
 * in English, French, Spanish, German, Italian, Portuguese and Dutch legal and technical texts.
 * A rank says which keyword nests in which; the depths of a document's keywords are its ranks.
 */
const KEYWORD_RANKS: Record<string, number> = {
  book: 1, livre: 1, libro: 1, buch: 1,
  part: 2, partie: 2, parte: 2, teil: 2, deel: 2,
  title: 3, titre: 3, título: 3, titulo: 3, titel: 3,
  chapter: 4, chapitre: 4, capítulo: 4, capitulo: 4, kapitel: 4, capitolo: 4, hoofdstuk: 4,
  section: 5, sección: 5, seccion: 5, abschnitt: 5, sezione: 5, secção: 5, afdeling: 5,
  subsection: 6, unterabschnitt: 6,
  article: 7, artículo: 7, articulo: 7, artikel: 7, articolo: 7, artigo: 7, "§": 7,
  appendix: 2, annex: 2, annexe: 2, anexo: 2, anhang: 2, anlage: 2, allegato: 2, bijlage: 2, schedule: 2, exhibit: 2,
};
const KEYWORD = new RegExp(
  `^(${Object.keys(KEYWORD_RANKS).filter((k) => k !== "§").join("|")}|§)\\s*((?:\\d{1,3}(?:\\.\\d{1,3})*|[IVXLCDM]{1,7}|[A-Z]|primer[oa]?|segund[oa]|tercer[oa]?|única|unico|único|preliminar)\\b\\.?)`,
  "iu",
);

/** Chinese and Japanese section counters, outermost first: 第一编, 第一章, 第一节, 一、, （一）. */
const CJK_COUNTERS: [RegExp, number][] = [
  [/^第[一二三四五六七八九十百零〇\d]+[编編部]/u, 1],
  [/^第[一二三四五六七八九十百零〇\d]+章/u, 2],
  [/^第[一二三四五六七八九十百零〇\d]+[节節条條]/u, 3],
  [/^[一二三四五六七八九十]+[、．.]/u, 4],
  [/^[（(][一二三四五六七八九十]+[）)]/u, 5],
];

/**
 * What follows a section number in a heading: punctuation, or a title that starts with a capital
 * or a digit ("3 Implementation", "Artículo 1. Objeto.", "TITLE I: WIPO…"). A number followed by
 * a word in lower case is a count or a reference in a sentence ("3 of the members", "Article 18
 * of the WPPT contains…").
 */
const TITLE_AFTER_NUMBER = /^(?:$|\s*[.:)\]–—-]|\s+[\p{Lu}\p{N}"“'‘(\p{Script=Han}])/u;

export function sectionNumber(text: string): SectionNumber | undefined {
  const t = text.trimStart();
  const decimal = DECIMAL.exec(t);
  if (decimal) return TITLE_AFTER_NUMBER.test(t.slice(decimal[0].length)) ? { depth: decimal[1]!.split(".").length, scheme: "decimal", label: decimal[1]! } : undefined;
  const keyword = KEYWORD.exec(t);
  if (keyword) return TITLE_AFTER_NUMBER.test(t.slice(keyword[0].length)) ? { depth: KEYWORD_RANKS[keyword[1]!.toLowerCase()] ?? 5, scheme: "keyword", label: keyword[0].trim() } : undefined;
  for (const [counter, depth] of CJK_COUNTERS) {
    const m = counter.exec(t);
    if (m) return { depth, scheme: "cjk", label: m[0] };
  }
  const roman = ROMAN.exec(t);
  if (roman && roman[1]) return { depth: 1, scheme: "roman", label: roman[1] };
  const letter = LETTER.exec(t);
  if (letter) return { depth: 1, scheme: "letter", label: letter[1]! };
  return undefined;
}
