/**
 * Page records for chunking tests, built the way the extract stage builds them: lines with font
 * sizes, paragraphs over them, and the page text rendered from both by the core's
 * renderPageText, so the chunk stage sees exactly what it sees in a pipeline.
 */
import { renderPageText } from "../../src/text/page-text.js";
import type { ChunkRecord, DocumentResult, Line, PageRecord, Paragraph, TextFormat } from "../../src/core/records.js";
import { chunkDocument } from "../../src/stages/chunk/chunker.js";
import { withBlockRoles } from "../../src/text/block-roles.js";
import type { ChunkLimits } from "../../src/stages/chunk/packing.js";
import { loadTokenizer, type EncodingName, type Tokenizer } from "../../src/stages/chunk/tokenizer.js";

export interface ParagraphSpec {
  /** One string per line (a table row: cells separated by tabs). */
  lines: string[];
  /** Font size of every line; 10 unless given. */
  size?: number;
  kind?: Paragraph["kind"];
  /** Structure role, as tagged on a tagged page (P, H2, LI…). */
  tag?: string;
}

export const text = (...lines: string[]): ParagraphSpec => ({ lines });
export const heading = (line: string, size: number): ParagraphSpec => ({ lines: [line], size });
export const table = (...rows: string[]): ParagraphSpec => ({ lines: rows, kind: "table" });
export const code = (...lines: string[]): ParagraphSpec => ({ lines, kind: "verbatim" });

export const DOC_ID = "a".repeat(64);
export const URI = "/in/report.pdf";

export function page(number: number, paragraphs: ParagraphSpec[], extra: Record<string, unknown> = {}): PageRecord {
  const lines: Line[] = [];
  const paras: Paragraph[] = [];
  for (const spec of paragraphs) {
    const start = lines.length;
    const size = spec.size ?? 10;
    for (const raw of spec.lines) {
      // A code line's leading spaces become its x, as a monospaced listing is drawn.
      const indent = spec.kind === "verbatim" ? raw.length - raw.trimStart().length : 0;
      const t = raw.slice(indent);
      const x = 72 + indent * size * 0.5;
      const y = 750 - lines.length * size * 1.4;
      const width = t.length * size * 0.5;
      lines.push({ text: t, x, y, width, fontSize: size, runs: [{ text: t, x, y, width, fontSize: size, fontName: "f1", ...(spec.kind === "verbatim" ? { monospace: true } : {}) }] });
    }
    paras.push({ start, end: lines.length, kind: spec.kind ?? "text", ...(spec.tag ? { tag: spec.tag } : {}) });
  }
  const pageText = renderPageText(lines, paras, "reflow");
  return {
    type: "page",
    documentId: DOC_ID,
    uri: URI,
    number,
    width: 612,
    height: 792,
    rotation: 0,
    lines,
    paragraphs: paras,
    text: pageText,
    mode: "reflow",
    empty: pageText.length === 0,
    orderSource: "geometry",
    orderReason: "untagged",
    untaggedGlyphs: 0,
    columns: 1,
    ...extra,
  } as PageRecord;
}

let cached: Partial<Record<EncodingName, Tokenizer>> = {};
export async function tokenizer(encoding: EncodingName = "cl100k_base"): Promise<Tokenizer> {
  return (cached[encoding] ??= await loadTokenizer(encoding));
}

/** The pages' chunks, roles found as the extract stage finds them (headings from their looks, over the document); plain text unless `format` says otherwise. */
export async function chunk(pages: PageRecord[], limits: Partial<ChunkLimits> = {}, documentId = DOC_ID, format: TextFormat = "plain"): Promise<ChunkRecord[]> {
  return chunkDocument({ documentId, uri: pages[0]?.uri ?? URI, pages: withBlockRoles(pages) }, { maxTokens: 512, overlapTokens: 0, minTokens: 0, ...limits }, await tokenizer(), format);
}

/** An ok DocumentResult for sink tests: the pages (of one uri and document id) and their chunks. */
export async function result(pages: PageRecord[], options: { title?: string; limits?: Partial<ChunkLimits> } = {}): Promise<DocumentResult> {
  const { uri, documentId } = pages[0]!;
  return {
    status: "ok",
    uri,
    document: { documentId, uri, size: 1000, pageCount: pages.length, tagged: false, ...(options.title ? { title: options.title } : {}) },
    pages,
    chunks: await chunk(pages, options.limits, documentId),
    warnings: [],
  };
}
