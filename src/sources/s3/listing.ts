/**
 * The keys under a prefix, lazily: the SDK's paginator asks for the next page only when the
 * run has taken every key of the one before, so a bucket of a million keys is never a million
 * objects in memory. Keys come in S3's order (UTF-8 binary, the same on every run).
 */
import { paginateListObjectsV2, type ListObjectsV2CommandOutput, type S3Client } from "@aws-sdk/client-s3";
import type { PathFilter } from "../path-filter.js";
import { bucketError } from "./error-mapping.js";

export interface ListedObject {
  key: string;
  size: number;
  lastModified?: Date;
  etag?: string;
}

export interface Listing {
  bucket: string;
  /** "" or a folder ending in "/": keys are matched against the globs relative to it. */
  prefix: string;
  pageSize: number;
  filter: PathFilter;
  where: string;
}

export async function* listObjects(client: S3Client, listing: Listing): AsyncGenerator<ListedObject> {
  const pages = paginateListObjectsV2({ client, pageSize: listing.pageSize }, { Bucket: listing.bucket, Prefix: listing.prefix || undefined });
  const iterator = pages[Symbol.asyncIterator]();
  for (;;) {
    let page: IteratorResult<ListObjectsV2CommandOutput, unknown>;
    try {
      page = await iterator.next();
    } catch (err) {
      throw bucketError(err, listing.bucket, listing.where);
    }
    if (page.done) return;
    for (const object of page.value.Contents ?? []) {
      // A key ending in "/" is a folder marker a console made, not a document.
      if (!object.Key || object.Key.endsWith("/")) continue;
      if (!listing.filter.takesPath(object.Key.slice(listing.prefix.length))) continue;
      yield { key: object.Key, size: object.Size ?? 0, lastModified: object.LastModified, etag: object.ETag };
    }
  }
}
