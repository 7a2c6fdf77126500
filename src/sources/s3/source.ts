/**
 * The S3 source: the objects under a prefix of a bucket, on AWS S3 or an S3-compatible store
 * (MinIO, Cloudflare R2, Ceph), listed lazily a page at a time and each downloaded only when the
 * runner reads it. The AWS SDK is imported by `create`, so `validate` and `--help` never load it.
 */
import { z } from "zod";
import { defineSource } from "../../core/plugin.js";
import { globOptions } from "../path-filter.js";

/** 256 MiB: a PDF is held whole in memory to be parsed, once per document in flight. */
const DEFAULT_MAX_OBJECT_BYTES = 256 * 1024 * 1024;

const options = z.strictObject({
  bucket: z
    .string()
    .min(1)
    .regex(/^[^/:]+$/, 'expected a bucket name alone, without "s3://" or a path (the path goes in `prefix`)')
    .describe("The bucket to read."),
  prefix: z
    .string()
    .regex(/^(?!\/)/, 'keys do not start with "/": write the prefix without it')
    .optional()
    .describe('Only keys under this prefix, taken as a folder: "reports/2024" reads reports/2024/…, not reports/2024-old/…. Globs are relative to it. Default: the whole bucket.'),
  ...globOptions("prefix"),
  endpoint: z
    .url({ protocol: /^https?$/, error: "expected an http:// or https:// URL" })
    .optional()
    .describe("URL of an S3-compatible store (MinIO, Cloudflare R2, Ceph), e.g. http://localhost:9000. Leave out for AWS S3."),
  region: z
    .string()
    .min(1)
    .optional()
    .describe("The bucket's region. Default: AWS_REGION, else the profile's region (~/.aws/config), else on EC2 the instance's; with an endpoint, AWS_REGION or us-east-1. On AWS a wrong region is followed to the bucket's own."),
  force_path_style: z
    .boolean()
    .optional()
    .describe("Address the bucket in the path (endpoint/bucket/key) rather than in the host name (bucket.endpoint). Default: true with an endpoint, as MinIO and Ceph expect; false on AWS."),
  profile: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Profile of the shared AWS files (~/.aws/credentials, ~/.aws/config) to take credentials from; an env reference such as ${ARCHIVE_PROFILE} works. Credentials never go in pipeline.yaml: without a profile, the standard chain finds them (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, SSO, the instance or task role).",
    ),
  max_object_bytes: z
    .int()
    .min(1)
    .default(DEFAULT_MAX_OBJECT_BYTES)
    .describe("An object larger than this fails with too_large before any of its bytes are downloaded: its listed size and the ContentLength of the response are checked first."),
  max_attempts: z
    .int()
    .min(1)
    .max(20)
    .default(5)
    .describe("Attempts per request, the first included. Throttling (503 SlowDown, 429), server errors (5xx), timeouts and dropped connections are retried with exponential backoff and jitter."),
  timeout_seconds: z.number().positive().default(60).describe("A request that receives nothing for this long fails, and is retried."),
  page_size: z
    .int()
    .min(1)
    .max(1000)
    .default(1000)
    .describe("Keys asked for per listing request (S3 gives at most 1000). The listing is read a page at a time, as the run needs more documents."),
});

export type S3SourceOptions = z.output<typeof options>;

export default defineSource({
  type: "s3",
  summary: "Every object under a bucket prefix that matches the include globs, in key order, on AWS S3 or an S3-compatible store.",
  options,
  // The profile is left out with the credentials: a reader finds its own through the standard chain.
  origin: (opts) => ({
    bucket: opts.bucket,
    ...(opts.prefix !== undefined ? { prefix: opts.prefix } : {}),
    ...(opts.endpoint !== undefined ? { endpoint: opts.endpoint } : {}),
    ...(opts.region !== undefined ? { region: opts.region } : {}),
    ...(opts.force_path_style !== undefined ? { force_path_style: opts.force_path_style } : {}),
  }),
  examples: [
    { bucket: "acme-archive", prefix: "invoices/2026", region: "eu-west-1" },
    { bucket: "scans", endpoint: "http://localhost:9000", profile: "${MINIO_PROFILE}", exclude: ["**/drafts/**"] },
  ],
  async probe(opts) {
    const { probeBucket } = await import("./bucket.js");
    return probeBucket(opts);
  },
  async create(opts, context) {
    const { openBucket } = await import("./bucket.js");
    return openBucket(opts, context);
  },
});
