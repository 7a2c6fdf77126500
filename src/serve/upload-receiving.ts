/**
 * A dropped PDF's body, streamed to a file as it arrives (never held in memory): into the
 * server's private upload folder (mode 0700), under a random name, created new with the mode a
 * new file gets (copyFile keeps it when the file is added to the source folder). The file is
 * removed when the body fails to arrive (the client went away, or the request timed out); the
 * caller removes it once it is done with it.
 *
 * A body longer than the limit is read to its end and dropped, not written: the caller then
 * answers 413 on a connection that is still usable (a Content-Length over the limit is refused
 * before any of it is read).
 */
import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";

/** Bytes kept from the start of the body: where a PDF's `%PDF-` header may be (see pdf-signature.ts). */
const HEAD_BYTES = 1024;

export interface ReceivedUpload {
  /** The file's name in the upload folder. */
  file: string;
  path: string;
  /** Bytes received. */
  size: number;
  /** The first kilobyte, for the PDF signature check. */
  head: Uint8Array;
}

export type Receipt = { kind: "received"; upload: ReceivedUpload } | { kind: "too_large"; size: number };

export async function receiveUpload(body: Readable, folder: string, maxBytes: number): Promise<Receipt> {
  const file = `${randomUUID()}.pdf`;
  const path = join(folder, file);
  let size = 0;
  const head: Buffer[] = [];
  let headBytes = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (headBytes < HEAD_BYTES) {
        head.push(chunk.subarray(0, HEAD_BYTES - headBytes));
        headBytes += head[head.length - 1]!.length;
      }
      // Past the limit, the rest is read and dropped.
      done(null, size > maxBytes ? undefined : chunk);
    },
  });
  try {
    await pipeline(body, counted, createWriteStream(path, { flags: "wx" }));
  } catch (err) {
    await rm(path, { force: true });
    throw err;
  }
  if (size > maxBytes) {
    await rm(path, { force: true });
    return { kind: "too_large", size };
  }
  return { kind: "received", upload: { file, path, size, head: Buffer.concat(head) } };
}
