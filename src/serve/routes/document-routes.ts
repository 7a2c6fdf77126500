/**
 * GET /api/documents/:id            a document's pages, with their facts, and where `q` matches
 * GET /api/documents/:id/original   its original PDF, for pdf.js in the page
 *
 * `:id` is a documentId (the sha256 of the file's bytes) and nothing else: anything that is
 * not 64 hex digits, or that the archive does not hold, is a 404. The original is read by the
 * uri the archive stores, through the pipeline's source (see originals.ts).
 */
import type { FastifyInstance } from "fastify";
import { QueryError, type PageMatch } from "../../sinks/sqlite/search.js";
import type { DocumentResponse } from "../api-types.js";
import { displayPath, NO_SOURCE, readOriginal } from "../originals.js";
import { archivedPageJson } from "../page-json.js";
import { sendError, type ServerOptions } from "../server.js";

export function documentRoutes(options: ServerOptions) {
  return async (app: FastifyInstance) => {
    const unknown = (id: string) => `the archive holds no document ${JSON.stringify(id.slice(0, 80))} (documents are named by the sha256 of their bytes)`;

    app.get<{ Params: { id: string }; Querystring: { q?: string } }>(
      "/api/documents/:id",
      { schema: { querystring: { type: "object", properties: { q: { type: "string", maxLength: 10_000 } } } } },
      async (request, reply) => {
        const document = options.archive.document(request.params.id);
        if (!document) return sendError(reply, 404, "not_found", unknown(request.params.id));
        let matches: PageMatch[] = [];
        const q = request.query.q?.trim();
        if (q) {
          try {
            matches = options.archive.matches(q, document);
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
        };
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
        .header("content-disposition", `attachment; filename="${document.documentId.slice(0, 12)}.pdf"`)
        .header("content-security-policy", "sandbox; default-src 'none'")
        .send(Buffer.from(original.bytes.buffer, original.bytes.byteOffset, original.bytes.length));
    });
  };
}
