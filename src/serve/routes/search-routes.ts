/**
 * GET /api/archive: what the archive holds, for the page's filters and its header.
 * GET /api/search: one page of hits, ranked by the same `searchArchive` as `pagestream search`.
 *
 *   q        the query (the syntax of `pagestream search`)
 *   page     1-based page of hits, 10 a page
 *   folder   only documents under this folder (relative to the source folder, or an s3:// uri)
 *   only     scan: only chunks from scanned pages; ocr: only text read by OCR (the OCR stage,
 *            or an OCR layer in the PDF); both, comma-separated, for both
 *   since, before   only documents written into the archive in [since, before), ISO 8601
 *   substring       1: the query as a literal substring (needs the trigram index)
 *
 * A query the index cannot search is a 400 with the QueryError's code and sentence.
 */
import type { FastifyInstance } from "fastify";
import { isAbsolute, resolve } from "node:path";
import { QUERY_LIMITS } from "../../sinks/sqlite/fts-query.js";
import { MAX_OFFSET, QueryError } from "../../sinks/sqlite/search.js";
import type { ArchiveInfo, SearchResponse } from "../api-types.js";
import { displayPath } from "../originals.js";
import { sendError, type ServerOptions } from "../server.js";

export const PAGE_SIZE = 10;
const MAX_PAGE = Math.floor(MAX_OFFSET / PAGE_SIZE) + 1;
/** The flags each `only` value asks for, any of them. */
const ONLY: Record<string, string[]> = { scan: ["scan"], ocr: ["ocr", "ocr_layer"] };
/** The archive's counts are read again at most this often (a run may be adding to it). */
const INFO_TTL_MS = 5_000;
const ISO_TIME = "^\\d{4}-\\d\\d-\\d\\d(T\\d\\d:\\d\\d(:\\d\\d(\\.\\d{1,3})?)?(Z|[+-]\\d\\d:\\d\\d)?)?$";

interface SearchQuery {
  q: string;
  page?: number;
  folder?: string;
  only?: string;
  since?: string;
  before?: string;
  substring?: "0" | "1";
}

export function searchRoutes(options: ServerOptions) {
  let info: { at: number; value: ArchiveInfo } | undefined;
  return async (app: FastifyInstance) => {
    app.get("/api/archive", async (_request, reply) => {
      if (!info || Date.now() - info.at > INFO_TTL_MS) {
        const counts = options.archive.counts();
        const value: ArchiveInfo = {
          archive: options.archiveName,
          documents: counts.documents - counts.failedDocuments,
          failedDocuments: counts.failedDocuments,
          pages: counts.pages,
          chunks: counts.chunks,
          // The source folder itself is "any folder".
          folders: options.archive.folders(500).map((f) => f.slice(0, -1)).filter((f) => f !== options.access?.root).map((f) => displayPath(options.access, f)),
          flags: counts.flags,
          substring: counts.substring,
          ingested: counts.ingested,
          source: options.access?.type ?? null,
          canAdd: options.saver !== undefined,
          maxUploadBytes: options.maxUploadBytes,
          queryLimits: { ...QUERY_LIMITS },
        };
        info = { at: Date.now(), value };
      }
      return reply.header("cache-control", "no-store").send(info.value);
    });

    app.get<{ Querystring: SearchQuery }>(
      "/api/search",
      {
        schema: {
          querystring: {
            type: "object",
            required: ["q"],
            additionalProperties: false,
            properties: {
              q: { type: "string", maxLength: 10_000 },
              page: { type: "integer", minimum: 1, maximum: MAX_PAGE },
              folder: { type: "string", maxLength: 1000 },
              only: { type: "string", pattern: "^(scan|ocr)(,(scan|ocr))?$" },
              since: { type: "string", pattern: ISO_TIME },
              before: { type: "string", pattern: ISO_TIME },
              substring: { type: "string", enum: ["0", "1"] },
            },
          },
        },
      },
      async (request, reply) => {
        const { q, folder, only, since, before } = request.query;
        const page = request.query.page ?? 1;
        try {
          const result = options.archive.search(q, {
            limit: PAGE_SIZE,
            offset: (page - 1) * PAGE_SIZE,
            ...(folder ? { pathPrefix: folderPrefix(options, folder) } : {}),
            ...(only ? { flags: only.split(",").map((o) => ONLY[o]!) } : {}),
            ...(since ? { ingestedSince: new Date(since).toISOString() } : {}),
            ...(before ? { ingestedBefore: new Date(before).toISOString() } : {}),
            ...(request.query.substring === "1" ? { substring: true } : {}),
          });
          const flags = options.archive.chunkFlags(result.hits.map((h) => h.chunkId));
          const response: SearchResponse = {
            query: q,
            page,
            pageSize: PAGE_SIZE,
            more: result.more && page < MAX_PAGE,
            hits: result.hits.map((h) => ({
              documentId: h.documentId ?? "",
              name: h.uri.split("/").pop() ?? h.uri,
              path: displayPath(options.access, h.uri),
              title: h.title,
              pages: h.matchPages,
              pageLabels: h.matchPageLabels,
              boxes: h.boxes,
              snippet: h.snippet,
              highlights: h.highlights,
              flags: flags.get(h.chunkId) ?? [],
              score: Math.round(h.score * 1000) / 1000,
            })),
          };
          return reply.header("cache-control", "no-store").send(response);
        } catch (err) {
          if (err instanceof QueryError) return sendError(reply, 400, err.code, err.message);
          throw err;
        }
      },
    );
  };
}

/**
 * A folder as the page names it (relative to the source folder, or absolute, or an s3:// uri)
 * → the uri prefix of the documents under it. Only a filter on stored uris: nothing is read.
 */
function folderPrefix(options: ServerOptions, folder: string): string {
  const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(folder) || isAbsolute(folder);
  const path = absolute ? folder : resolve(options.access?.root ?? process.cwd(), folder);
  return path.endsWith("/") ? path : path + "/";
}
