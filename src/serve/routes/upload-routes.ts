/**
 * POST /api/extract?name=…   a dropped PDF (the body, application/pdf) through the pipeline's
 *                            text stages in a capped worker; nothing is stored
 * POST /api/add?name=…       the same bytes saved into the source folder, for the next run
 *
 * Both take at most the upload limit (413 past it). A file that is not a PDF, damaged or
 * encrypted is a 422 with the error code a run would record and its sentence.
 */
import type { FastifyInstance } from "fastify";
import type { AddResponse, ExtractResponse } from "../api-types.js";
import { extractedPageJson } from "../page-json.js";
import { sendError, type ServerOptions } from "../server.js";
import { SaveError, safeFileName } from "../upload-saving.js";

const NAME = { type: "object", properties: { name: { type: "string", maxLength: 1000 } } } as const;

export function uploadRoutes(options: ServerOptions) {
  return async (app: FastifyInstance) => {
    // The PDF's bytes as they are, and nothing else: no JSON, no text, no form.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser("application/pdf", { parseAs: "buffer", bodyLimit: options.maxUploadBytes }, (_request, body, done) => done(null, body));

    app.post<{ Querystring: { name?: string }; Body: Buffer }>("/api/extract", { schema: { querystring: NAME }, bodyLimit: options.maxUploadBytes }, async (request, reply) => {
      const name = safeFileName(request.query.name ?? "document.pdf");
      const bytes = new Uint8Array(request.body.buffer, request.body.byteOffset, request.body.length);
      if (bytes.length === 0) return sendError(reply, 400, "empty_file", "the file is empty (0 bytes)");
      const result = await options.extraction.extract(name, bytes);
      if (result.status === "failed") return sendError(reply, 422, result.error.code, `${name}: ${result.error.message}`);
      const response: ExtractResponse = {
        name,
        documentId: result.document.documentId,
        title: result.document.title ?? null,
        pageCount: result.document.pageCount,
        tagged: result.document.tagged,
        status: result.document.scan ? "scan" : "ok",
        warnings: result.warnings,
        pages: result.pages.map((p) => extractedPageJson(p, result.warnings)),
      };
      return reply.header("cache-control", "no-store").send(response);
    });

    app.post<{ Querystring: { name?: string }; Body: Buffer }>("/api/add", { schema: { querystring: NAME }, bodyLimit: options.maxUploadBytes }, async (request, reply) => {
      if (!options.saver) return sendError(reply, 409, "cannot_add", "a dropped file is added only where the archive's own pipeline is known and reads a folder: serve the archive with the pipeline that writes it (--pipeline)");
      try {
        const saved = await options.saver.save(request.query.name ?? "document.pdf", new Uint8Array(request.body.buffer, request.body.byteOffset, request.body.length));
        return reply.code(201).header("cache-control", "no-store").send({ saved } satisfies AddResponse);
      } catch (err) {
        if (err instanceof SaveError) return sendError(reply, err.code === "not_pdf" ? 422 : 409, err.code, err.message);
        throw err;
      }
    });
  };
}
