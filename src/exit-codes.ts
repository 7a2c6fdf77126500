/** Exit codes, as qpdf and most batch tools use them. */
export const EXIT = {
  /** Every document was processed. */
  ok: 0,
  /** A fatal error: nothing reliable was produced. */
  fatal: 1,
  /** Bad configuration or usage: nothing was run. */
  usage: 2,
  /** The run finished, and some documents failed (each has an error record). */
  failedDocuments: 3,
} as const;

/** A run stopped by a signal exits 128 + the signal's number, as shells report it. */
export const SIGNAL_EXIT: Readonly<Record<string, number>> = { SIGINT: 130, SIGTERM: 143 };
