/**
 * The `read_document` tool: a document's text, either a range of its pages or the chunks around
 * one (a search hit's chunk_id), as Markdown or text, bounded (document-reading.ts), with the
 * page numbers and printed labels it comes from.
 */
import { z } from "zod";
import type { DocumentRecord } from "../serve/archive-reader.js";
import { ANSWER_BOUNDS } from "./answer-bounds.js";
import { ArgumentError } from "./argument-error.js";
import { chunksText, pagesText, readChunks, readPages, READ_FORMATS } from "./document-reading.js";
import type { ArchiveAccess, ToolAnswer, ToolArguments } from "./tool-results.js";

export const READ_DOCUMENT_TOOL = {
  name: "read_document",
  title: "Read a document",
  description:
    "Read a document of the archive: a range of its pages (pages { from, to }; from page 1 when neither pages nor chunk_id is given), " +
    "or the chunk a search hit names and its neighbours (chunk_id, around). " +
    `At most ${ANSWER_BOUNDS.maxTextChars.toLocaleString("en-US")} characters of text an answer: a longer one is cut, and the answer's next says how to read on. ` +
    "Each page comes with its number and the label printed on it. Documents are stored in one view, Markdown in the default pipeline " +
    "(headings, lists, tables marked up): format markdown gives it as stored, text takes the markup off; a document stored as plain text is given as text.",
  inputSchema: {
    document: z.string().min(1).max(1000).optional().describe("The document: its document_id, 8 or more of its leading hex digits, or its path. Optional with chunk_id."),
    pages: z
      .object({
        from: z.number().int().min(1).describe("First page (1-based)."),
        to: z.number().int().min(1).optional().describe("Last page (default: the document's last; the answer stops at the size bound)."),
      })
      .strict()
      .optional()
      .describe("The pages to read."),
    offset: z.number().int().min(0).optional().describe("Characters to skip in the first page: to read on in a page cut at the size bound (the answer's next gives it)."),
    chunk_id: z.string().min(1).max(100).optional().describe("Read this chunk (a search hit's chunk_id) instead of pages, with its neighbours."),
    around: z.number().int().min(0).max(ANSWER_BOUNDS.maxAround).optional().describe("With chunk_id: chunks to read on each side of it (default 1)."),
    format: z.enum(READ_FORMATS).optional().describe("markdown (as stored) or text (markup taken off); default: as stored."),
  },
} as const;

export function readDocumentTool(archive: ArchiveAccess, args: ToolArguments<typeof READ_DOCUMENT_TOOL.inputSchema>): ToolAnswer {
  if (args.chunk_id !== undefined) {
    if (args.pages !== undefined || args.offset !== undefined) throw new ArgumentError("conflicting_arguments", "give either chunk_id (with around) or pages (with offset), not both");
    const place = archive.reader.chunkPlace(args.chunk_id);
    if (!place) throw new ArgumentError("no_chunk", `chunk_id ${JSON.stringify(args.chunk_id.slice(0, 100))}: the archive holds no chunk with that id (search hits give them)`);
    if (args.document !== undefined && archive.lookups.documentNamed(args.document) !== place.documentId) {
      throw new ArgumentError("conflicting_arguments", `chunk_id ${args.chunk_id} is a chunk of document ${place.documentId}, not of ${JSON.stringify(args.document)}`);
    }
    const document = documentRecord(archive, place.documentId);
    const reading = readChunks(archive, document, place.chunkIndex, args.around ?? 1, args.format);
    return {
      structured: { ...documentJson(document), format: reading.format, chunk_index: place.chunkIndex, chunks: reading.chunks, ...(reading.notes.length ? { notes: reading.notes } : {}) },
      text: `${documentLine(document)}\n\n${chunksText(reading)}`,
    };
  }
  if (args.around !== undefined) throw new ArgumentError("conflicting_arguments", "around reads the chunks around a chunk_id: give chunk_id too");
  if (args.document === undefined) throw new ArgumentError("conflicting_arguments", "say what to read: a document (its document_id or path), or a chunk_id");
  const document = documentRecord(archive, archive.lookups.documentNamed(args.document));
  const reading = readPages(archive, document, { from: args.pages?.from ?? 1, ...(args.pages?.to !== undefined ? { to: args.pages.to } : {}), ...(args.offset !== undefined ? { offset: args.offset } : {}) }, args.format);
  return {
    structured: { ...documentJson(document), format: reading.format, pages: reading.pages, ...(reading.next ? { next: reading.next } : {}), ...(reading.notes.length ? { notes: reading.notes } : {}) },
    text: `${documentLine(document)}\n\n${pagesText(reading)}`,
  };
}

/** The document an id names; it was found a moment ago, but a run may have removed it since. */
function documentRecord(archive: ArchiveAccess, documentId: string): DocumentRecord {
  const document = archive.reader.document(documentId);
  if (!document) throw new ArgumentError("no_document", `document ${documentId}: the archive no longer holds it`);
  return document;
}

function documentJson(document: DocumentRecord) {
  return { document_id: document.documentId, uri: document.uri, ...(document.title ? { title: document.title } : {}), page_count: document.pages };
}

function documentLine(document: DocumentRecord): string {
  return `${document.title ? `${document.title} — ` : ""}${document.uri} (${document.pages ?? "?"} pages, document_id ${document.documentId})`;
}
