/**
 * What a run leaves for a person beside its outputs: run-summary.json (what this run did) and
 * failed.jsonl (every document whose last outcome is a failure, this run's or an earlier one's
 * that was skipped as unchanged since). Both are written whole, then renamed into place.
 */
import { rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { RunSummary } from "../core/plugin.js";
import { FAILED_FILE, SUMMARY_FILE } from "../pipeline/run-folder-files.js";
import type { FailedDocument } from "./run-state.js";

export { FAILED_FILE, SUMMARY_FILE };

export interface RunReport {
  pipeline: string;
  /** The process that ran it (and held the run folder's lock). */
  pid: number;
  started_at: string;
  finished_at: string;
  exit_code: number;
  /** What stopped the run early, if anything (SIGINT, SIGTERM). */
  signal?: string;
  /** Why a run that ended with exit code 1 failed. */
  error?: string;
  workers: number;
  /** Workers started, replacements for stopped ones included. */
  workers_started: number;
  summary: RunSummary;
  pages_per_second: number;
  peak_rss_mib: { main: number; worker: number };
}

/** Writes run-summary.json and, when `failures` are given (the run state was open), failed.jsonl. */
export async function writeRunReport(folder: string, report: RunReport, failures: readonly FailedDocument[] | undefined): Promise<void> {
  await replace(join(folder, SUMMARY_FILE), JSON.stringify(report, null, 2) + "\n");
  if (!failures) return;
  const lines = failures.map((f) => JSON.stringify({ uri: f.uri, code: f.code, message: f.message, ...(f.document_id ? { document_id: f.document_id } : {}), failed_at: f.processed_at }) + "\n");
  await replace(join(folder, FAILED_FILE), lines.join(""));
}

async function replace(path: string, text: string): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temp, text);
    await rename(temp, path);
  } finally {
    await rm(temp, { force: true });
  }
}
