/**
 * The files pdf.js reads from its own package while it parses a document: the standard fonts it
 * substitutes for fonts a document names but does not embed (a Liberation TrueType for
 * Helvetica, a Foxit Type 1 for Times), and its CMaps. pdf.js's own reader in Node opens and
 * reads the file again for every document that asks, four calls into the file system each (22
 * of the 86 real and business corpus PDFs ask, 55 times in all; a filled form's whole reading
 * is a few milliseconds). These
 * files never change while the process runs (they are the package's: 820 KB of fonts in all),
 * so each is read once for the process, and every document gets a copy of its bytes.
 *
 * pdf.js takes this as its `BinaryDataFactory` (getDocument's parameter): it makes one per
 * document with the directories to read from, and asks it for `{ kind, filename }`.
 */
import { readFile } from "node:fs/promises";

type Kind = "cMapUrl" | "standardFontDataUrl" | "wasmUrl";

/** What pdf.js says when a file cannot be read, by kind (its BaseBinaryDataFactory). */
const WHAT: Record<Kind, string> = { cMapUrl: "CMap", standardFontDataUrl: "font", wasmUrl: "wasm" };

/** Each file's bytes, by path, as read once; a read that failed is not kept. */
const read = new Map<string, Promise<Uint8Array>>();

export class PackageDataCache {
  private readonly dirs: Record<Kind, string | null>;

  constructor({ cMapUrl = null, standardFontDataUrl = null, wasmUrl = null }: { cMapUrl?: string | null; standardFontDataUrl?: string | null; wasmUrl?: string | null }) {
    this.dirs = { cMapUrl, standardFontDataUrl, wasmUrl };
  }

  async fetch({ kind, filename }: { kind: Kind; filename: string }): Promise<Uint8Array> {
    const dir = this.dirs[kind];
    if (dir === undefined) throw new Error(`Not implemented: ${kind}`);
    if (!dir) throw new Error(`Ensure that the \`${kind}\` API parameter is provided.`);
    const path = `${dir}${filename}`;
    let bytes = read.get(path);
    if (!bytes) {
      bytes = readFile(path).then((buffer) => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength));
      read.set(path, bytes);
      bytes.catch(() => read.delete(path));
    }
    try {
      // A copy: what pdf.js is handed may be handed on and detached; the kept bytes must stay whole.
      return (await bytes).slice();
    } catch {
      throw new Error(`Unable to load ${WHAT[kind]} data at: ${path}`);
    }
  }
}
