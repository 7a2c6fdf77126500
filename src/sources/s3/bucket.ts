/**
 * Opens a bucket for a run: checks that it can be listed (before any document, so a wrong
 * bucket, endpoint or credentials stop the run with a message naming them), then lists its
 * objects as source items whose bytes are downloaded only by `read()`.
 */
import { ListObjectsV2Command, type ListObjectsV2CommandOutput, type S3Client } from "@aws-sdk/client-s3";
import type { RunContext, Source } from "../../core/plugin.js";
import type { SourceItem } from "../../core/records.js";
import { pathFilter } from "../path-filter.js";
import { bucketClient } from "./client.js";
import { bucketError } from "./error-mapping.js";
import { listObjects, type ListedObject } from "./listing.js";
import { readObject, type ObjectLimits } from "./object-reading.js";
import type { S3SourceOptions } from "./source.js";

export async function openBucket(opts: S3SourceOptions, context: RunContext): Promise<Source> {
  const { client, where } = bucketClient(opts);
  const bucket = opts.bucket;
  const prefix = opts.prefix && !opts.prefix.endsWith("/") ? opts.prefix + "/" : (opts.prefix ?? "");
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

  const limits: ObjectLimits = { maxBytes: opts.max_object_bytes, maxAttempts: opts.max_attempts, timeoutSeconds: opts.timeout_seconds };
  const listing = { bucket, prefix, pageSize: opts.page_size, filter: pathFilter(opts), where };
  return {
    async *list() {
      for await (const object of listObjects(client, listing)) yield objectItem(client, bucket, object, limits);
    },
  };
}

function objectItem(client: S3Client, bucket: string, object: ListedObject, limits: ObjectLimits): SourceItem {
  const mtimeMs = object.lastModified?.getTime() ?? 0;
  return {
    uri: `s3://${bucket}/${object.key}`,
    size: object.size,
    mtimeMs,
    // A store that gives no ETag still gives size and time.
    fingerprint: object.etag ? `etag:${object.etag}` : `size:${object.size} mtime:${mtimeMs}`,
    read: () => readObject(client, bucket, object.key, object.size, limits),
  };
}
