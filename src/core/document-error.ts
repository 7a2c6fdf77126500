import type { ErrorCode } from "./records.js";

/**
 * Thrown by sources and stages for a document that cannot be processed. The runner turns it
 * into an error record for the sinks; any other exception becomes `stage_failed`.
 */
export class DocumentError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "DocumentError";
  }
}

/** The message of anything thrown, for error records. */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
