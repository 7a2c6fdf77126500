/**
 * What looks like a heading but is not (docs/extraction.md §6.7): a paragraph that stands apart
 * from the body by its size or its weight is still no heading when its text says otherwise —
 * a sentence fragment, a formula, a caption, a date or a contact line, a label that leads into
 * what follows. Each guard returns why, for a test to name.
 */

/** What a paragraph shows of itself, as heading detection reads it. */
export interface HeadingLooks {
  /** Its lines joined into one. */
  text: string;
  lines: number;
  /** The smallest font size of its lines. */
  size: number;
  bold: boolean;
  /** Set in capitals (three letters or more, none lower case). */
  caps: boolean;
  /** The font most of its characters are set in (its name in the records). */
  font: string;
  /** Every line centred on the page's text, clear of both its edges. */
  centred: boolean;
  /** Words, a pair of CJK characters counting as one. */
  words: number;
}

/** Where a heading was found: its tag, the outline, its size, or its weight, capitals or number in the body's size. */
export type HeadingSource = "tag" | "outline" | "size" | "style";

/**
 * Words that do not end a title, in lower case: a line that stops on one goes on (English, French,
 * Spanish, German, Italian, Dutch). A capitalised one ends a name ("Debarghya Das").
 */
const FUNCTION_WORD_END = /\s(?:the|a|an|of|to|in|and|or|for|with|by|on|at|from|as|that|which|is|are|was|de|la|le|les|el|los|las|des|du|et|y|o|en|del|por|para|con|que|der|die|das|den|dem|und|oder|mit|von|zu|im|für|auf|il|di|e|het|een)$/u;
/**
 * A paragraph that stops on a comma, a semicolon or a hyphen leaves its sentence open: it is no
 * heading, and what follows it goes on with it ("…in Jakarta," + "Indonesia, resulting in…").
 */
export const LEFT_OPEN = /[,;\-–]$/u;
/**
 * Mathematical operators and relations, and private-use characters (a math font's glyphs that
 * map to no Unicode: the Bitcoin paper's "q / p if p ≤ q" comes out as "q / p if pq"): a line
 * that holds one is a formula, however large its type.
 */
const FORMULA = /[=<>≤≥∑∏∫√±×÷∂∇∞≈≠∈∉⊂⊃∪∩→←⇒⇔∀∃\uE000-\uF8FF]/u;
/**
 * A caption's opening: "Figure 3", "Fig. 3:", "Table 2.1", "Abbildung 4", "Tableau 1 :", "Carte 1",
 * "Gráfico 2" — the word, a number (digits, a roman numeral or a capital letter, case-sensitive:
 * "Figures for…" and "Table of contents" are no captions), then the end, punctuation or the
 * caption's text.
 */
const CAPTION_WORD = /^(?:figure|fig\.|table|tab\.|chart|graph|exhibit|listing|algorithm|scheme|plate|map|photo|illustration|abbildung|abb\.|tabelle|grafik|karte|tableau|graphique|carte|tabla|figura|gráfico|grafico|cuadro|mapa|tabella|figuur|tabel|kaart)(?=[\s\d])|^[图表図](?=\s*\d)/iu;
const CAPTION_NUMBER = /^\s*(?:\d+(?:[.\-–]\d+)*[a-z]?|[IVXLC]+|[A-Z])(?:\s*[:.—–-]|\s|$)/u;
const MONTH = /\b(?:jan(?:uary|vier)?|feb(?:ruary)?|févr(?:ier)?|mar(?:ch|s)?|apr(?:il)?|avr(?:il)?|may|mai|jun(?:e)?|juin|jul(?:y)?|juil(?:let)?|aug(?:ust)?|août|sep(?:t(?:ember)?)?|oct(?:ober|obre)?|nov(?:ember|embre)?|dec(?:ember)?|déc(?:embre)?|januar|februar|märz|juni|juli|oktober|dezember|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre)\b/iu;
/** An amount at the end: a menu's dish, a price list's item ("Carpaccio de Lomito 10$", "Widget € 12,50"). */
const PRICE_END = /(?:[$€£¥]\s?\d[\d.,]*|\d[\d.,]*\s?[$€£¥])$/u;
/**
 * Words a heading told only by its larger type holds at most: a longer run of large roman type is
 * an announcement or a pull quote (a title that long is set in bold or capitals: a decree's).
 */
const MAX_PLAIN_LARGE_WORDS = 20;
/**
 * A date: a day, a month and a year in either order, a month and a year, or an ISO date ("20 décembre
 * 2022", "October 31, 2018", "Dec 2014", "2026-03-01").
 */
const MONTH_NAMES = MONTH.source.slice(MONTH.source.indexOf("(?:"), MONTH.source.lastIndexOf(")") + 1);
const DATE = new RegExp(String.raw`\b(?:\d{1,2}\.?\s+(?:de\s+)?${MONTH_NAMES}\.?\s+(?:de\s+)?\d{4}|${MONTH_NAMES}\.?\s+(?:\d{1,2},?\s+)?\d{4}|\d{4}-\d{2}-\d{2})\b`, "iu");
/** Words besides the date a date line holds at most: "Due Date: Jun 3, 2013", "Dec 2014 | Ithaca, NY". */
const MAX_WORDS_BESIDE_DATE = 3;

/** Why the paragraph is no heading, or undefined when nothing says so. */
export function guardHeading(looks: HeadingLooks, source: HeadingSource): string | undefined {
  const text = looks.text.trim();
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  if (letters < 2) return "no words";
  if (source === "tag") return undefined;
  if (isCaptionText(text)) return "a caption";
  if (source === "outline") return undefined;
  const inked = text.replace(/\s/gu, "").length;
  if (letters < 0.5 * inked) return "mostly figures or symbols";
  if (FORMULA.test(text) || singleLetterWords(text)) return "a formula";
  const date = DATE.exec(text);
  if (date && headingWords(text.replace(date[0], " ")) <= MAX_WORDS_BESIDE_DATE) return "a date";
  if (/^[\p{Ll}]/u.test(text.replace(/^[\d.()\s]+/u, ""))) return "starts in lower case: a sentence going on";
  if (LEFT_OPEN.test(text) || FUNCTION_WORD_END.test(text)) return "ends where a sentence goes on";
  if (/[:：]$/u.test(text) && !looks.caps) return "a label leading into what follows";
  if (isContactLine(text)) return "a contact line";
  if ((/[.!?]$/u.test(text) && looks.words > 12) || /[。！？]$/u.test(text)) return "a sentence";
  if (source === "size" && !looks.bold && !looks.caps && looks.words > MAX_PLAIN_LARGE_WORDS) return "a passage set large, not a title";
  if (PRICE_END.test(text)) return "an item with its price";
  return undefined;
}

/** The paragraph opens like a figure's or a table's caption. */
export function isCaptionText(text: string): boolean {
  const t = text.trim();
  const word = CAPTION_WORD.exec(t);
  return word !== null && CAPTION_NUMBER.test(t.slice(word[0].length));
}

const CJK_CHARACTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

/** Words of a text; Chinese, Japanese and Korean text, written without spaces, counts a word for every two characters. */
export function headingWords(text: string): number {
  const cjk = (text.match(CJK_CHARACTER) ?? []).length;
  const latin = text.replace(CJK_CHARACTER, " ").split(/\s+/u).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  return latin + Math.ceil(cjk / 2);
}

/** Words of section titles and of the names of documents, which a byline of people's names never holds. */
const SECTION_WORDS = /\b(?:abstract|summary|introduction|overview|background|contents|preface|foreword|acknowledg\w*|references|appendix|chapter|part|section|conclusions?|results|discussion|methods?|related|work|notes?|report|review|guide|manual|handbook|proposal|plan|policy|statement|agreement|contract|notice|minutes|agenda|newsletter|bulletin|quarterly|annual|budget|accounts|invoice|schedule|terms|conditions)\b/iu;

/**
 * Names as a byline prints them: two to four capitalised words each (initials, particles such as
 * "van" or "de" between them), separated by commas, "and", "&" or wide spaces, twelve words at
 * most and no digits: "Satoshi Nakamoto", "Yusuke Shinyama Satoshi Sekine", "A. Novak and J. van
 * Dijk".
 */
export function isByline(text: string): boolean {
  if (/\d|[:;.!?]$/u.test(text) || SECTION_WORDS.test(text)) return false;
  const words = text.split(/[\s,&·]+|\band\b|\bund\b|\bet\b|\by\b/u).filter(Boolean);
  if (words.length < 2 || words.length > 12) return false;
  return words.every((w) => /^(?:\p{Lu}[\p{Ll}'’-]+|\p{Lu}\.(?:-?\p{Lu}\.)?|van|von|de|der|den|da|di|du|del|la|le)$/u.test(w));
}

/** An e-mail address, a web address or a telephone number: a letterhead's or a signature's line. */
export function isContactLine(text: string): boolean {
  return /@\S+\.\p{L}|https?:|www\.|(?:tel|phone|fax)[.:]|\(\d{3}\)\s?\d{3}/iu.test(text);
}

/**
 * A postal address's line: a house number before a street ("27 rue Henri Rolland", "1101 Strayer
 * Drive"), or a postcode before a town ("69100 Villeurbanne", "NY 12123").
 */
export function isAddressLine(text: string): boolean {
  return /^\d{1,5}[a-z]?,?\s+(?:rue|avenue|av\.|bd|boulevard|chemin|place|calle|avda\.|via|viale|\p{Lu}[\p{L}'’-]+\s+(?:street|st\.?|road|rd\.?|avenue|ave\.?|drive|dr\.?|lane|way|court|place|straße|strasse|weg|gasse|platz|allee|laan|straat))\b|\b\d{5}\s+\p{Lu}\p{Ll}+|\b[A-Z]{2}\s+\d{5}(?:-\d{4})?\b/u.test(text);
}

/** Three words or more, at least half of them single letters: variables ("q / p if p q"), not a title. */
function singleLetterWords(text: string): boolean {
  const words = text.split(/[\s/()[\],;:+*-]+/u).filter((w) => /\p{L}/u.test(w));
  return words.length >= 3 && words.filter((w) => /^\p{L}$/u.test(w)).length * 2 >= words.length;
}

/** A table title repeated over the rest of its table on the next page: "ESTIMATED COSTS—Continued", "Table 3 (continued)". */
const CONTINUED = /\s*(?:[—–-]\s*|\(\s*)(?:continued|cont\.|cont'd|suite|fortsetzung|continuación|continua)\)?\s*$/iu;

/** The title without a "—Continued" suffix, when it has one; undefined otherwise. */
export function continuedTitle(text: string): string | undefined {
  return CONTINUED.test(text) ? text.replace(CONTINUED, "").trim() : undefined;
}
