/**
 * The page and its files. The same HTML serves every view (search `/`, a document
 * `/documents/<id>`, a dropped PDF `/extract`); the script reads the view from the address, so
 * every search and every page of a document has an address to bookmark or share. A document
 * the archive does not hold is a 404 already here.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { readFile } from "node:fs/promises";
import type { ServerOptions } from "../server.js";

export function pageRoutes(options: ServerOptions) {
  return async (app: FastifyInstance) => {
    const page = (status: number) => (_request: FastifyRequest, reply: FastifyReply) =>
      reply.code(status).type("text/html; charset=utf-8").header("cache-control", "no-cache").send(options.assets.html());
    app.get("/", page(200));
    app.get("/extract", page(200));
    app.get<{ Params: { id: string } }>("/documents/:id", (request, reply) => page(options.archive.document(request.params.id) ? 200 : 404)(request, reply));

    const asset = async (request: FastifyRequest, reply: FastifyReply) => {
      const path = request.url.split("?")[0]!;
      const found = options.assets.get(path);
      if (!found) return reply.callNotFound();
      return reply.type(found.type).header("cache-control", found.cache).send(await readFile(found.file));
    };
    app.get("/assets/*", asset);
    app.get("/pdfjs/*", asset);
  };
}
