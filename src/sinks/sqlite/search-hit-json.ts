/**
 * A search hit as JSON, snake_case keys in a fixed order: what `pagestream search --json` prints
 * and the MCP server's search tool answers, so a program reads one shape from both.
 */
import type { SearchHit } from "./search.js";

export function searchHitJson(hit: SearchHit) {
  return {
    score: hit.score,
    document_id: hit.documentId,
    uri: hit.uri,
    ...(hit.path !== null ? { path: hit.path } : {}),
    ...(hit.title ? { title: hit.title } : {}),
    chunk_id: hit.chunkId,
    chunk_index: hit.chunkIndex,
    page_start: hit.pageStart,
    page_end: hit.pageEnd,
    match_pages: hit.matchPages,
    match_page_labels: hit.matchPageLabels,
    boxes: hit.boxes,
    snippet: hit.snippet,
    highlights: hit.highlights,
    ...(hit.ocr ? { ocr: { pages: hit.ocr.pages, mean_confidence: hit.ocr.meanConfidence } } : {}),
  };
}
