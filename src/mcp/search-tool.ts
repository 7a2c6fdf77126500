/**
 * The `search` tool: the archive's best chunks for a query, ranked by the same `searchArchive`
 * as `pagestream search` and the web page, in the same query syntax, each hit with what a model
 * needs to cite it and read on: its document, the pages of the match and their printed labels,
 * the headings it stands under, a snippet with the matches located, and where the text stands
 * on the page (boxes).
 */
import { z } from "zod";
import type { DocumentRecord } from "../serve/archive-reader.js";
import { QUERY_LIMITS } from "../sinks/sqlite/fts-query.js";
import { MAX_OFFSET, type SearchHit } from "../sinks/sqlite/search.js";
import { searchHitJson } from "../sinks/sqlite/search-hit-json.js";
import { ANSWER_BOUNDS } from "./answer-bounds.js";
import { ArgumentError } from "./argument-error.js";
import { pageRange } from "./page-labels.js";
import type { ArchiveAccess, ToolAnswer, ToolArguments } from "./tool-results.js";

export const SEARCH_TOOL = {
  name: "search",
  title: "Search the archive",
  description:
    "Full-text search over the PDF archive (bm25 ranking over chunks of ~512 tokens). Query syntax as `pagestream search`: " +
    'words (all must match), "a phrase" in double quotes, a prefix* of 3+ letters, OR, NOT and (groups) in capitals. ' +
    `Returns at most ${ANSWER_BOUNDS.maxHits} hits (default ${ANSWER_BOUNDS.defaultHits}), best first; each has document_id, path, title, chunk_id, ` +
    "match_pages and match_page_labels (the page numbers printed on the pages), headings (outermost first), a snippet with highlights " +
    "([start, end) offsets into it) and boxes (where the chunk's text stands on those pages, in points from the top-left corner). " +
    "Read around a hit with read_document { chunk_id } or its pages with read_document { document, pages }.",
  inputSchema: {
    query: z.string().max(QUERY_LIMITS.maxChars).describe("What to look for, in the syntax above (with fts: SQLite FTS5's own syntax)."),
    limit: z.number().int().min(1).max(ANSWER_BOUNDS.maxHits).optional().describe(`Most hits to return (default ${ANSWER_BOUNDS.defaultHits}).`),
    offset: z.number().int().min(0).max(MAX_OFFSET).optional().describe("Hits to skip, for the next page of hits (`more` says whether there is one)."),
    document: z.string().min(1).max(1000).optional().describe("Only this document: its document_id, 8 or more of its leading hex digits, or its path."),
    path_prefix: z.string().min(1).max(1000).optional().describe("Only documents whose path starts with this (a folder under the source folder, e.g. \"reports/2026/\", or an absolute path or s3:// uri)."),
    substring: z.boolean().optional().describe("Find the query as a literal substring (only when the archive has a trigram index)."),
    fts: z.boolean().optional().describe("The query in SQLite FTS5's own syntax: NEAR(a b, 5), column filters (title: …), ^ for the first token."),
    source: z.enum(["ocr", "text"]).optional().describe("Only text read by OCR from page images (ocr), or only the PDFs' own text (text)."),
  },
} as const;

export function searchTool(archive: ArchiveAccess, args: ToolArguments<typeof SEARCH_TOOL.inputSchema>): ToolAnswer {
  if (args.substring && args.fts) throw new ArgumentError("conflicting_arguments", "substring and fts ask for two different searches: give one of them");
  const limit = args.limit ?? ANSWER_BOUNDS.defaultHits;
  const offset = args.offset ?? 0;
  const result = archive.reader.search(args.query, {
    limit,
    offset,
    ...(args.document !== undefined ? { document: archive.lookups.documentNamed(args.document) } : {}),
    ...(args.path_prefix !== undefined ? { pathPrefix: archive.lookups.uriPrefix(args.path_prefix) } : {}),
    ...(args.substring ? { substring: true } : {}),
    ...(args.fts ? { fts: true } : {}),
    ...(args.source !== undefined ? { source: args.source } : {}),
  });
  const headingsOf = chunkHeadings(archive);
  const hits = result.hits.map((hit) => hitJson(hit, headingsOf(hit)));
  const more = result.more && offset + hits.length <= MAX_OFFSET;
  return {
    structured: { query: result.query, offset, hits, more, ...(more ? { next_offset: offset + hits.length } : {}) },
    text: searchText(args.query, hits, offset, more),
  };
}

/** The headings a hit's chunk stands under, read once per chunk; a document read once per search. */
function chunkHeadings(archive: ArchiveAccess): (hit: SearchHit) => string[] {
  const documents = new Map<string, DocumentRecord | undefined>();
  return (hit) => {
    if (hit.documentId === null) return [];
    if (!documents.has(hit.documentId)) documents.set(hit.documentId, archive.reader.document(hit.documentId));
    const document = documents.get(hit.documentId);
    return document ? (archive.reader.chunks(document, hit.chunkIndex, hit.chunkIndex)[0]?.headings ?? []) : [];
  };
}

/** A hit with `pagestream search --json`'s keys, its score rounded, its headings added and its snippet bounded. */
function hitJson(hit: SearchHit, headings: string[]) {
  const bounded = boundedSnippet(hit.snippet, hit.highlights);
  return { ...searchHitJson({ ...hit, ...bounded }), score: Math.round(hit.score * 1000) / 1000, headings };
}

/** A snippet cut at {@link ANSWER_BOUNDS.maxSnippetChars} ("…" where it was), its highlights kept inside it. */
export function boundedSnippet(snippet: string, highlights: [number, number][]): { snippet: string; highlights: [number, number][] } {
  const max = ANSWER_BOUNDS.maxSnippetChars;
  if (snippet.length <= max) return { snippet, highlights };
  // Not inside a surrogate pair.
  const cut = /[\uD800-\uDBFF]/.test(snippet[max - 2] ?? "") ? max - 2 : max - 1;
  return { snippet: snippet.slice(0, cut) + "…", highlights: highlights.filter(([start]) => start < cut).map(([start, end]) => [start, Math.min(end, cut)]) };
}

type HitJson = ReturnType<typeof hitJson>;

function searchText(query: string, hits: HitJson[], offset: number, more: boolean): string {
  if (hits.length === 0) return offset > 0 ? `No more hits for ${JSON.stringify(query)} after the first ${offset}.` : `No hits for ${JSON.stringify(query)}.`;
  const lines = [`Hits ${offset + 1}–${offset + hits.length} for ${JSON.stringify(query)}, best first (matches in [brackets]):`, ""];
  hits.forEach((hit, i) => {
    lines.push(`${offset + i + 1}. ${hit.path ?? hit.uri}, ${pageRange(hit.match_pages, hit.match_page_labels)}${hit.title ? ` — ${hit.title}` : ""}`);
    if (hit.headings.length) lines.push(`   under: ${hit.headings.join(" › ")}`);
    lines.push(`   ${marked(hit.snippet, hit.highlights)}`);
    lines.push(`   document_id ${hit.document_id}, chunk_id ${hit.chunk_id}${hit.ocr ? `, read by OCR (confidence ${hit.ocr.mean_confidence})` : ""}`);
    lines.push("");
  });
  if (more) lines.push(`More hits: search again with offset ${offset + hits.length}.`);
  return lines.join("\n").trimEnd();
}

function marked(snippet: string, highlights: [number, number][]): string {
  let text = "";
  let at = 0;
  for (const [start, end] of highlights) {
    text += snippet.slice(at, start) + `[${snippet.slice(start, end)}]`;
    at = end;
  }
  return text + snippet.slice(at);
}

