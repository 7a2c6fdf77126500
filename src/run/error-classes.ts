/**
 * What a failure says about the next run, by its code: whether the document is tried again, and
 * under which identity it is remembered.
 */
import type { ErrorCode } from "../core/records.js";

/** Failures a change of the limits may undo: remembered under the limits hash, tried again when the limits change. */
export const LIMIT_CODES: ReadonlySet<ErrorCode> = new Set(["too_large", "timeout", "resource_limit"]);

/** Failures that say nothing about the content: tried again on every run. */
export const RETRY_CODES: ReadonlySet<ErrorCode> = new Set(["read_failed"]);
