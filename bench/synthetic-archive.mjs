// The generated text and archive of bench/archive.mjs and bench/serve.mjs: deterministic (a
// fixed seed), English words from fixtures/manifest.json ranked by frequency, then 20,000
// made-up rarer words, drawn Zipf-like, so the index sees a realistic vocabulary.
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The text generator: every call draws from one seeded sequence, so a run is the same every time. */
export function syntheticText(root) {
  let seed = 0x5eed;
  const random = () => {
    // mulberry32
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (list) => list[Math.floor(random() * list.length)];
  const between = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));

  const manifest = JSON.parse(readFileSync(join(root, "fixtures/manifest.json"), "utf8"));
  const counts = new Map();
  for (const entry of manifest) {
    for (const w of (entry.expected?.reflow ?? "").toLowerCase().match(/[a-z]+(?:'[a-z]+)?/g) ?? []) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  const syllables = ["ba", "ker", "lo", "mi", "nor", "sta", "tel", "vi", "ran", "quo", "dre", "sen", "pol", "gar", "fen", "ith", "ul", "cas", "mar", "ton"];
  const made = new Set();
  while (made.size < 20_000) made.add(Array.from({ length: between(2, 4) }, () => pick(syllables)).join(""));
  const word = zipfDraw([...[...counts].sort((a, b) => b[1] - a[1]).map(([w]) => w), ...made], random);
  const sentence = () => {
    const words = Array.from({ length: between(8, 24) }, word);
    words[0] = words[0][0].toUpperCase() + words[0].slice(1);
    return words.join(" ") + pick([".", ".", ".", ".", "?", ";"]).replace(";", ".");
  };
  const paragraph = () => Array.from({ length: between(2, 6) }, sentence).join(" ");
  return { random, pick, between, word, sentence, paragraph };
}

export const CHUNKS_PER_DOCUMENT = 40;
export const PAGES_PER_DOCUMENT = 8;
const hex = (n) => n.toString(16).padStart(64, "0");

/**
 * Document results of `chunks` chunks of about `chunkChars` characters, 40 to a document and 8
 * pages each, as the sqlite sink receives them (`chunkId` from the build's chunk stage).
 */
export function archiveDocuments(text, { chunks: CHUNKS, chunkChars, charsPerToken, limits, chunkId }) {
  const { paragraph } = text;
  const archiveResults = [];
  for (let d = 0, made = 0; made < CHUNKS; d++) {
    const documentId = hex(1_000_000 + d);
    const uri = `/bench/archive/${String(d).padStart(5, "0")}.pdf`;
    const count = Math.min(CHUNKS_PER_DOCUMENT, CHUNKS - made);
    const chunkTexts = Array.from({ length: count }, () => {
      let t = paragraph();
      while (t.length < chunkChars) t += "\n\n" + paragraph();
      return t.slice(0, t.lastIndexOf(" ", chunkChars) > 0 ? t.lastIndexOf(" ", chunkChars) : chunkChars);
    });
    const perPage = Math.ceil(count / PAGES_PER_DOCUMENT);
    const pages = Array.from({ length: Math.ceil(count / perPage) }, (_, p) => {
      const text = chunkTexts.slice(p * perPage, (p + 1) * perPage).join("\n\n");
      return { type: "page", documentId, uri, number: p + 1, width: 612, height: 792, rotation: 0, lines: [], paragraphs: [], text, mode: "reflow", empty: false, orderSource: "geometry", orderReason: "untagged", untaggedGlyphs: 0, columns: 1 };
    });
    let offset = 0;
    const chunks = chunkTexts.map((text, index) => {
      const page = Math.floor(index / perPage) + 1;
      const record = {
        type: "chunk", id: chunkId(documentId, uri, index), documentId, uri, index, text, prefix: "", pageStart: page, pageEnd: page, pageLabels: [String(page)],
        charStart: offset, charEnd: offset + text.length, tokenCount: Math.round(text.length / charsPerToken), tokenizer: "gpt-tokenizer", encoding: "cl100k_base",
        limits, headings: [`${page}. Section`], flags: [],
        // Where it stands, as the chunk stage says it: a piece at the foot of one column and one
        // at the top of the next, so the archive holds boxes of a usual size.
        boxes: [
          { page, x0: 72, y0: 400.25 + (index % 7) * 10, x1: 295.5, y1: 720.75 },
          { page, x0: 316.5, y0: 72, x1: 540, y1: 250.5 + (index % 5) * 12 },
        ],
      };
      offset += text.length + 2;
      return record;
    });
    archiveResults.push({ status: "ok", uri, document: { documentId, uri, size: 100_000, pageCount: pages.length, tagged: false, title: `Bench document ${d}` }, pages, chunks, warnings: [] });
    made += count;
  }
  return archiveResults;
}

/** The search measurement's queries, `n` of each kind: a word, two words, a three-word phrase from a chunk, a 4-letter prefix. */
export function queryMix(text, archiveResults, n) {
  const { pick, between, word } = text;
  const sampleChunk = () => pick(archiveResults).chunks[0].text.split(/\s+/).map((w) => w.replace(/[^a-z']/gi, "").toLowerCase()).filter(Boolean);
  return {
    word: Array.from({ length: n }, () => word()),
    "two words": Array.from({ length: n }, () => `${word()} ${word()}`),
    phrase: Array.from({ length: n }, () => {
      const ws = sampleChunk();
      const at = between(0, Math.max(0, ws.length - 3));
      return `"${ws.slice(at, at + 3).join(" ")}"`;
    }),
    prefix: Array.from({ length: n }, () => {
      let w = word();
      while (w.length < 5) w = word();
      return w.slice(0, 4) + "*";
    }),
  };
}

/**
 * Chinese-like text for the CJK measurement: words of one to three Han characters (from the
 * first 3,000 of the CJK Unified Ideographs block, drawn Zipf-like like the English words),
 * written without spaces, with commas and full stops. Not Chinese, but what the index sees of
 * it: runs of ideographs that unicode61 keeps whole and the bigram column pairs.
 */
export function syntheticCjkText(random) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const between = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1));
  const chars = Array.from({ length: 3000 }, (_, i) => String.fromCodePoint(0x4e00 + i));
  const made = new Set();
  while (made.size < 20_000) made.add(Array.from({ length: between(1, 3) }, () => pick(chars)).join(""));
  const word = zipfDraw([...made], random);
  const sentence = () => Array.from({ length: between(8, 24) }, (_, i) => (i > 0 && random() < 0.12 ? "，" : "") + word()).join("") + "。";
  const paragraph = () => Array.from({ length: between(2, 6) }, sentence).join("");
  return { random, pick, between, word, sentence, paragraph };
}

/** Draws words of `vocabulary` Zipf-like: rank r with probability ∝ 1 / (r + 10). */
function zipfDraw(vocabulary, random) {
  const cumulative = [];
  let total = 0;
  for (let r = 0; r < vocabulary.length; r++) cumulative.push((total += 1 / (r + 10)));
  return () => {
    const x = random() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return vocabulary[lo];
  };
}
