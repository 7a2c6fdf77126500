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
  /** Where the bucket is (an endpoint URL, or AWS S3 and its region), for messages. */
  where: string;
  maxBytes: number;
  maxAttempts: number;
  timeoutSeconds: number;
}

/** A download that broke off after this share of the timeout without data had stalled. */
const STALL_SHARE = 0.9;

/** The SDK's standard backoff: full jitter over 100 ms × 2^attempt, at most 20 s. */
const BACKOFF_BASE_MS = 100;
const BACKOFF_MAX_MS = 20_000;

export async function readObject(client: S3Client, bucket: string, key: string, listedSize: number, limits: ObjectLimits): Promise<Uint8Array> {
  if (listedSize > limits.maxBytes) throw tooLarge(listedSize, limits.maxBytes);
  let stalls = 0;
  for (let attempt = 1; ; attempt++) {
    let response: GetObjectCommandOutput;
    try {
      response = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    } catch (err) {
      throw objectError(err, limits.timeoutSeconds, limits.where);
    }
    const activity = { last: Date.now() };
    try {
      return await download(response, limits.maxBytes, activity);
    } catch (err) {
      if (err instanceof DocumentError) throw err;
      // No byte for the whole timeout before it broke off: the download stalled, it was not cut.
      const stalled = Date.now() - activity.last >= limits.timeoutSeconds * 1000 * STALL_SHARE;
      if (stalled) stalls++;
      if (attempt >= limits.maxAttempts) {
        if (stalls === attempt) throw new DocumentError("timeout", `the download stalled: no data for ${limits.timeoutSeconds} s, ${attempt} time(s)`, { cause: err });
        throw new DocumentError("read_failed", `the download was cut off ${attempt} time(s), last: ${(err as Error).message}`, { cause: err });
      }
      await sleep(Math.random() * Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** attempt));
    }
  }
}

/** The body, refused by its ContentLength before any of it is read when that is over the cap. */
async function download(response: GetObjectCommandOutput, maxBytes: number, activity: { last: number }): Promise<Uint8Array> {
  const body = response.Body as Readable | undefined;
  if (!body) return new Uint8Array(0);
  const length = response.ContentLength;
  if (length !== undefined && length > maxBytes) {
    body.destroy();
    throw tooLarge(length, maxBytes);
  }
  return length === undefined ? downloadUnsized(body, maxBytes, activity) : downloadSized(body, length, activity);
}

/** Into one array of ContentLength bytes: a document is held once, not as chunks and a copy. */
async function downloadSized(body: Readable, length: number, activity: { last: number }): Promise<Uint8Array> {
  const bytes = new Uint8Array(length);
  let received = 0;
  for await (const chunk of body as AsyncIterable<Uint8Array>) {
    activity.last = Date.now();
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
async function downloadUnsized(body: Readable, maxBytes: number, activity: { last: number }): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let received = 0;
  for await (const chunk of body as AsyncIterable<Uint8Array>) {
    activity.last = Date.now();
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
