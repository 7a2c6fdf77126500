/**
 * Tesseract's TSV output: one row per page, block, paragraph, line and word (`level` 1–5), each
 * with its box in image pixels (origin top left, y down) and, for words, a confidence 0–100
 * (-1 on the other levels). Only the words are kept, with the ids of the line they are on.
 */

/** One word as Tesseract read it, in image pixels. */
export interface OcrWord {
  text: string;
  /** Box: left and top edge, width and height, in pixels of the image Tesseract read. */
  left: number;
  top: number;
  width: number;
  height: number;
  /** 0–100. */
  confidence: number;
  /** Block, paragraph and line numbers: words with the same three are on one line. */
  block: number;
  paragraph: number;
  line: number;
}

const HEADER = ["level", "page_num", "block_num", "par_num", "line_num", "word_num", "left", "top", "width", "height", "conf", "text"];
const WORD_LEVEL = 5;

/** The words of a TSV, in Tesseract's order. Throws on output that is not Tesseract's TSV. */
export function parseTsv(tsv: string): OcrWord[] {
  const rows = tsv.split(/\r?\n/);
  const header = rows[0]?.split("\t") ?? [];
  if (HEADER.some((name, i) => header[i] !== name)) throw new Error(`not Tesseract TSV output (header: ${JSON.stringify(rows[0]?.slice(0, 80) ?? "")})`);
  const words: OcrWord[] = [];
  for (const row of rows.slice(1)) {
    if (!row) continue;
    const cells = row.split("\t");
    if (Number(cells[0]) !== WORD_LEVEL) continue;
    // The text is the last column and may itself hold no tab, but can be empty or spaces.
    const text = (cells.slice(11).join("\t") ?? "").trim();
    if (!text) continue;
    const [block, paragraph, line, , left, top, width, height, confidence] = cells.slice(2, 11).map(Number) as number[];
    if (![left, top, width, height].every((v) => Number.isFinite(v))) continue;
    words.push({ text, left: left!, top: top!, width: width!, height: height!, confidence: Math.max(0, confidence ?? 0), block: block!, paragraph: paragraph!, line: line! });
  }
  return words;
}
