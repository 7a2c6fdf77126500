/**
 * A document's text in one of its views — `plain` (what `pagestream extract` prints by default) or
 * `markdown` — with where each page and each block sits in it. Chunk offsets point into the view
 * a chunk carries, the archive stores that view, and `extract --format markdown` prints it: one
 * function makes it for all of them (docs/extraction.md §6.4, §6.9).
 *
 * Both views join the pages' texts the same way (document-text.ts): one blank line between pages,
 * except where a page's last paragraph runs on at the top of the next (`continues`, set by
 * dehyphenate, never after or before a heading), where the two halves are joined by a space.
 * Pages without text leave no trace.
 */
import type { PageRecord, TextFormat } from "../core/records.js";
import { documentText, type DocumentText, type PageSpan } from "./document-text.js";
import { escapeBlockStart, renderPageMarkdown, type BlockKind, type RenderedPage, type ViewBlock } from "./markdown.js";
import { renderPageText } from "./page-text.js";
import { plainBlocks } from "./plain-blocks.js";

export type { BlockKind } from "./markdown.js";

/** The views a document's text can be rendered in. */
export const TEXT_FORMATS = ["plain", "markdown"] as const satisfies readonly TextFormat[];
export type { TextFormat };

/** A block of a document view: what it is, where it is, on which page. */
export interface Block extends ViewBlock {
  /** The page it is on. */
  page: number;
  /** The last block of a page whose last paragraph goes on at the top of the next page. */
  continues?: boolean;
}

export interface DocumentView {
  format: TextFormat;
  text: string;
  /** The pages that have text, in page order, located in `text`. */
  pages: PageSpan[];
  blocks: Block[];
}

export type ViewPage = Pick<PageRecord, "number" | "text" | "continues" | "lines" | "paragraphs" | "mode" | "markdown">;

export function documentView(pages: readonly ViewPage[], format: TextFormat): DocumentView {
  if (format === "plain") {
    const doc = documentText(pages);
    return { format, text: doc.text, pages: doc.pages, blocks: plainBlocks(pages, doc) };
  }
  const rendered = new Map(pages.map((page) => [page.number, pageMarkdown(page)]));
  const continuing = new Set(pages.flatMap((page) => (page.continues ? [page.number] : [])));
  const doc = documentText(pages.map((page) => ({ number: page.number, text: rendered.get(page.number)!.text, continues: page.continues })));
  const blocks: Block[] = [];
  for (const span of doc.pages) {
    const page = rendered.get(span.number)!;
    for (const block of page.blocks) blocks.push({ ...block, start: span.start + block.start, end: span.start + block.end, page: span.number });
    const last = blocks[blocks.length - 1];
    if (last && continuing.has(span.number)) last.continues = true;
  }
  return { format, text: doc.text, pages: doc.pages, blocks };
}

/**
 * A page's text in a view. The Markdown of a page whose lines were left behind on its way to the
 * sinks travels as `markdown` (src/run/process-document.ts).
 */
export function pageViewText(page: ViewPage, format: TextFormat): string {
  if (format === "plain") return page.text;
  return page.markdown ?? pageMarkdown(page).text;
}

/** The document's text in a view, with where each page sits in it: what the sinks store beside chunks cut from it. */
export function documentViewText(pages: readonly ViewPage[], format: TextFormat): DocumentText {
  return documentText(format === "plain" ? pages : pages.map((page) => ({ number: page.number, text: pageViewText(page, format), continues: page.continues })));
}

/** The view a document's chunks were cut from: their `textFormat`, or plain when there are none. */
export function chunksFormat(chunks: readonly { textFormat?: TextFormat }[]): TextFormat {
  return chunks[0]?.textFormat ?? "plain";
}

/**
 * A page as Markdown. A stage that rewrote a page's text without keeping its lines and
 * paragraphs in step leaves text the paragraphs do not render; such a page is shown as the text
 * it has, escaped, a text block per part between blank lines, never as paragraphs it no longer has.
 */
export function pageMarkdown(page: ViewPage): RenderedPage {
  let rendered = renderedPages.get(page);
  if (!rendered) renderedPages.set(page, (rendered = renderMarkdown(page)));
  return rendered;
}

/**
 * Pages rendered as Markdown, by page record: a record is never changed once made (a stage that
 * changes a page makes a new record), so the chunk stage's rendering serves the worker's result
 * for the sinks too.
 */
const renderedPages = new WeakMap<ViewPage, RenderedPage>();

function renderMarkdown(page: ViewPage): RenderedPage {
  if (!page.text) return { text: "", blocks: [] };
  if (renderPageText(page.lines, page.paragraphs, page.mode) === page.text) return renderPageMarkdown(page.lines, page.paragraphs, page.mode);
  const text = page.text.split("\n").map(escapeBlockStart).join("\n");
  const blocks: ViewBlock[] = [];
  for (const part of text.matchAll(/\S(?:[^\n]|\n(?![^\S\n]*\n))*/gu)) {
    const trimmed = part[0].trimEnd();
    blocks.push({ kind: "text" as BlockKind, start: part.index!, end: part.index! + trimmed.length });
  }
  return { text, blocks };
}
