/**
 * Opens a bucket for a run: checks that it can be listed (before any document, so a wrong
 * bucket, endpoint or credentials stop the run with a message naming them), then lists its
 * objects as source items (data: the uri and the key) whose bytes are downloaded only by `read()`,
 * in the process that extracts the document.
 */
import { ListObjectsV2Command, type ListObjectsV2CommandOutput } from "@aws-sdk/client-s3";
import { DocumentError } from "../../core/document-error.js";
import type { Source, SourceContext } from "../../core/plugin.js";
import type { SourceItem } from "../../core/records.js";
import { pathFilter } from "../path-filter.js";
import { bucketClient } from "./client.js";
import { bucketError } from "./error-mapping.js";
import { listObjects, type ListedObject } from "./listing.js";
import { readObject, type ObjectLimits } from "./object-reading.js";
import type { S3SourceOptions } from "./source.js";

/**
 * For `validate --env`: lists one key under the prefix, as a run does before its first document,
 * and says what it found; the client is closed after. Throws the run's own error (a bucket that
 * does not exist, credentials refused, an endpoint that does not answer).
 */
export async function probeBucket(opts: S3SourceOptions): Promise<string> {
  const { client, where } = bucketClient(opts);
  const prefix = opts.prefix && !opts.prefix.endsWith("/") ? opts.prefix + "/" : (opts.prefix ?? "");
  try {
    const probe = await client.send(new ListObjectsV2Command({ Bucket: opts.bucket, Prefix: prefix || undefined, MaxKeys: 1 }));
    return `s3://${opts.bucket}/${prefix} can be listed at ${where}${probe.KeyCount ? "" : " (it holds no objects)"}`;
  } catch (err) {
    throw bucketError(err, opts.bucket, where);
  } finally {
    client.destroy();
  }
}

export async function openBucket(opts: S3SourceOptions, context: SourceContext): Promise<Source> {
  const { client, where } = bucketClient(opts);
  const bucket = opts.bucket;
  const prefix = opts.prefix && !opts.prefix.endsWith("/") ? opts.prefix + "/" : (opts.prefix ?? "");
  // A source built in a worker only reads what it is sent: the run checked the bucket already.
  if (context.purpose === "run") {
    // ListObjectsV2 rather than HeadBucket: the same permission (s3:ListBucket), but a refusal
    // comes with an error code (NoSuchBucket, AccessDenied, InvalidAccessKeyId) to explain.
    let probe: ListObjectsV2CommandOutput;
    try {
      probe = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix || undefined, MaxKeys: 1 }));
    } catch (err) {
      client.destroy();
      throw bucketError(err, bucket, where);
    }
    if (!probe.KeyCount) context.warn(`s3://${bucket}/${prefix} holds no objects at ${where}`);
  }

  const limits: ObjectLimits = { where, maxBytes: opts.max_object_bytes, maxAttempts: opts.max_attempts, timeoutSeconds: opts.timeout_seconds };
  const listing = { bucket, prefix, pageSize: opts.page_size, filter: pathFilter(opts), where };
  return {
    async *list() {
      for await (const object of listObjects(client, listing)) yield objectItem(bucket, prefix, object);
    },
    async read(item) {
      const key = item.key;
      if (typeof key !== "string" || !key.startsWith(prefix) || item.uri !== `s3://${bucket}/${key}`) {
        throw new DocumentError("read_failed", `not an object of this source (s3://${bucket}/${prefix}): ${JSON.stringify(item.uri)}`);
      }
      return readObject(client, bucket, key, item.size, limits);
    },
  };
}

/** A listed object as data: its key is what a worker downloads with its own client; `path` is the key under the prefix. */
function objectItem(bucket: string, prefix: string, object: ListedObject): SourceItem {
  const mtimeMs = object.lastModified?.getTime() ?? 0;
  return {
    uri: `s3://${bucket}/${object.key}`,
    key: object.key,
    path: object.key.slice(prefix.length),
    size: object.size,
    mtimeMs,
    // A store that gives no ETag still gives size and time.
    fingerprint: object.etag ? `etag:${object.etag}` : `size:${object.size} mtime:${mtimeMs}`,
  };
}
