import { ERROR_CODES, type ErrorCode } from "./records.js";

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

  /**
   * A plugin's DocumentError comes from `pagestream/plugin` (dist/core), while the extraction
   * worker runs its own bundled copy of this class: `instanceof` compares by name and code, so a
   * third-party source's `not_found` stays `not_found` instead of becoming `read_failed`.
   */
  static override [Symbol.hasInstance](value: unknown): value is DocumentError {
    return value instanceof Error && value.name === "DocumentError" && (ERROR_CODES as readonly unknown[]).includes((value as { code?: unknown }).code);
  }
}

/** The message of anything thrown, for error records. */
export function describeError(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
