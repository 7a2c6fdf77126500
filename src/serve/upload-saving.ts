/**
 * "Add to archive" for a dropped PDF: the server never writes the archive (a run is its one
 * writer), so the file is saved into the pipeline's source folder, where the next
 * `pagestream run` — or a watching one, within seconds — ingests it like any other file.
 *
 * The name is the dropped file's base name made safe: letters, digits, `.`, `-`, `_` only, no
 * leading dot, at most 120 characters, ending in `.pdf`; it is created new (an existing file
 * of that name is never replaced) directly in the source folder, and must be one the source's
 * include and exclude globs take. The bytes are copied from the file the upload was received
 * into (upload-receiving.ts), never held in memory.
 */
import { constants } from "node:fs";
import { copyFile, open, rm } from "node:fs/promises";
import { join } from "node:path";
import type { PipelineConfig } from "../pipeline/config.js";
import { hasPdfSignature } from "../run/pdf-signature.js";
import { pathFilter, type PathFilter } from "../sources/path-filter.js";
import type { ReceivedUpload } from "./upload-receiving.js";

export class SaveError extends Error {
  constructor(
    readonly code: "exists" | "not_taken" | "not_pdf",
    message: string,
  ) {
    super(message);
  }
}

export interface UploadSaver {
  /** Saves a received upload as `name` (made safe); returns the file name in the source folder. */
  save(name: string, upload: ReceivedUpload): Promise<string>;
}

/** The saver for a pipeline whose source is a folder; undefined for other sources. */
export function uploadSaver(config: PipelineConfig | undefined, root: string | undefined): UploadSaver | undefined {
  if (!config || config.source.type !== "folder" || !root) return undefined;
  const filter: PathFilter = pathFilter(config.source.options as { include: string[]; exclude: string[] });
  return {
    async save(name, upload) {
      if (!hasPdfSignature(upload.head)) throw new SaveError("not_pdf", "not a PDF: the file does not start with a %PDF- header");
      const file = safeFileName(name);
      if (!filter.takesPath(file)) throw new SaveError("not_taken", `the source's include and exclude globs would skip ${file}, so no run would ingest it`);
      const target = join(root, file);
      try {
        // COPYFILE_EXCL: created new, or EEXIST; a file of that name is never replaced.
        await copyFile(upload.path, target, constants.COPYFILE_EXCL);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "EEXIST") throw new SaveError("exists", `${file} is already in the source folder: rename the file to add it as well`);
        await rm(target, { force: true }).catch(() => {});
        throw err;
      }
      const handle = await open(target, "r+");
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      return file;
    },
  };
}

/** A dropped file's name as a safe name in the source folder. */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const stem = base
    .replace(/\.pdf$/i, "")
    .normalize("NFKD")
    .replace(/[^\w.-]+/g, "-")
    .replace(/^[.-]+|[.-]+$/g, "")
    .slice(0, 116);
  return `${stem || "document"}.pdf`;
}
