/**
 * The archive's documents as MCP resources, `pagestream://documents/{document_id}`: reading one
 * gives its text from the first page, in the view the archive stores (Markdown or plain text),
 * bounded like read_document's answers; the list offers the newest documents (a resource list
 * has no paging here: list_documents pages through them all).
 */
import { McpError, ErrorCode, type ReadResourceResult, type ListResourcesResult } from "@modelcontextprotocol/sdk/types.js";
import { DOCUMENT_ID } from "../serve/archive-reader.js";
import { ANSWER_BOUNDS } from "./answer-bounds.js";
import { pagesText, readPages } from "./document-reading.js";
import type { ArchiveAccess } from "./tool-results.js";

export const DOCUMENT_URI_TEMPLATE = "pagestream://documents/{document_id}";

export function documentUri(documentId: string): string {
  return `pagestream://documents/${documentId}`;
}

/** The newest documents, as resources. */
export function listDocumentResources(archive: ArchiveAccess): ListResourcesResult {
  const { documents } = archive.reader.listDocuments(0, ANSWER_BOUNDS.maxDocuments);
  return {
    resources: documents.map((d) => ({
      uri: documentUri(d.documentId),
      name: d.path ?? d.uri,
      ...(d.title ? { title: d.title } : {}),
      description: `${d.pages ?? "?"} pages, ingested ${d.ingestedAt}`,
    })),
  };
}

export function readDocumentResource(archive: ArchiveAccess, uri: URL, documentId: string | string[]): ReadResourceResult {
  const id = Array.isArray(documentId) ? documentId[0] : documentId;
  const document = id !== undefined && DOCUMENT_ID.test(id) ? archive.reader.document(id) : undefined;
  if (!document) throw new McpError(ErrorCode.InvalidParams, `${uri.href}: the archive holds no document with that id (a document_id is 64 hex digits; list_documents gives them)`);
  const reading = readPages(archive, document, { from: 1 });
  return {
    contents: [{ uri: uri.href, mimeType: reading.format === "markdown" ? "text/markdown" : "text/plain", text: pagesText(reading) }],
  };
}
