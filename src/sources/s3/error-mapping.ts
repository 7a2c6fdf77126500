/**
 * S3 failures, in sentences: for an object, a DocumentError with the code a run counts it by;
 * for the bucket (checked before the run, listed during it), an error that stops the run and
 * names the bucket and where it was looked for.
 */
import { DocumentError } from "../../core/document-error.js";

/** The parts of an SDK error (a service exception, or a network error with `$metadata` added). */
interface SdkError {
  name?: string;
  message?: string;
  /** Node's errno code for a network failure (ECONNREFUSED, ECONNRESET). */
  code?: string;
  /** Set on an object in archival storage (InvalidObjectState). */
  StorageClass?: string;
  $metadata?: { httpStatusCode?: number; attempts?: number };
}

/** Errors whose name says the credentials themselves were refused. */
const REJECTED_CREDENTIALS = new Set(["InvalidAccessKeyId", "SignatureDoesNotMatch", "InvalidToken", "ExpiredToken", "TokenRefreshRequired"]);

/** What went wrong in one phrase: the S3 error code with its HTTP status, or the network error; and how often it was tried. */
export function describeS3Error(err: unknown): string {
  const e = (err ?? {}) as SdkError;
  const status = e.$metadata?.httpStatusCode;
  const message = e.message && e.message !== "UnknownError" ? e.message : "";
  let text: string;
  if (status !== undefined) text = `${e.name && e.name !== "Unknown" ? e.name + " " : ""}(HTTP ${status})${message ? ": " + message : ""}`;
  else text = message && e.code && !message.includes(e.code) ? `${message} (${e.code})` : message || String(err);
  const attempts = e.$metadata?.attempts ?? 1;
  return attempts > 1 ? `${text}, after ${attempts} attempts` : text;
}

/** Network errors that mean the endpoint itself cannot be reached, not this one object. */
const UNREACHABLE = new Set(["ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);

/** Why an object could not be downloaded, as the error record the run keeps for it. */
export function objectError(err: unknown, timeoutSeconds: number, where: string): DocumentError {
  const e = (err ?? {}) as SdkError;
  const what = describeS3Error(err);
  if (e.code && UNREACHABLE.has(e.code)) {
    return new DocumentError("source_unreachable", `${where} cannot be reached (${e.code}): ${what}`, { cause: err });
  }
  const status = e.$metadata?.httpStatusCode;
  if (e.name === "NoSuchKey" || (status === 404 && e.name !== "NoSuchBucket")) {
    return new DocumentError("not_found", `the object no longer exists, it was deleted after it was listed: ${what}`, { cause: err });
  }
  if (e.name === "InvalidObjectState") {
    return new DocumentError("read_failed", `the object is in archival storage${e.StorageClass ? ` (${e.StorageClass})` : ""} and must be restored before it can be read: ${what}`, { cause: err });
  }
  if (status === 403) {
    return new DocumentError("access_denied", `access denied: these credentials cannot read this object (s3:GetObject, or its KMS key): ${what}`, { cause: err });
  }
  // The SDK also names a reset or refused connection TimeoutError; only its own timers and ETIMEDOUT are timeouts.
  if (e.name === "TimeoutError" && (e.code === undefined || e.code === "ETIMEDOUT")) {
    return new DocumentError("timeout", `no answer within ${timeoutSeconds} s: ${what}`, { cause: err });
  }
  return new DocumentError("read_failed", `the object could not be downloaded: ${what}`, { cause: err });
}

/** Why a bucket could not be listed, naming it and where it was looked for. */
export function bucketError(err: unknown, bucket: string, where: string): Error {
  const e = (err ?? {}) as SdkError;
  const what = describeS3Error(err);
  let message: string;
  if (e.name === "NoSuchBucket") message = `bucket "${bucket}" does not exist at ${where}`;
  else if (e.name && REJECTED_CREDENTIALS.has(e.name)) {
    message = `${where} rejected the credentials for bucket "${bucket}" (${e.name}): check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or the profile`;
  } else if (e.name === "CredentialsProviderError") {
    message = `no AWS credentials for bucket "${bucket}" at ${where}: ${e.message}. Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE or the source's profile, or run with an instance or task role`;
  } else if (e.message === "Region is missing") {
    message = `no region for bucket "${bucket}" at ${where}: set region on the source, or AWS_REGION`;
  } else if (e.$metadata?.httpStatusCode === 403) {
    message = `access denied to bucket "${bucket}" at ${where}: these credentials cannot list it (s3:ListBucket): ${what}`;
  } else message = `bucket "${bucket}" at ${where} cannot be listed: ${what}`;
  return new Error(message, { cause: err });
}
