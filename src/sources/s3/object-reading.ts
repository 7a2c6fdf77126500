/**
 * Downloads one object whole (pdf.js needs all the bytes), refusing one over the byte cap
 * before its body is read. The SDK retries a request until its response starts; a download cut
 * off midway (a reset connection, a stalled socket) is started again here, up to the same
 * number of attempts.
 */
import { GetObjectCommand, type GetObjectCommandOutput, type S3Client } from "@aws-sdk/client-s3";
import type { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { DocumentError } from "../../core/document-error.js";
import { objectError } from "./error-mapping.js";

export interface ObjectLimits {
  maxBytes: number;
  maxAttempts: number;
  timeoutSeconds: number;
}

/** The SDK's standard backoff: full jitter over 100 ms × 2^attempt, at most 20 s. */
const BACKOFF_BASE_MS = 100;
const BACKOFF_MAX_MS = 20_000;

export async function readObject(client: S3Client, bucket: string, key: string, listedSize: number, limits: ObjectLimits): Promise<Uint8Array> {
  if (listedSize > limits.maxBytes) throw tooLarge(listedSize, limits.maxBytes);
  for (let attempt = 1; ; attempt++) {
    let response: GetObjectCommandOutput;
    try {
      response = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    } catch (err) {
      throw objectError(err, limits.timeoutSeconds);
    }
    try {
      return await download(response, limits.maxBytes);
    } catch (err) {
      if (err instanceof DocumentError) throw err;
      if (attempt >= limits.maxAttempts) {
        throw new DocumentError("read_failed", `the download was cut off ${attempt} time(s), last: ${(err as Error).message}`, { cause: err });
      }
      await sleep(Math.random() * Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** attempt));
    }
  }
}

/** The body, refused by its ContentLength before any of it is read when that is over the cap. */
async function download(response: GetObjectCommandOutput, maxBytes: number): Promise<Uint8Array> {
  const body = response.Body as Readable | undefined;
  if (!body) return new Uint8Array(0);
  const length = response.ContentLength;
  if (length !== undefined && length > maxBytes) {
    body.destroy();
    throw tooLarge(length, maxBytes);
  }
  return length === undefined ? downloadUnsized(body, maxBytes) : downloadSized(body, length);
}

/** Into one array of ContentLength bytes: a document is held once, not as chunks and a copy. */
async function downloadSized(body: Readable, length: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(length);
  let received = 0;
  for await (const chunk of body as AsyncIterable<Uint8Array>) {
    if (received + chunk.length > length) {
      body.destroy();
      throw new Error(`the server sent more than the ${length} bytes it announced`);
    }
    bytes.set(chunk, received);
    received += chunk.length;
  }
  if (received < length) throw new Error(`the body ended after ${received} of ${length} bytes`);
  return bytes;
}

/** A body without ContentLength (a store that streams it chunked) is counted as it comes. */
async function downloadUnsized(body: Readable, maxBytes: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let received = 0;
  for await (const chunk of body as AsyncIterable<Uint8Array>) {
    received += chunk.length;
    if (received > maxBytes) {
      body.destroy();
      throw new DocumentError("too_large", `the object is more than max_object_bytes (${maxBytes}); its download was stopped there`);
    }
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

function tooLarge(size: number, maxBytes: number): DocumentError {
  return new DocumentError("too_large", `the object is ${size} bytes, more than max_object_bytes (${maxBytes}); it was not downloaded`);
}
