/**
 * A document's records on their way from its extraction worker to the run, in parts as the
 * stages emit them, so that the worker never holds the whole document's output (a 20,000-page
 * document is hundreds of MiB of page records). The run puts the parts together and hands the
 * sinks the document once, whole, when the worker's outcome says it succeeded; a document that
 * fails after some parts went out reaches the sinks as its failure alone.
 */
import type { ResultNeeds } from "../core/plugin.js";
import type { ChunkRecord, DocRecord, DocumentResult, PageRecord } from "../core/records.js";
import { pageViewText, type TextFormat } from "../text/document-view.js";

/** Records of one document sent to the run ahead of its outcome. */
export interface ResultPart {
  pages: PageRecord[];
  chunks: ChunkRecord[];
}

/**
 * Records in a part, at most: a part crosses as one structured clone, and a worker holds it
 * whole while it is written to the pipe. Pages trimmed for the sinks weigh a few KB each.
 */
const PART_RECORDS = 200;

/**
 * Collects a document's records into parts, each page trimmed to what the sinks read as it
 * comes (see `trimPage`), and gives each part to `send` when it is full, when the stages pause
 * (a window's records come in one synchronous burst: the part goes once it is over), or when the
 * document ends.
 */
export class ResultParts {
  private part: ResultPart = { pages: [], chunks: [] };
  private pending?: NodeJS.Immediate;
  /** Pages waiting for the first chunk, which says whether they carry their Markdown (only when lines are trimmed). */
  private untrimmed: PageRecord[] = [];
  private format: TextFormat | undefined;

  /** `chunks`: some stage makes chunk records; without one, pages are trimmed as plain at once. */
  constructor(
    private readonly needs: ResultNeeds,
    private readonly send: (part: ResultPart) => void,
    chunks = true,
  ) {
    if (!chunks) this.format = "plain";
  }

  add(record: DocRecord): void {
    if (record.type === "chunk") {
      if (this.format === undefined) this.settleFormat(record.textFormat ?? "plain");
      this.part.chunks.push(record);
    } else if (this.needs.lines) {
      this.part.pages.push(record);
    } else if (this.format === undefined) {
      // Until a chunk says which view the chunks are cut from, a page keeps its lines: what is
      // held is at most the pages of one window of the chunk stage (stage-operators.ts).
      this.untrimmed.push(record);
      return;
    } else {
      this.part.pages.push(trimPage(record, this.format));
    }
    if (this.part.pages.length + this.part.chunks.length >= PART_RECORDS) this.flush();
    else this.pending ??= setImmediate(() => this.flush());
  }

  /** The document's records are all in: the last part goes (a document without chunks: its pages as plain). */
  end(): void {
    if (this.format === undefined) this.settleFormat("plain");
    this.flush();
  }

  /** The document failed: nothing more goes. */
  discard(): void {
    clearImmediate(this.pending);
    this.pending = undefined;
    this.part = { pages: [], chunks: [] };
    this.untrimmed = [];
  }

  private settleFormat(format: TextFormat): void {
    this.format = format;
    for (const page of this.untrimmed.splice(0)) this.part.pages.push(trimPage(page, format));
  }

  private flush(): void {
    clearImmediate(this.pending);
    this.pending = undefined;
    if (this.part.pages.length + this.part.chunks.length === 0) return;
    this.send(this.part);
    this.part = { pages: [], chunks: [] };
  }
}

/**
 * A page without what no sink reads: per-line geometry is most of a page record's size. When the
 * chunks are Markdown, the page keeps its Markdown text instead (the sinks store it beside the
 * chunks, whose offsets point into it).
 */
export function trimPage(page: PageRecord, chunksFormat: TextFormat): PageRecord {
  return { ...page, ...(chunksFormat === "markdown" ? { markdown: pageViewText(page, "markdown") } : {}), lines: [], paragraphs: [] };
}

/** A result with the records sent ahead of it in parts put back in front of its own, in order. */
export function withParts(result: DocumentResult, parts: readonly ResultPart[]): DocumentResult {
  if (result.status === "failed" || parts.length === 0) return result;
  const pages: PageRecord[] = [];
  const chunks: ChunkRecord[] = [];
  for (const part of parts) {
    for (const page of part.pages) pages.push(page);
    for (const chunk of part.chunks) chunks.push(chunk);
  }
  for (const page of result.pages) pages.push(page);
  for (const chunk of result.chunks) chunks.push(chunk);
  return { ...result, pages, chunks };
}
