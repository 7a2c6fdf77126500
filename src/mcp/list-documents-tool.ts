/** The `list_documents` tool: the archive's documents, newest first, a page at a time. */
import { z } from "zod";
import type { DocumentSummary } from "../serve/archive-reader.js";
import { ANSWER_BOUNDS } from "./answer-bounds.js";
import type { ArchiveAccess, ToolAnswer, ToolArguments } from "./tool-results.js";

export const LIST_DOCUMENTS_TOOL = {
  name: "list_documents",
  title: "List the documents",
  description:
    "The documents the archive holds, newest first (by when they were written into it), failed ones left out: each with document_id, path, title, " +
    `pages, chunks and ingested_at. At most ${ANSWER_BOUNDS.maxDocuments} a call (default ${ANSWER_BOUNDS.defaultDocuments}); total counts them all, and next_offset pages on.`,
  inputSchema: {
    offset: z.number().int().min(0).optional().describe("Documents to skip (default 0)."),
    limit: z.number().int().min(1).max(ANSWER_BOUNDS.maxDocuments).optional().describe(`Most documents to return (default ${ANSWER_BOUNDS.defaultDocuments}).`),
  },
} as const;

export function listDocumentsTool(archive: ArchiveAccess, args: ToolArguments<typeof LIST_DOCUMENTS_TOOL.inputSchema>): ToolAnswer {
  const offset = args.offset ?? 0;
  const { total, documents } = archive.reader.listDocuments(offset, args.limit ?? ANSWER_BOUNDS.defaultDocuments);
  const nextOffset = offset + documents.length < total ? offset + documents.length : undefined;
  const lines = documents.map((d, i) => `${offset + i + 1}. ${d.path ?? d.uri}${d.title ? ` — ${d.title}` : ""} (${d.pages ?? "?"} pages, ${d.chunks} chunks, ingested ${d.ingestedAt}, document_id ${d.documentId})`);
  const range = documents.length ? `Documents ${offset + 1}–${offset + documents.length} of ${total}, newest first:` : `No documents after the first ${offset} (the archive holds ${total}).`;
  return {
    structured: { total, offset, documents: documents.map(documentSummaryJson), ...(nextOffset !== undefined ? { next_offset: nextOffset } : {}) },
    text: [range, ...lines, ...(nextOffset !== undefined ? [`More: list_documents with offset ${nextOffset}.`] : [])].join("\n"),
  };
}

function documentSummaryJson(d: DocumentSummary) {
  return {
    document_id: d.documentId,
    uri: d.uri,
    ...(d.path !== null ? { path: d.path } : {}),
    ...(d.title ? { title: d.title } : {}),
    pages: d.pages,
    chunks: d.chunks,
    status: d.status,
    ingested_at: d.ingestedAt,
  };
}
