/**
 * Names a watcher reports lossily, found again as bytes. chokidar reports paths as strings, and
 * Node decodes a name that is not valid UTF-8 with U+FFFD in place of its bad bytes: `caf<0xE9>.pdf`
 * and `caf<0xE8>.pdf` both arrive as `caf\u{FFFD}.pdf`, a name no file has. The folder source
 * lists each such folder by its bytes to find which files the report can mean, and remembers the
 * ones it has seen under each lossy path, so that a removal can be told apart from its siblings.
 */
import { readdir, stat } from "node:fs/promises";

/** What a watcher's path loses when a name in it is not UTF-8. */
export const REPLACEMENT = "\u{FFFD}";

/** A file whose name was reported lossily: its path under the root as bytes, with its size and time. */
export interface FoundFile {
  bytes: Buffer;
  size: number;
  mtimeMs: number;
}

/**
 * The files under `root` that the lossy relative path `rel` ("/"-separated) can mean: each part
 * that holds U+FFFD matches every entry of its folder whose name decodes to that part. Folders
 * that cannot be read, and matches that are not files, are passed over.
 */
export async function filesMatching(root: string, rel: string): Promise<FoundFile[]> {
  let prefixes: Buffer[] = [Buffer.alloc(0)];
  for (const part of rel.split("/")) {
    const next: Buffer[] = [];
    for (const prefix of prefixes) {
      if (!part.includes(REPLACEMENT)) {
        next.push(joined(prefix, Buffer.from(part)));
        continue;
      }
      const names = await readdir(under(root, prefix), { encoding: "buffer" }).catch(() => [] as Buffer[]);
      for (const name of names) if (name.toString("utf8") === part) next.push(joined(prefix, name));
    }
    prefixes = next;
  }
  const found: FoundFile[] = [];
  for (const bytes of prefixes) {
    const info = await stat(under(root, bytes)).catch(() => undefined);
    if (info?.isFile()) found.push({ bytes, size: info.size, mtimeMs: info.mtimeMs });
  }
  return found.sort((a, b) => Buffer.compare(a.bytes, b.bytes));
}

/**
 * The files seen so far under each lossy path (by the listing and by the watcher), keyed by
 * that path; only names that are not UTF-8 are kept, so it stays as small as they are rare.
 */
export class LossyNames {
  private readonly seen = new Map<string, Set<string>>();

  /** Notes a file whose name is `bytes` (relative, not UTF-8) under the uri `uri`. */
  remember(bytes: Buffer, uri: string): void {
    const lossy = bytes.toString("utf8");
    // A valid name shown escaped (a literal `\x..`) arrives whole: nothing to find again.
    if (!lossy.includes(REPLACEMENT)) return;
    const uris = this.seen.get(lossy) ?? new Set<string>();
    uris.add(uri);
    this.seen.set(lossy, uris);
  }

  /** The uris seen under the lossy path `rel` that are not among `present`; they are forgotten. */
  gone(rel: string, present: ReadonlySet<string>): string[] {
    const uris = this.seen.get(rel);
    if (!uris) return [];
    const gone = [...uris].filter((uri) => !present.has(uri)).sort();
    for (const uri of gone) uris.delete(uri);
    if (uris.size === 0) this.seen.delete(rel);
    return gone;
  }
}

function joined(prefix: Buffer, name: Buffer): Buffer {
  return prefix.length === 0 ? name : Buffer.concat([prefix, Buffer.from("/"), name]);
}

function under(root: string, rel: Buffer): Buffer {
  return rel.length === 0 ? Buffer.from(root) : Buffer.concat([Buffer.from(root), Buffer.from("/"), rel]);
}
