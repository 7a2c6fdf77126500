/**
 * GET /api/documents?page=N         the archive's documents, newest first, 20 a page
 * GET /api/documents/:id            a document's pages, with their facts, and where `q` matches
 *                                   (`substring=1`: as a substring); with `chunk=`, where that
 *                                   hit's chunk stands, for the page to land on it
 * GET /api/documents/:id/original   its original PDF, for pdf.js in the page, and to download
 *                                   (as an attachment named as the file is)
 *
 * `:id` is a documentId (the sha256 of the file's bytes) and nothing else: anything that is
 * not 64 hex digits, or that the archive does not hold, is a 404. The original is read by the
 * uri the archive stores, through the pipeline's source (see originals.ts).
 */
import type { FastifyInstance } from "fastify";
import { QueryError, type PageMatch } from "../../sinks/sqlite/search.js";
import type { DocumentListResponse, DocumentResponse, FocusJson } from "../api-types.js";
import type { ChunkRange, PageOffsets } from "../archive-reader.js";
import { displayPath, NO_SOURCE, readOriginal } from "../originals.js";
import { archivedPageJson } from "../page-json.js";
import { sendError, type ServerOptions } from "../server.js";

/** Documents a page of the archive's list. */
const LIST_PAGE_SIZE = 20;

export function documentRoutes(options: ServerOptions) {
  return async (app: FastifyInstance) => {
    const unknown = (id: string) => `the archive holds no document ${JSON.stringify(id.slice(0, 80))} (documents are named by the sha256 of their bytes)`;

    app.get<{ Querystring: { page?: number } }>(
      "/api/documents",
      { schema: { querystring: { type: "object", additionalProperties: false, properties: { page: { type: "integer", minimum: 1, maximum: 100_000 } } } } },
      async (request, reply) => {
        const page = request.query.page ?? 1;
        const { total, documents } = options.archive.listDocuments((page - 1) * LIST_PAGE_SIZE, LIST_PAGE_SIZE);
        const response: DocumentListResponse = {
          total,
          page,
          pageSize: LIST_PAGE_SIZE,
          documents: documents.map((d) => ({ documentId: d.documentId, name: d.uri.split("/").pop() ?? d.uri, path: displayPath(options.access, d.uri), title: d.title, pages: d.pages, chunks: d.chunks, ingestedAt: d.ingestedAt })),
        };
        return reply.header("cache-control", "no-store").send(response);
      },
    );

    app.get<{ Params: { id: string }; Querystring: { q?: string; substring?: "0" | "1"; chunk?: string } }>(
      "/api/documents/:id",
      {
        schema: {
          querystring: {
            type: "object",
            properties: { q: { type: "string", maxLength: 10_000 }, substring: { type: "string", enum: ["0", "1"] }, chunk: { type: "string", maxLength: 100 } },
          },
        },
      },
      async (request, reply) => {
        const document = options.archive.document(request.params.id);
        if (!document) return sendError(reply, 404, "not_found", unknown(request.params.id));
        let matches: PageMatch[] = [];
        const q = request.query.q?.trim();
        if (q) {
          try {
            matches = options.archive.matches(q, document, { substring: request.query.substring === "1" });
          } catch (err) {
            // The search page already said what is wrong with the query; the document reads without highlights.
            if (!(err instanceof QueryError)) throw err;
          }
        }
        const item = options.access ? await options.access.item(document.uri) : NO_SOURCE;
        const response: DocumentResponse = {
          documentId: document.documentId,
          name: document.uri.split("/").pop() ?? document.uri,
          path: displayPath(options.access, document.uri),
          paths: document.uris.map((u) => displayPath(options.access, u)),
          title: document.title,
          pageCount: document.pages,
          status: document.status,
          ingestedAt: document.ingestedAt,
          warnings: document.warnings,
          pages: options.archive.pages(document).map((p) => archivedPageJson(p, document.warnings, matches)),
          original: typeof item === "string" ? { available: false, reason: item } : { available: true },
          focus: null,
        };
        const chunk = request.query.chunk ? options.archive.chunkPlaceInDocument(document, request.query.chunk) : undefined;
        if (chunk) response.focus = focusJson(chunk, options.archive.pageOffsets(document));
        return reply.header("cache-control", "no-store").send(response);
      },
    );

    app.get<{ Params: { id: string } }>("/api/documents/:id/original", async (request, reply) => {
      const document = options.archive.document(request.params.id);
      if (!document) return sendError(reply, 404, "not_found", unknown(request.params.id));
      const original = await readOriginal(options.access, document, (uri) => options.archive.holdsUri(uri), options.maxFileBytes);
      if (!original.ok) return sendError(reply, 404, "original_unavailable", original.reason);
      return reply
        .type("application/pdf")
        .header("cache-control", "no-store")
        // Never shown by the browser itself under this origin: the page hands the bytes to pdf.js.
        .header("content-disposition", attachment(document.uri.split("/").pop() ?? ""))
        .header("content-security-policy", "sandbox; default-src 'none'")
        .send(Buffer.from(original.bytes.buffer, original.bytes.byteOffset, original.bytes.length));
    });
  };
}

/** A hit's chunk as the page lands on it: its boxes, and its own text cut at each page's bounds. */
function focusJson(chunk: ChunkRange, pages: readonly PageOffsets[]): FocusJson {
  const ranges = pages
    .filter((p) => p.charStart < chunk.charEnd && p.charEnd > chunk.charStart)
    .map((p) => ({ page: p.number, start: Math.max(chunk.charStart, p.charStart) - p.charStart, end: Math.min(chunk.charEnd, p.charEnd) - p.charStart }));
  return { chunkId: chunk.chunkId, boxes: chunk.boxes, ranges };
}

/**
 * Content-Disposition for a download named as the file is (RFC 6266): `filename` a plain-ASCII
 * stand-in with nothing that could end the quoted string or the header, `filename*` the name
 * itself, percent-encoded as UTF-8 (RFC 8187).
 */
export function attachment(fileName: string): string {
  const name = fileName.replace(/[\u0000-\u001f\u007f/\\]/g, "").trim() || "document.pdf";
  const plain = name.normalize("NFKD").replace(/[^\x20-\x7e]/g, "").replace(/["\\%;]/g, "_").trim() || "document.pdf";
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${plain}"; filename*=UTF-8''${encoded}`;
}
