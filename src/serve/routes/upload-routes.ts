/**
 * POST /api/extract?name=…   a dropped PDF (the body, application/pdf) through the pipeline's
 *                            text stages in a capped worker; nothing is stored
 * POST /api/add?name=…       the same bytes saved into the source folder, for the next run
 *                            (needs the server's token even on loopback: see access-control.ts)
 *
 * Both stream the body to a file as it arrives (upload-receiving.ts), take at most the upload
 * limit (413 past it) and at most UPLOADS_AT_ONCE at a time (503 with Retry-After past it:
 * upload-slots.ts). A file that is not a PDF, damaged or encrypted is a 422 with the error code
 * a run would record and its sentence.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { rm } from "node:fs/promises";
import type { AddResponse, ExtractResponse } from "../api-types.js";
import { extractedPageJson } from "../page-json.js";
import { mib, sendError, type ServerOptions } from "../server.js";
import { receiveUpload, type ReceivedUpload } from "../upload-receiving.js";
import { SaveError, safeFileName } from "../upload-saving.js";
import { UPLOADS_AT_ONCE, UploadSlots } from "../upload-slots.js";

const NAME = { type: "object", properties: { name: { type: "string", maxLength: 1000 } } } as const;

/** What a refused upload is told to wait: about one extraction of a typical PDF. */
const RETRY_AFTER_SECONDS = 5;

type Request = FastifyRequest<{ Querystring: { name?: string } }>;

export function uploadRoutes(options: ServerOptions) {
  const slots = new UploadSlots(UPLOADS_AT_ONCE);

  /** Receives the body into a file, gives it to `use`, and removes it again: the steps both routes share. */
  async function withUpload(request: Request, reply: FastifyReply, use: (upload: ReceivedUpload) => Promise<FastifyReply>): Promise<FastifyReply> {
    if (!/^application\/pdf\s*(;|$)/i.test(request.headers["content-type"] ?? "")) return sendError(reply, 415, "not_pdf", "send the PDF's bytes as application/pdf");
    const tooLarge = () => sendError(reply, 413, "too_large", `the file is larger than the upload limit (${mib(options.maxUploadBytes)}); run \`pagestream extract\` on it instead`);
    if (Number(request.headers["content-length"]) > options.maxUploadBytes) return tooLarge();
    const release = slots.take();
    if (!release) {
      reply.header("retry-after", String(RETRY_AFTER_SECONDS));
      return sendError(reply, 503, "busy", `the server is already taking ${slots.size} uploads: try again in a few seconds`);
    }
    let upload: ReceivedUpload | undefined;
    try {
      const receipt = await receiveUpload(request.raw, await options.extraction.uploadFolder(), options.maxUploadBytes);
      if (receipt.kind === "too_large") return tooLarge();
      upload = receipt.upload;
      if (upload.size === 0) return sendError(reply, 400, "empty_file", "the file is empty (0 bytes)");
      return await use(upload);
    } catch (err) {
      // The client went away, or took longer than the request timeout and was answered 408 by
      // the HTTP server: nobody is left to answer, and nothing went wrong here.
      if (request.raw.destroyed && !upload) return reply.hijack();
      throw err;
    } finally {
      if (upload) await rm(upload.path, { force: true });
      release();
    }
  }

  return async (app: FastifyInstance) => {
    // The PDF's bytes as they are, and nothing else: no JSON, no text, no form. The body is left
    // unread here: the routes stream it to a file themselves.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser("application/pdf", (_request, _body, done) => done(null));

    app.post<{ Querystring: { name?: string } }>("/api/extract", { schema: { querystring: NAME } }, async (request, reply) => {
      const name = safeFileName(request.query.name ?? "document.pdf");
      return withUpload(request, reply, async (upload) => {
        const result = await options.extraction.extract(name, upload);
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
    });

    // `config.adds`: the one route that writes outside the server (see refuse() in server.ts).
    app.post<{ Querystring: { name?: string } }>("/api/add", { schema: { querystring: NAME }, config: { adds: true } }, async (request, reply) => {
      const saver = options.saver;
      if (!saver) return sendError(reply, 409, "cannot_add", "a dropped file is added only where the archive's own pipeline is known and reads a folder: serve the archive with the pipeline that writes it (--pipeline)");
      return withUpload(request, reply, async (upload) => {
        try {
          const saved = await saver.save(request.query.name ?? "document.pdf", upload);
          return reply.code(201).header("cache-control", "no-store").send({ saved } satisfies AddResponse);
        } catch (err) {
          if (err instanceof SaveError) return sendError(reply, err.code === "not_pdf" ? 422 : 409, err.code, err.message);
          throw err;
        }
      });
    });
  };
}
