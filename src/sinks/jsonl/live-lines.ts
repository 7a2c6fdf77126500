/**
 * The live view of a JSONL log: what a consumer loading the file in one go wants. A log holds
 * every version of every document it was given, each replaced or removed one withdrawn by a
 * later tombstone of its uri; the live view is the lines no later tombstone withdraws, in the
 * order they were written, without the tombstones, each line's bytes as written.
 *
 * Two passes, streaming (the file is never held whole): the first finds each uri's last
 * tombstone, the second keeps the lines after it. Lines stay bytes: only a tombstone is parsed,
 * and of any other line only its uri, found by its key (a quote inside a JSON string is always
 * escaped, so `"uri":"` can only be a key). A log without tombstones — a first run — is copied
 * as it is. Only whole lines are read: a line cut off at the end of the file (a run killed
 * mid-write, or `upTo` past the last checkpoint) is left out.
 */
import { createReadStream } from "node:fs";

/** The tombstones are written by pagestream with this beginning (see record-lines.ts). */
const TOMBSTONE = Buffer.from('{"type":"tombstone",');
/** The keys a line names its document by: `uri` (pages, documents, errors, warnings), else `source_uri` (chunks, in every shape). */
const URI_KEY = Buffer.from('"uri":"');
const SOURCE_URI_KEY = Buffer.from('"source_uri":"');
const NEWLINE = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Each whole line of `path` (without its newline), as bytes, up to byte `upTo` (default: the end). */
export async function* wholeLines(path: string, upTo?: number): AsyncGenerator<Buffer> {
  if (upTo === 0) return;
  const stream = createReadStream(path, { highWaterMark: 1 << 20, ...(upTo !== undefined ? { end: upTo - 1 } : {}) });
  let rest: Buffer | undefined;
  for await (const piece of stream as AsyncIterable<Buffer>) {
    const bytes = rest ? Buffer.concat([rest, piece]) : piece;
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE); end >= 0; end = bytes.indexOf(NEWLINE, start)) {
      yield bytes.subarray(start, end);
      start = end + 1;
    }
    rest = start < bytes.length ? bytes.subarray(start) : undefined;
  }
}

/** The uri a line is about, whatever record or chunk shape it is; undefined for a line without one. */
export function lineUri(line: Buffer): string | undefined {
  let at = line.indexOf(URI_KEY);
  let key = URI_KEY;
  if (at < 0) {
    at = line.indexOf(SOURCE_URI_KEY);
    key = SOURCE_URI_KEY;
  }
  if (at < 0) return undefined;
  const start = at + key.length;
  let end = start;
  while (end < line.length && line[end] !== QUOTE) end += line[end] === BACKSLASH ? 2 : 1;
  return JSON.parse(line.toString("utf8", start - 1, end + 1)) as string;
}

/** The live lines of the log at `path` (up to byte `upTo`), in file order. */
export async function* liveLines(path: string, upTo?: number): AsyncGenerator<Buffer> {
  const lastTombstone = new Map<string, number>();
  let n = 0;
  for await (const line of wholeLines(path, upTo)) {
    if (isTombstone(line)) lastTombstone.set((JSON.parse(line.toString("utf8")) as { uri: string }).uri, n);
    n++;
  }
  n = 0;
  for await (const line of wholeLines(path, upTo)) {
    const at = n++;
    if (isTombstone(line)) continue;
    if (lastTombstone.size > 0) {
      const uri = lineUri(line);
      const withdrawnUpTo = uri === undefined ? undefined : lastTombstone.get(uri);
      if (withdrawnUpTo !== undefined && at <= withdrawnUpTo) continue;
    }
    yield line;
  }
}

function isTombstone(line: Buffer): boolean {
  return line.length >= TOMBSTONE.length && TOMBSTONE.equals(line.subarray(0, TOMBSTONE.length));
}
