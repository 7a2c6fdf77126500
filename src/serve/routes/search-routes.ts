/**
 * GET /api/archive: what the archive holds, for the page's filters and its header.
 * GET /api/search: one page of hits, ranked by the same `searchArchive` as `pagestream search`,
 *   grouped by document (hit-grouping.ts): 10 documents a page, each where its best hit ranks.
 *
 *   q        the query (the syntax of `pagestream search`)
 *   page     1-based page of documents, 10 a page
 *   document only this document (its documentId): its hits, 10 a page, each passage once
 *   folder   only documents under this folder (relative to the source folder, or an s3:// uri)
 *   only     scan: only chunks from scanned pages; ocr: only text read by OCR (the OCR stage,
 *            or an OCR layer in the PDF); both, comma-separated, for both
 *   since, before   only documents written into the archive in [since, before), ISO 8601
 *   substring       1: the query as a literal substring (needs the trigram index)
 * GET /api/examples: example queries made from the archive's own words (example-queries.ts).
 *
 * A query the index cannot search is a 400 with the QueryError's code and sentence.
 */
import type { FastifyInstance } from "fastify";
import { isAbsolute, resolve } from "node:path";
import { QUERY_LIMITS } from "../../sinks/sqlite/fts-query.js";
import { MAX_OFFSET, QueryError, type SearchHit, type SearchOptions } from "../../sinks/sqlite/search.js";
import type { ArchiveInfo, ExamplesResponse, SearchHitJson, SearchResponse } from "../api-types.js";
import type { ArchiveReader, DocumentRecord, PageOffsets } from "../archive-reader.js";
import { exampleQueries } from "../example-queries.js";
import { documentGroup, documentsInRankOrder, snippetAt, withoutRepeats, type DocumentMatch, type ShownHit } from "../hit-grouping.js";
import { MalformedCookie } from "../access-control.js";
import { displayPath } from "../originals.js";
import { carriesToken, sendError, type ServerOptions } from "../server.js";

export const PAGE_SIZE = 10;
const MAX_PAGE = Math.floor(MAX_OFFSET / PAGE_SIZE) + 1;
/** The flags each `only` value asks for, any of them. */
const ONLY: Record<string, string[]> = { scan: ["scan"], ocr: ["ocr", "ocr_layer"] };
/** The archive's counts are read again at most this often (a run may be adding to it). */
const INFO_TTL_MS = 5_000;
/** A document's hits shown in full under it; the rest are counted ("3 more in this document"). */
const SHOWN_PER_DOCUMENT = 2;
/** Documents sampled for the example queries, and how long the examples are kept. */
const EXAMPLE_DOCUMENTS = 40;
const EXAMPLES_TTL_MS = 10 * 60_000;
/** Each example is tried before it is offered, with this time limit. */
const EXAMPLE_TRY_MS = 250;
const ISO_TIME = "^\\d{4}-\\d\\d-\\d\\d(T\\d\\d:\\d\\d(:\\d\\d(\\.\\d{1,3})?)?(Z|[+-]\\d\\d:\\d\\d)?)?$";

interface SearchQuery {
  q: string;
  page?: number;
  document?: string;
  folder?: string;
  only?: string;
  since?: string;
  before?: string;
  substring?: "0" | "1";
}

export function searchRoutes(options: ServerOptions) {
  let info: { at: number; value: ArchiveInfo } | undefined;
  /** Made at most once per EXAMPLES_TTL_MS: a run adding documents meanwhile changes them little. */
  let examples: { at: number; chunks: number; value: ExamplesResponse } | undefined;
  return async (app: FastifyInstance) => {
    app.get("/api/archive", async (request, reply) => {
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
          canAdd: false,
          addNeedsToken: false,
          maxUploadBytes: options.maxUploadBytes,
          queryLimits: { ...QUERY_LIMITS },
        };
        info = { at: Date.now(), value };
      }
      // Per request, not cached: adding needs the token, which this page may or may not carry
      // (opened by the printed address, it has the cookie; typed in by hand, it has not).
      const mayAdd = options.saver !== undefined && (options.tokenRule === "every_request" || carriesTokenReadably(request, options));
      return reply.header("cache-control", "no-store").send({ ...info.value, canAdd: mayAdd, addNeedsToken: options.saver !== undefined && !mayAdd });
    });

    app.get("/api/examples", async (_request, reply) => {
      if (!examples || Date.now() - examples.at > EXAMPLES_TTL_MS) {
        const chunks = options.archive.counts().chunks;
        examples = { at: Date.now(), chunks, value: { queries: makeExamples(options.archive, chunks) } };
      }
      return reply.header("cache-control", "no-store").send(examples.value);
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
              document: { type: "string", pattern: "^[0-9a-f]{64}$" },
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
        const substring = request.query.substring === "1";
        const filters: Omit<SearchOptions, "limit"> = {
          ...(folder ? { pathPrefix: folderPrefix(options, folder) } : {}),
          ...(only ? { flags: only.split(",").map((o) => ONLY[o]!) } : {}),
          ...(since ? { ingestedSince: new Date(since).toISOString() } : {}),
          ...(before ? { ingestedBefore: new Date(before).toISOString() } : {}),
          ...(substring ? { substring: true } : {}),
        };
        try {
          const within = request.query.document ? options.archive.document(request.query.document) : undefined;
          if (request.query.document && !within) return sendError(reply, 404, "not_found", "the archive holds no such document");
          const places = new Places(options.archive, q, substring);
          const json = ({ hit: h, recentre }: ShownHit<SearchHit>, flags: Map<string, string[]>, document: DocumentRecord | undefined): SearchHitJson => ({
            documentId: h.documentId ?? "",
            chunkId: h.chunkId,
            name: h.uri.split("/").pop() ?? h.uri,
            path: displayPath(options.access, h.uri),
            title: h.title,
            pages: h.matchPages,
            pageLabels: h.matchPageLabels,
            boxes: h.boxes,
            ...((recentre && document && places.snippetAt(document, recentre)) || { snippet: h.snippet, highlights: h.highlights }),
            flags: flags.get(h.chunkId) ?? [],
            score: Math.round(h.score * 1000) / 1000,
          });
          let response: SearchResponse;
          if (within) {
            const hits = rankedWindow(options.archive, q, { ...filters, document: within.documentId }, page * PAGE_SIZE + 1, (ranked) => withoutRepeats(ranked, (id) => places.span(id), places.matches(within)));
            const shown = hits.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
            const flags = options.archive.chunkFlags(shown.map((h) => h.hit.chunkId));
            response = {
              query: q,
              page,
              pageSize: PAGE_SIZE,
              more: hits.length > page * PAGE_SIZE && page < MAX_PAGE,
              within: { documentId: within.documentId, name: within.uri.split("/").pop() ?? within.uri, title: within.title },
              groups: shown.length ? [{ documentId: within.documentId, name: within.uri.split("/").pop() ?? within.uri, path: displayPath(options.access, within.uri), title: within.title, hits: shown.map((h) => json(h, flags, within)), more: { matches: 0, pages: [] } }] : [],
            };
          } else {
            const documents = rankedWindow(options.archive, q, filters, page * PAGE_SIZE + 1, documentsInRankOrder);
            const groups = documents.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE).map((d) => {
              const record = options.archive.document(d.documentId);
              return { record, ...documentGroup(d.hits, (id) => places.span(id), record ? places.matches(record) : undefined, SHOWN_PER_DOCUMENT) };
            });
            const flags = options.archive.chunkFlags(groups.flatMap((g) => g.hits.map((h) => h.hit.chunkId)));
            response = {
              query: q,
              page,
              pageSize: PAGE_SIZE,
              more: documents.length > page * PAGE_SIZE && page < MAX_PAGE,
              within: null,
              groups: groups.map((g) => {
                const best = g.hits[0]!.hit;
                return { documentId: g.documentId, name: best.uri.split("/").pop() ?? best.uri, path: displayPath(options.access, best.uri), title: best.title, hits: g.hits.map((h) => json(h, flags, g.record)), more: g.more };
              }),
            };
          }
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
 * The ranked hits from the first on, enough of them that `shape` makes at least `wanted` items
 * of them (documents, or hits without repeats), or all there are up to MAX_OFFSET: the window
 * doubles until it does (a search ranks from the first hit at any offset, so a page of
 * documents deep in the ranking costs what its hits do).
 */
function rankedWindow<T>(archive: ArchiveReader, q: string, filters: Omit<SearchOptions, "limit">, wanted: number, shape: (ranked: SearchHit[]) => T[]): T[] {
  for (let window = Math.min(MAX_OFFSET, wanted * 2); ; window = Math.min(MAX_OFFSET, window * 2)) {
    const result = archive.search(q, { ...filters, limit: window, offset: 0 });
    const items = shape(result.hits);
    if (items.length >= wanted || !result.more || window >= MAX_OFFSET) return items;
  }
}

/** Where hits and matches stand in their documents, read once per request. */
class Places {
  private readonly spans = new Map<string, { charStart: number; charEnd: number } | undefined>();
  private readonly byDocument = new Map<string, DocumentMatch[] | undefined>();
  private readonly offsets = new Map<string, PageOffsets[]>();

  constructor(
    private readonly archive: ArchiveReader,
    private readonly query: string,
    private readonly substring: boolean,
  ) {}

  span(chunkId: string): { charStart: number; charEnd: number } | undefined {
    if (!this.spans.has(chunkId)) this.spans.set(chunkId, this.archive.chunkRanges([chunkId]).get(chunkId));
    return this.spans.get(chunkId);
  }

  /** The document's matches as offsets into its text; undefined for an archive without page offsets. */
  matches(document: DocumentRecord): DocumentMatch[] | undefined {
    if (!this.byDocument.has(document.documentId)) {
      const pages = new Map(this.pagesOf(document).map((p) => [p.number, p.charStart]));
      const found = pages.size ? this.archive.matches(this.query, document, { substring: this.substring }).map((m) => ({ page: m.page, start: (pages.get(m.page) ?? 0) + m.start, end: (pages.get(m.page) ?? 0) + m.end })) : undefined;
      this.byDocument.set(document.documentId, found);
    }
    return this.byDocument.get(document.documentId);
  }

  /** Where the document's pages stand in its text, read once per request. */
  private pagesOf(document: DocumentRecord): PageOffsets[] {
    let pages = this.offsets.get(document.documentId);
    if (!pages) this.offsets.set(document.documentId, (pages = this.archive.pageOffsets(document)));
    return pages;
  }

  /** A snippet cut around `match` from its page's text, the page's matches marked in it. */
  snippetAt(document: DocumentRecord, match: DocumentMatch): { snippet: string; highlights: [number, number][] } | undefined {
    const text = this.archive.pageText(document, match.page);
    const pageStart = this.pagesOf(document).find((p) => p.number === match.page)?.charStart;
    if (text === undefined || pageStart === undefined) return undefined;
    const onPage = (this.matches(document) ?? []).filter((m) => m.page === match.page).map((m): [number, number] => [m.start - pageStart, m.end - pageStart]);
    return snippetAt(text, onPage, match.start - pageStart);
  }
}

/**
 * The example queries: made from a sample of the archive's words, each tried once (a query that
 * finds nothing, or takes longer than EXAMPLE_TRY_MS, is not offered).
 */
function makeExamples(archive: ArchiveReader, chunks: number): string[] {
  const candidates = exampleQueries(archive.exampleMaterial(EXAMPLE_DOCUMENTS), (w) => archive.chunksHolding(w), chunks);
  return candidates.filter((q) => {
    try {
      return archive.search(q, { limit: 1, timeLimitMs: EXAMPLE_TRY_MS }).hits.length > 0;
    } catch {
      return false;
    }
  });
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

/** carriesToken, where a cookie that cannot be read carries none (adding then answers the 400). */
function carriesTokenReadably(...args: Parameters<typeof carriesToken>): boolean {
  try {
    return carriesToken(...args);
  } catch (err) {
    if (err instanceof MalformedCookie) return false;
    throw err;
  }
}
