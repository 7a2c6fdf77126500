/**
 * The original PDF of an archived document, for the page to render beside its text. A request
 * names a documentId only; the uri comes from the archive's own row, is read only when the
 * archive holds it and it lies inside the archive's source (as its pipeline configures it, or
 * as the archive recorded it: see src/cli/archive-choice.ts), and the bytes are
 * served only when their sha256 is still the documentId (a file changed since it was archived
 * would show other pages than the text beside it).
 */
import { createHash } from "node:crypto";
import { stat } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import { DocumentError } from "../core/document-error.js";
import type { Source, SourceSpec } from "../core/plugin.js";
import type { SourceItem } from "../core/records.js";
import { fileItem } from "../sources/folder-item.js";
import type { S3SourceOptions } from "../sources/s3/source.js";

export type OriginalBytes = { ok: true; bytes: Uint8Array } | { ok: false; reason: string };

/** How a stored uri is read: through the configured source, which knows where its documents live. */
export interface SourceAccess {
  /** The source's type, for the page ("folder", "s3"). */
  type: string;
  /** The folder source's root; documents inside it are shown relative to it. */
  root?: string;
  /** The source item for a stored uri, or a sentence saying why the source does not hold it. */
  item(uri: string): Promise<SourceItem | string>;
  /** The item's bytes, read by the pipeline's own source (`Source.read`), as a run's worker reads them. */
  read(item: SourceItem): Promise<Uint8Array>;
}

/** A source to read originals through: its declaration and parsed options, relative paths against `baseDir`. */
export interface SourceRef {
  type: string;
  spec: SourceSpec;
  options: Record<string, unknown>;
  baseDir: string;
}

/** Why no original can be shown when the archive names no source. */
export const NO_SOURCE =
  "the archive does not say where its originals are (it was written before pagestream recorded its source): run its pipeline once more, or give --pipeline";

/**
 * The access to a source's originals (undefined without a source: the archive is shown as text
 * only). The source is built as a worker builds it, only to read (it lists and probes nothing),
 * the first time an original is asked for.
 */
export function sourceAccess(ref: SourceRef | undefined, warn: (message: string) => void = () => {}): SourceAccess | undefined {
  if (!ref) return undefined;
  const { type, options } = ref;
  let source: Promise<Source> | undefined;
  const read = async (item: SourceItem) => {
    source ??= Promise.resolve(ref.spec.create(options, { baseDir: ref.baseDir, warn, purpose: "read" }));
    return (await source).read(item);
  };
  if (type === "folder") {
    const root = resolve(ref.baseDir, options.path as string);
    return {
      type,
      root,
      read,
      async item(uri) {
        const path = resolve(uri);
        if (!isAbsolute(uri) || path !== uri || !path.startsWith(root + sep)) return `it is not in the archive's source folder ${root}`;
        const info = await stat(path).catch(() => undefined);
        if (!info?.isFile()) return `the file is no longer at ${path}`;
        return fileItem(relative(root, path).split(sep).join("/"), uri, info.size, info.mtimeMs);
      },
    };
  }
  if (type === "s3") {
    const s3 = options as S3SourceOptions;
    const prefix = s3.prefix && !s3.prefix.endsWith("/") ? s3.prefix + "/" : (s3.prefix ?? "");
    const base = `s3://${s3.bucket}/`;
    return {
      type,
      read,
      async item(uri) {
        if (!uri.startsWith(base + prefix)) return `it is not under the archive's source ${base}${prefix}`;
        // The listed size is not kept in the archive: the download is held to the cap by its ContentLength.
        return { uri, key: uri.slice(base.length), size: 0, mtimeMs: 0, fingerprint: "" };
      },
    };
  }
  return { type, read, item: async () => `the server cannot tell a ${type} source's item from its uri` };
}

/**
 * The original bytes of an archived document, or why they cannot be shown. `holds` is the
 * archive's check that it has a document at that uri.
 */
export async function readOriginal(access: SourceAccess | undefined, document: { uri: string; documentId: string }, holds: (uri: string) => boolean, maxBytes: number): Promise<OriginalBytes> {
  if (!access) return { ok: false, reason: NO_SOURCE };
  if (!holds(document.uri)) return { ok: false, reason: "the archive does not hold this document's file" };
  const item = await access.item(document.uri);
  if (typeof item === "string") return { ok: false, reason: item };
  if (item.size > maxBytes) return { ok: false, reason: `the file is ${item.size} bytes, more than max_file_bytes (${maxBytes})` };
  let bytes: Uint8Array;
  try {
    bytes = await access.read(item);
  } catch (err) {
    const why = err instanceof DocumentError ? err.message : (err as Error).message;
    return { ok: false, reason: `the file could not be read: ${why}` };
  }
  if (createHash("sha256").update(bytes).digest("hex") !== document.documentId) {
    return { ok: false, reason: "the file has changed since it was archived (its bytes are not the archived document's)" };
  }
  return { ok: true, bytes };
}

/** A uri as the page shows it: relative to the source folder when it is inside it. */
export function displayPath(access: SourceAccess | undefined, uri: string): string {
  if (access?.root && uri.startsWith(access.root + sep)) return relative(access.root, uri).split(sep).join("/");
  return uri;
}
