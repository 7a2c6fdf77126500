/**
 * The limits every document gets by default, in a run and in `pagestream extract`; a module of
 * their own so a command can read them without loading the pipeline file's schema (zod, yaml).
 */
export const DEFAULT_LIMITS = { timeout_seconds: 300, max_worker_memory_mb: 1024, max_pages: 20_000, max_file_bytes: 256 * 1024 * 1024 } as const;

/**
 * Resident memory a worker needs per byte of the file it parses: the bytes read, the copy pdf.js
 * takes, and the parse. Measured through the default pipeline: four 250 MiB files of text peaked
 * at 600 MiB per worker (2.4×); a 250 MiB file of 444 OCR'd CJK pages, each with fonts of its
 * own, at 788 MiB (3.15×; before pdf.js's font cache was bounded it passed 1,024 MiB).
 */
export const WORKER_BYTES_PER_FILE_BYTE = 3;
