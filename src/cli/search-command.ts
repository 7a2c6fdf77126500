/**
 * `pagestream search "query"`: the best chunks of an archive for a query, ranked by bm25, each
 * with its document, the pages of the match and a snippet; `--json` for programs. The query is
 * never passed raw to FTS5 (see `src/sinks/sqlite/fts-query.ts`): a query it cannot read is a
 * usage error with a sentence, exit 2, never a crash or a silent empty result.
 */
import { isAbsolute, relative, resolve } from "node:path";
import { openArchiveFor, unusableArchive } from "./archive-choice.js";
import { QueryError, searchArchive, type SearchHit } from "../sinks/sqlite/search.js";
import { searchHitJson } from "../sinks/sqlite/search-hit-json.js";
import { EXIT } from "../exit-codes.js";
import { escapeControls } from "./escape-controls.js";

export interface SearchFlags {
  db?: string;
  pipeline?: string;
  limit: number;
  json?: boolean;
  document?: string;
  path?: string;
  substring?: boolean;
  /** `--fts`: the query in FTS5's own syntax. */
  fts?: boolean;
  /** `--source ocr|text`. */
  source?: "ocr" | "text";
}

export async function searchCommand(query: string, flags: SearchFlags): Promise<number> {
  // Which archive answers is named at a terminal, and to a program in the JSON.
  const opened = await openArchiveFor(flags);
  if (!opened.ok) {
    process.stderr.write(opened.text);
    return EXIT.usage;
  }
  const { db } = opened;
  const { file, shown } = opened.choice;
  try {
    if (flags.substring && flags.fts) throw new QueryError("fts_syntax", "--substring and --fts ask for two different searches: give one of them");
    const document = flags.document !== undefined ? documentFilter(db, flags.document) : undefined;
    const result = searchArchive(db, query, {
      limit: flags.limit,
      ...(document !== undefined ? { document } : {}),
      ...(flags.path !== undefined ? { pathPrefix: pathPrefix(flags.path) } : {}),
      ...(flags.substring ? { substring: true } : {}),
      ...(flags.fts ? { fts: true } : {}),
      ...(flags.source !== undefined ? { source: flags.source } : {}),
    });
    if (flags.json) {
      process.stdout.write(JSON.stringify({ archive: file, query: result.query, match: result.match, hits: result.hits.map(searchHitJson) }, null, 2) + "\n");
    } else if (result.hits.length === 0) {
      process.stdout.write(`No matches for ${escapeControls(JSON.stringify(query))}.\n`);
    } else {
      const bold = process.stdout.isTTY ? (s: string) => `\u001b[1m${s}\u001b[22m` : (s: string) => `[${s}]`;
      process.stdout.write(result.hits.map((hit, i) => textHit(hit, i + 1, bold)).join("\n"));
    }
    return EXIT.ok;
  } catch (err) {
    if (err instanceof QueryError) {
      process.stderr.write(`pagestream: ${err.message}\n`);
      return EXIT.usage;
    }
    const unusable = unusableArchive(err);
    if (unusable !== undefined) {
      process.stderr.write(`pagestream: ${shown}: ${unusable}\n`);
      return EXIT.usage;
    }
    throw err;
  } finally {
    db.close();
  }
}

/**
 * What `--document` names, checked against the archive, so that a mistyped one is an error
 * rather than "No matches": a document id (its sha256, or the first 8 hex digits or more of it)
 * or a document's path. A shorter run of hex digits is refused: it names no document for sure.
 */
function documentFilter(db: import("better-sqlite3").Database, value: string): string {
  const byUri = db.prepare("SELECT 1 FROM documents WHERE uri = ?");
  const path = pathPrefix(value);
  if (/^[0-9a-f]{8,64}$/i.test(value)) {
    const found = db.prepare("SELECT 1 FROM documents WHERE substr(document_id, 1, ?) = lower(?)").get(value.length, value) ?? byUri.get(path);
    if (!found) throw new QueryError("no_document", `--document ${value}: no document in the archive has an id starting with ${value.toLowerCase()}`);
    return value;
  }
  if (byUri.get(path)) return path;
  if (/^[0-9a-f]{1,7}$/i.test(value)) {
    throw new QueryError("no_document", `--document ${value}: too short for a document id: give its first 8 hex digits or more (the sha256 of the file, as search --json and the documents table show it), or the document's path`);
  }
  throw new QueryError("no_document", `--document ${value}: the archive holds no document at ${path}; give its path as the run stored it, or its id`);
}

/** A path as the folder source stores uris: absolute. URLs (s3://…) are kept as they are. */
function pathPrefix(path: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(path) || isAbsolute(path) ? path : resolve(path);
}

function pages([first, last]: [number, number]): string {
  return first === last ? `p. ${first}` : `pp. ${first}–${last}`;
}

/**
 * One hit for a person. Paths, page labels, titles and text come from the files and say what
 * their makers chose: their control characters are escaped (escape-controls.ts), so that a raw
 * ESC never reaches the terminal (a colour, a window title, a cleared screen) and a newline never
 * makes a hit of its own. `--json` keeps them exact, for programs.
 */
function textHit(hit: SearchHit, n: number, mark: (s: string) => string): string {
  const shown = escapeControls(hit.uri.startsWith(process.cwd()) ? relative(process.cwd(), hit.uri) : hit.uri);
  const labels = hit.matchPageLabels.length ? ` (printed ${escapeControls(hit.matchPageLabels.join(", "))})` : "";
  let snippet = "";
  let at = 0;
  for (const [s, e] of hit.highlights) {
    snippet += escapeControls(hit.snippet.slice(at, s)) + mark(escapeControls(hit.snippet.slice(s, e)));
    at = e;
  }
  snippet += escapeControls(hit.snippet.slice(at));
  // Text read by OCR is a guess at letters: say so, with how sure the engine was.
  const ocr = hit.ocr ? `  [ocr, confidence ${hit.ocr.meanConfidence}]` : "";
  return `${n}. ${shown}  ${pages(hit.matchPages)}${labels}${ocr}${hit.title ? `  ${escapeControls(hit.title)}` : ""}\n   ${snippet}\n`;
}
