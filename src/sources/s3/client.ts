/**
 * The S3 client a source talks through, from its options: endpoint and addressing, region,
 * credentials from the standard chain (or a named profile), retries and timeouts.
 */
import { S3Client } from "@aws-sdk/client-s3";
import type { S3SourceOptions } from "./source.js";

export interface BucketClient {
  client: S3Client;
  /** Where the bucket is, for messages: the endpoint, or AWS S3 and its region. */
  where: string;
}

export function bucketClient(opts: S3SourceOptions): BucketClient {
  // The SDK tells every process on Node < 22 that its releases after January 2027 will need
  // Node 22. pagestream pins a release that runs on Node 20, so the notice would only repeat on
  // every run; a user who sets the variable to "false" still gets it.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  const timeoutMs = Math.round(opts.timeout_seconds * 1000);
  // The SDK's own default region chain ends at the EC2 instance metadata, which only AWS has;
  // an S3-compatible store takes any region (MinIO's default is us-east-1).
  const region = opts.region ?? (opts.endpoint ? (process.env.AWS_REGION ?? "us-east-1") : undefined);
  const client = new S3Client({
    ...(region ? { region } : {}),
    ...(opts.endpoint ? { endpoint: opts.endpoint } : { followRegionRedirects: true }),
    forcePathStyle: opts.force_path_style ?? opts.endpoint !== undefined,
    ...(opts.profile ? { profile: opts.profile } : {}),
    maxAttempts: opts.max_attempts,
    retryMode: "standard",
    // socketTimeout is the SDK's inactivity timeout, the body included (its requestTimeout only warns).
    requestHandler: { connectionTimeout: timeoutMs, socketTimeout: timeoutMs },
  });
  return { client, where: opts.endpoint ?? (region ? `AWS S3 (${region})` : "AWS S3") };
}
