/**
 * The records of an archive as JSONL lines, for `pagestream export` on a pipeline without a
 * jsonl sink (or with `--db`): each document once, as the archive holds it, read by one
 * statement per kind so the lines are one consistent snapshot even while a run writes.
 *
 *   chunks      the chunk lines of the jsonl sink, in any shape; their metadata lacks only
 *               `tokenizer` and `encoding`, which the archive does not keep ("" with stable keys)
 *   pages       { type: "page", document_id, uri, path?, page, page_count, format, text,
 *               page_label?, flags, width, height }: `text` in `format`, the view its chunks
 *               were cut from (plain or markdown), which chunk offsets point into
 *   documents   { type: "document", document_id, uri, path?, status, title?, page_count,
 *               chunk_count, ingested_at, warnings } (code and message for a failed one)
 */
import type Database from "better-sqlite3";
import type { ChunkRow as ArchiveChunkRow } from "../sinks/sqlite/document-rows.js";
import { metadataOf, shapeChunk, type ChunkShape, type MetadataLayout } from "../sinks/jsonl/chunk-shapes.js";

export type ArchiveRecords = "chunks" | "pages" | "documents";

export function* archiveLines(db: Database.Database, records: ArchiveRecords, shape: ChunkShape, layout: MetadataLayout = {}): Generator<string> {
  if (records === "chunks") yield* chunkLines(db, shape, layout);
  else if (records === "pages") yield* pageLines(db);
  else yield* documentLines(db);
}

/** A chunk's row as the archive stores it, with what its document and pages add. */
type ChunkRow = Omit<ArchiveChunkRow, "cjk"> & { document_id: string; uri: string; path: string | null; format: string | null };

function* chunkLines(db: Database.Database, shape: ChunkShape, layout: MetadataLayout): Generator<string> {
  const rows = db
    .prepare(
      `SELECT c.id, d.document_id, d.uri, d.path, c.title, c.chunk_index, c.text, c.page_start, c.page_end, c.page_labels,
              c.char_start, c.char_end, c.prefix_chars, c.token_count, c.headings, c.headings_inside, c.running_titles, c.flags, c.boxes,
              (SELECT format FROM pages p WHERE p.document_row = d.id ORDER BY number LIMIT 1) AS format
         FROM documents d JOIN chunks c ON c.document_row = d.id
        WHERE d.status != 'failed'
        ORDER BY d.uri, c.chunk_index`,
    )
    .iterate() as IterableIterator<ChunkRow>;
  for (const c of rows) {
    const metadata = metadataOf({
      uri: c.uri,
      path: c.path ?? undefined,
      title: c.title,
      pageStart: c.page_start,
      pageEnd: c.page_end,
      pageLabels: parseList(c.page_labels),
      charStart: c.char_start,
      charEnd: c.char_end,
      prefixChars: c.prefix_chars,
      tokenCount: c.token_count,
      textFormat: c.format ?? "plain",
      headings: parseList(c.headings),
      headingsInside: parseList(c.headings_inside),
      runningTitles: parseList(c.running_titles),
      flags: parseList(c.flags),
      boxes: c.boxes,
    });
    yield JSON.stringify(shapeChunk({ id: c.id, document_id: c.document_id, chunk_index: c.chunk_index, text: c.text, metadata }, shape, layout));
  }
}

function* pageLines(db: Database.Database): Generator<string> {
  const rows = db
    .prepare(
      `SELECT d.document_id, d.uri, d.path, d.pages AS page_count, p.number, p.format, p.text, p.label, p.flags, p.width, p.height
         FROM documents d JOIN pages p ON p.document_row = d.id
        WHERE d.status != 'failed'
        ORDER BY d.uri, p.number`,
    )
    .iterate() as IterableIterator<{ document_id: string; uri: string; path: string | null; page_count: number; number: number; format: string; text: string; label: string | null; flags: string; width: number | null; height: number | null }>;
  for (const p of rows) {
    yield JSON.stringify({
      type: "page",
      document_id: p.document_id,
      uri: p.uri,
      ...(p.path !== null ? { path: p.path } : {}),
      page: p.number,
      page_count: p.page_count,
      format: p.format,
      text: p.text,
      ...(p.label ? { page_label: p.label } : {}),
      flags: parseList(p.flags),
      width: p.width,
      height: p.height,
    });
  }
}

function* documentLines(db: Database.Database): Generator<string> {
  const rows = db
    .prepare("SELECT document_id, uri, path, status, title, pages, chunk_count, ingested_at, error_code, error, warnings FROM documents ORDER BY uri")
    .iterate() as IterableIterator<{ document_id: string | null; uri: string; path: string | null; status: string; title: string | null; pages: number | null; chunk_count: number; ingested_at: string; error_code: string | null; error: string | null; warnings: string }>;
  for (const d of rows) {
    const head = { type: "document", ...(d.document_id ? { document_id: d.document_id } : {}), uri: d.uri, ...(d.path !== null ? { path: d.path } : {}), status: d.status };
    const warnings = parseList(d.warnings);
    yield JSON.stringify(
      d.status === "failed"
        ? { ...head, code: d.error_code, message: d.error, ingested_at: d.ingested_at, warnings }
        : { ...head, ...(d.title ? { title: d.title } : {}), page_count: d.pages, chunk_count: d.chunk_count, ingested_at: d.ingested_at, warnings },
    );
  }
}

/** A JSON list column; anything else (a hand-edited archive) reads as none. */
function parseList(text: string): unknown[] & string[] {
  try {
    const value = JSON.parse(text) as unknown;
    return (Array.isArray(value) ? value : []) as unknown[] & string[];
  } catch {
    return [];
  }
}
