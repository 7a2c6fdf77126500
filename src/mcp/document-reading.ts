/**
 * A document's text as the tools and resources hand it out: pages in a range, or the chunks
 * around one, in the format asked for, never more than {@link ANSWER_BOUNDS.maxTextChars}
 * characters of it, and where to read on when it was cut there.
 *
 * The archive stores a document in one view, the one its chunks were cut from (`text_format` of
 * the pipeline's chunk stage; Markdown in the default pipeline). Markdown is handed out as it is,
 * or as text with its markup taken off (markdown-to-text.ts); a document stored as plain text is
 * handed out as text whatever was asked, and the answer says so: there is no model to render
 * its Markdown from.
 */
import type { TextFormat } from "../core/records.js";
import type { DocumentRecord } from "../serve/archive-reader.js";
import { ANSWER_BOUNDS } from "./answer-bounds.js";
import { ArgumentError } from "./argument-error.js";
import { markdownToText } from "./markdown-to-text.js";
import { pageRange, printedLabel } from "./page-labels.js";
import type { ArchiveAccess } from "./tool-results.js";

/** The formats a client may ask for. */
export const READ_FORMATS = ["markdown", "text"] as const;
export type ReadFormat = (typeof READ_FORMATS)[number];

export interface PageText {
  number: number;
  label: string | null;
  text: string;
}

export interface ChunkText {
  chunk_id: string;
  chunk_index: number;
  page_start: number;
  page_end: number;
  page_labels: string[];
  headings: string[];
  text: string;
}

interface Reading {
  format: ReadFormat;
  /** Sentences the reader should see: what was cut, what format was given instead of the one asked. */
  notes: string[];
}

export interface PageReading extends Reading {
  pages: PageText[];
  /** The arguments that read on from where the text was cut. */
  next?: { pages: { from: number; to: number }; offset?: number };
}

export interface ChunkReading extends Reading {
  chunks: ChunkText[];
}

/**
 * Pages `from` to `to` (at most the document's last), starting `offset` characters into the
 * first, whole pages until the bound; a first page longer than the bound is cut, and `next`
 * carries the offset to read on at.
 */
export function readPages(archive: ArchiveAccess, document: DocumentRecord, range: { from: number; to?: number; offset?: number }, asked?: ReadFormat): PageReading {
  const last = document.pages ?? Number.MAX_SAFE_INTEGER;
  if (range.from > last) throw new ArgumentError("no_page", `the document has ${last} page${last === 1 ? "" : "s"}: there is no page ${range.from}`);
  if (range.to !== undefined && range.to < range.from) throw new ArgumentError("no_page", `pages.to (${range.to}) is before pages.from (${range.from})`);
  const to = Math.min(range.to ?? last, last);
  const notes: string[] = [];
  if (range.to !== undefined && range.to > last) notes.push(`The document has ${last} pages: read up to page ${last}.`);
  const pages: PageText[] = [];
  let next: PageReading["next"];
  let stored: TextFormat | undefined;
  let left = ANSWER_BOUNDS.maxTextChars;
  for (const page of archive.lookups.pages(document.row, range.from, to)) {
    stored = page.format;
    const skipped = pages.length === 0 ? (range.offset ?? 0) : 0;
    const text = inFormat(page.text, page.format, asked).slice(skipped);
    if (text.length > left) {
      if (pages.length === 0) {
        const cut = cutAt(text, left);
        pages.push({ number: page.number, label: page.label, text: text.slice(0, cut) });
        next = { pages: { from: page.number, to }, offset: skipped + cut };
      } else {
        next = { pages: { from: page.number, to } };
      }
      break;
    }
    pages.push({ number: page.number, label: page.label, text });
    left -= text.length;
  }
  if (pages.length === 0) throw new ArgumentError("no_page", `the archive holds no text for pages ${range.from}–${to} of this document`);
  if (next) {
    notes.push(
      `Cut at ${ANSWER_BOUNDS.maxTextChars.toLocaleString("en-US")} characters: read on with read_document pages { from: ${next.pages.from}, to: ${next.pages.to} }${next.offset !== undefined ? ` and offset ${next.offset}` : ""}.`,
    );
  }
  return { format: formatGiven(stored!, asked, notes), pages, ...(next ? { next } : {}), notes };
}

/**
 * The chunk at `index` and up to `around` on each side, nearest first while they fit in the
 * bound (the chunk itself always, cut if it alone is longer), in document order.
 */
export function readChunks(archive: ArchiveAccess, document: DocumentRecord, index: number, around: number, asked?: ReadFormat): ChunkReading {
  const stored = archive.lookups.pageFormat(document.row);
  const rows = archive.reader.chunks(document, Math.max(0, index - around), index + around);
  const chunks = rows.map(
    (c): ChunkText => ({
      chunk_id: c.chunkId,
      chunk_index: c.chunkIndex,
      page_start: c.pageStart,
      page_end: c.pageEnd,
      page_labels: c.pageLabels,
      headings: c.headings,
      text: inFormat(c.text, stored, asked),
    }),
  );
  const center = chunks.findIndex((c) => c.chunk_index === index);
  // A run may have replaced the document since its chunk was found.
  if (center < 0) throw new ArgumentError("no_chunk", `chunk ${index} of document ${document.documentId}: the archive no longer holds it`);
  const notes: string[] = [];
  const kept = new Set<ChunkText>();
  let left = ANSWER_BOUNDS.maxTextChars;
  const own = chunks[center]!;
  if (own.text.length > left) {
    own.text = own.text.slice(0, cutAt(own.text, left));
    notes.push(`The chunk is cut at ${ANSWER_BOUNDS.maxTextChars.toLocaleString("en-US")} characters: read its pages with pages { from: ${own.page_start}, to: ${own.page_end} }.`);
  }
  kept.add(own);
  left -= own.text.length;
  let dropped = 0;
  for (let step = 1; step <= around; step++) {
    for (const neighbour of [chunks[center - step], chunks[center + step]]) {
      if (!neighbour) continue;
      if (neighbour.text.length <= left) {
        kept.add(neighbour);
        left -= neighbour.text.length;
      } else {
        dropped++;
      }
    }
  }
  if (dropped) notes.push(`${dropped} neighbouring chunk${dropped === 1 ? " was" : "s were"} left out to stay within ${ANSWER_BOUNDS.maxTextChars.toLocaleString("en-US")} characters: ask with a smaller around, or read on from the first or last chunk_id given.`);
  return { format: formatGiven(stored, asked, notes), chunks: chunks.filter((c) => kept.has(c)), notes };
}

/** A page's reading as text: each page under a marker, as `pagestream extract --markers` prints them, then the notes. */
export function pagesText(reading: PageReading): string {
  const marker = (page: PageText) => 
    reading.format === "markdown" ? `<!-- page ${page.number}${printedLabel(page.number, page.label)} -->` : `--- Page ${page.number}${printedLabel(page.number, page.label)} ---`;
  return [...reading.pages.map((page) => `${marker(page)}\n\n${page.text}`), ...reading.notes.map((n) => `[${n}]`)].join("\n\n");
}

export function chunksText(reading: ChunkReading): string {
  const marker = (chunk: ChunkText) => {
    const where = `chunk ${chunk.chunk_index}, ${pageRange([chunk.page_start, chunk.page_end], chunk.page_labels)}${chunk.headings.length ? `, under ${chunk.headings.join(" › ")}` : ""}, chunk_id ${chunk.chunk_id}`;
    return reading.format === "markdown" ? `<!-- ${where} -->` : `--- ${where} ---`;
  };
  return [...reading.chunks.map((chunk) => `${marker(chunk)}\n\n${chunk.text}`), ...reading.notes.map((n) => `[${n}]`)].join("\n\n");
}

function inFormat(text: string, stored: TextFormat, asked: ReadFormat | undefined): string {
  return stored === "markdown" && asked === "text" ? markdownToText(text) : text;
}

/** The format the text is given in; a note when it is not the one asked for. */
function formatGiven(stored: TextFormat, asked: ReadFormat | undefined, notes: string[]): ReadFormat {
  if (stored === "markdown") return asked ?? "markdown";
  if (asked === "markdown") notes.push("The archive holds this document as plain text (its pipeline's chunk stage has text_format: plain), so it is given as text.");
  return "text";
}

/** Where to cut `text` to keep at most `max` characters, not inside a surrogate pair. */
function cutAt(text: string, max: number): number {
  return /[\uD800-\uDBFF]/.test(text[max - 1] ?? "") ? max - 1 : max;
}
