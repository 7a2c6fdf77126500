/**
 * The files a run keeps in its run folder, named in one place: the run writes them, and
 * validation refuses a sink that would write one of them (a JSONL sink on run-state.sqlite
 * destroys what the next run skips by; one on run.lock breaks the lock).
 */
import { join } from "node:path";

/** The run state: what is done, so that the next run skips it (SQLite). */
export const STATE_FILE = "run-state.sqlite";
/** Held by the run for its whole life: one run per run folder. */
export const LOCK_FILE = "run.lock";
/** What the last run did. */
export const SUMMARY_FILE = "run-summary.json";
/** Every document whose last outcome is a failure. */
export const FAILED_FILE = "failed.jsonl";

/** Every file of a run folder's own, SQLite's companions of the run state included. */
export function runFolderFiles(runFolder: string): string[] {
  return [STATE_FILE, `${STATE_FILE}-wal`, `${STATE_FILE}-shm`, `${STATE_FILE}-journal`, LOCK_FILE, SUMMARY_FILE, FAILED_FILE].map((name) => join(runFolder, name));
}
