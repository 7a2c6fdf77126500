/**
 * What a failure says about the next run, by its code: whether the document is tried again, and
 * under which identity it is remembered. Three classes:
 * - transient: says nothing about the content (a file that vanished or could not be read, a
 *   permission since fixed) — tried again on every run;
 * - retried once: a worker that timed out or was lost (killed from outside, crashed) may have met
 *   a busy machine or an operator — tried once more on the next run; failing again, the timeout
 *   is a limit failure and the lost worker a permanent one;
 * - permanent: about the bytes (not a PDF, encrypted without the password, damaged) or a limit
 *   they exceed — tried again only when the bytes change, the config changes, or (for limit
 *   failures) the limits change.
 */
import type { ErrorCode } from "../core/records.js";

/** Failures a change of the limits may undo: remembered under the limits hash, tried again when the limits change. */
export const LIMIT_CODES: ReadonlySet<ErrorCode> = new Set(["too_large", "timeout", "resource_limit"]);

/** Failures that say nothing about the content: tried again on every run. */
export const TRANSIENT_CODES: ReadonlySet<ErrorCode> = new Set(["not_found", "access_denied", "read_failed", "source_unreachable"]);

/**
 * Documents in a row whose source could not be reached at all (its endpoint refuses connections,
 * its host is gone) before the run stops with one error, rather than one record per document left.
 */
export const UNREACHABLE_STOP = 3;

/** Failures tried once more on the next run before they count as limit or permanent failures. */
export const RETRIED_ONCE_CODES: ReadonlySet<ErrorCode> = new Set(["timeout", "worker_lost"]);

/** Consecutive attempts that failed the same way after which a retried-once failure stays. */
export const RETRY_ONCE_ATTEMPTS = 2;

/** Whether a remembered failure is tried again on this run (before its identity is compared). */
export function retriesNow(code: ErrorCode, attempts: number): boolean {
  return TRANSIENT_CODES.has(code) || (RETRIED_ONCE_CODES.has(code) && attempts < RETRY_ONCE_ATTEMPTS);
}
