/**
 * The live view of a JSONL log: what a consumer loading the file in one go wants. A log holds
 * every version of every document it was given, each replaced or removed one withdrawn by a
 * later tombstone of its uri; the live view is the lines no later tombstone withdraws, in the
 * order they were written, without the tombstones, each line's bytes as written.
 *
 * Two passes, streaming (the file is never held whole): the first finds each uri's last
 * tombstone, the second keeps the lines after it. A log without tombstones — a first run — is
 * copied without parsing a line. Only whole lines are read: a line cut off at the end of the
 * file (a run killed mid-write, or `upTo` past the last checkpoint) is left out.
 */
import { createReadStream } from "node:fs";

/** The uri a line is about, whatever record or chunk shape it is. */
export function lineUri(record: Record<string, unknown>): string | undefined {
  if (typeof record.uri === "string") return record.uri;
  const metadata = record.metadata as Record<string, unknown> | undefined;
  return typeof metadata?.source_uri === "string" ? metadata.source_uri : undefined;
}

/** The tombstones are written by pagestream with this beginning (see record-lines.ts). */
const TOMBSTONE = '{"type":"tombstone",';

/** Each whole line of `path` (without its newline), up to byte `upTo` (default: the end). */
export async function* wholeLines(path: string, upTo?: number): AsyncGenerator<string> {
  if (upTo === 0) return;
  const stream = createReadStream(path, { encoding: "utf8", highWaterMark: 1 << 20, ...(upTo !== undefined ? { end: upTo - 1 } : {}) });
  let rest = "";
  for await (const piece of stream as AsyncIterable<string>) {
    const text = rest + piece;
    let start = 0;
    for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
      yield text.slice(start, end);
      start = end + 1;
    }
    rest = text.slice(start);
  }
}

/** The live lines of the log at `path` (up to byte `upTo`), in file order. */
export async function* liveLines(path: string, upTo?: number): AsyncGenerator<string> {
  const lastTombstone = new Map<string, number>();
  let n = 0;
  for await (const line of wholeLines(path, upTo)) {
    if (line.startsWith(TOMBSTONE)) lastTombstone.set((JSON.parse(line) as { uri: string }).uri, n);
    n++;
  }
  n = 0;
  for await (const line of wholeLines(path, upTo)) {
    const at = n++;
    if (line.startsWith(TOMBSTONE)) continue;
    if (lastTombstone.size === 0) {
      yield line;
      continue;
    }
    const uri = lineUri(JSON.parse(line) as Record<string, unknown>);
    const withdrawnUpTo = uri === undefined ? undefined : lastTombstone.get(uri);
    if (withdrawnUpTo === undefined || at > withdrawnUpTo) yield line;
  }
}
