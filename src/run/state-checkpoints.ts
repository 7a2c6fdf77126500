/**
 * The sinks' last checkpoints as the run state recorded them, read without taking the run
 * folder's lock or writing anything: `pagestream export` reads a sink's output up to what the
 * state says it holds, while a run may be writing after it.
 */
import { existsSync } from "node:fs";

/** The token recorded for the sink `key`, undefined when the state has none (or there is no state). */
export async function recordedCheckpoint(stateFile: string, key: string): Promise<unknown> {
  if (!existsSync(stateFile)) return undefined;
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(stateFile, { readonly: true, fileMustExist: true });
  try {
    db.pragma("busy_timeout = 5000");
    const hasSinks = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sinks'").get();
    if (!hasSinks) return undefined;
    const row = db.prepare("SELECT checkpoint FROM sinks WHERE key = ?").get(key) as { checkpoint: string | null } | undefined;
    return row?.checkpoint ? JSON.parse(row.checkpoint) : undefined;
  } finally {
    db.close();
  }
}
