import type { SourceItem } from "../core/records.js";

/**
 * A listed file as data: `path` is where it is under the source's folder (with "/"), which is
 * what a worker reads from its own copy of the source, wherever that folder is mounted there;
 * `path_bytes` (base64) is its name as bytes, when that is not valid UTF-8. A module of its own:
 * `pagestream extract` names a file as an item without loading the folder source.
 */
export function fileItem(path: string, uri: string, size: number, mtimeMs: number, pathBytes?: Buffer): SourceItem {
  return { uri, path, ...(pathBytes ? { path_bytes: pathBytes.toString("base64") } : {}), size, mtimeMs, fingerprint: `size:${size} mtime:${Math.round(mtimeMs)}` };
}
