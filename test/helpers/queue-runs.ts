/**
 * What the queue's tests share: the CLI as separate processes (a coordinator, workers), waits for
 * a condition rather than for a time, and a run folder's outputs in a form two runs can be
 * compared by (the archive's rows without what only says when or in which order they were written).
 */
import Database from "better-sqlite3";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { copyFile, mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";

export const CLI = resolve("dist/cli.js");
export const GATE_STAGE = resolve("test/helpers/gate-stage.mjs");
export const RECORDING_SOURCE = resolve("test/helpers/recording-folder-source.mjs");

/** Small inputs: the samples, a few generated fixtures, a file that is not a PDF, and one the gate holds. */
export const INPUTS: [from: string, name: string][] = [
  ["samples/meeting-minutes.pdf", "a-meeting-minutes.pdf"],
  ["samples/quarterly-report.pdf", "b-quarterly-report.pdf"],
  ["two-columns-title.pdf", "c-two-columns-title.pdf"],
  ["samples/service-agreement.pdf", "d-held-service-agreement.pdf"],
  ["hyphenated-lines.pdf", "e-hyphenated-lines.pdf"],
  ["tagged-table.pdf", "f-tagged-table.pdf"],
  ["bad/notpdf.pdf", "g-notpdf.pdf"],
];

export async function copyInputs(folder: string, inputs = INPUTS): Promise<void> {
  await mkdir(folder, { recursive: true });
  for (const [from, name] of inputs) await copyFile(join("fixtures", from), join(folder, name));
}

/**
 * The reference a distributed run is compared with: a local run of the same pipeline under
 * `tmp/local` (its gate open), which exits 3 for the file that is not a PDF.
 */
export async function localReference(tmp: string): Promise<ReturnType<typeof outputs>> {
  const open = join(tmp, "open-gate");
  await mkdir(open, { recursive: true });
  await writeFile(join(open, "release"), "");
  await writePipeline(join(tmp, "local"), { gateDir: open });
  const run = await pagestream(["run", "--progress", "never", "--log-level", "warn"], { cwd: join(tmp, "local") }).exited;
  if (run.code !== 3) throw new Error(`the local reference run exited ${run.code}: ${run.stderr}`);
  return outputs(join(tmp, "local"));
}

/** A pipeline over `../in` (or `input`) with the gate before the cleaning stages; `queue` is YAML for the queue: key. */
export async function writePipeline(dir: string, options: { gateDir: string; hold?: string; queue?: string; top?: string; chunkTokens?: number; input?: string }): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, "pipeline.yaml");
  await writeFile(
    file,
    (options.top ?? "") +
      (options.queue ? `queue: ${options.queue}\n` : "") +
      `source: { type: ${RECORDING_SOURCE}, path: ${options.input ?? "../in"}, read_log: ${join(dir, "reads.log")} }\n` +
      `stages: [{ type: extract }, { type: ${GATE_STAGE}, hold: "${options.hold ?? "held"}", dir: ${options.gateDir} }, { type: flag-scans }, { type: strip-furniture }, { type: dehyphenate }, { type: chunk, max_tokens: ${options.chunkTokens ?? 128}, overlap_tokens: 16 }]\n` +
      "sinks:\n  - { type: jsonl, path: out/chunks.jsonl }\n  - { type: sqlite, path: out/archive.sqlite }\n",
  );
  return file;
}

export interface Started {
  child: ChildProcess;
  output(): { stdout: string; stderr: string };
  /** Resolves with the exit code (or the signal's name) and everything printed. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/** Every process `pagestream()` started, so a test that fails midway leaves none running (`stopAll`). */
const running = new Set<ChildProcess>();

/** `pagestream …` as its own process. */
export function pagestream(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Started {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  child.once("exit", () => running.delete(child));
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (t: string) => (stdout += t));
  child.stderr!.setEncoding("utf8").on("data", (t: string) => (stderr += t));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, output: () => ({ stdout, stderr }), exited };
}

/** The gate's marks: which documents were started, in which process (`pid`), under which worker or run (`ppid`). */
export function gateMarks(gateDir: string): { name: string; pid: number; ppid: number }[] {
  if (!existsSync(gateDir)) return [];
  return readdirSync(gateDir)
    .filter((f) => f.startsWith("started-"))
    .map((f) => {
      const [, name, pid, ppid] = readFileSync(join(gateDir, f), "utf8").trim().split(" ");
      return { name: name!, pid: Number(pid), ppid: Number(ppid) };
    });
}

/** The documents read, as `purpose path` (the recording source writes `pid purpose path`). */
export function reads(dir: string): string[] {
  const file = join(dir, "reads.log");
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => l.split(" ").slice(1).join(" ")) : [];
}

/** What a run delivered, as two runs can be compared. */
export function outputs(dir: string) {
  const out = join(dir, "out");
  const db = new Database(join(out, "archive.sqlite"), { readonly: true });
  try {
    const uriOf = new Map((db.prepare("SELECT id, uri FROM documents").all() as { id: number; uri: string }[]).map((d) => [d.id, d.uri]));
    const key = (r: Record<string, unknown>) => JSON.stringify(r);
    const documents = (db.prepare("SELECT * FROM documents ORDER BY uri").all() as Record<string, unknown>[]).map(({ id: _id, ingested_at: _at, ...d }) => key(d));
    const pages = (db.prepare("SELECT * FROM pages").all() as Record<string, unknown>[]).map(({ document_row, ...p }) => key({ uri: uriOf.get(document_row as number), ...p }));
    const chunks = (db.prepare("SELECT * FROM chunks").all() as Record<string, unknown>[]).map(({ seq: _seq, document_row, ...c }) => key({ uri: uriOf.get(document_row as number), ...c }));
    return {
      chunksJsonl: readFileSync(join(out, "chunks.jsonl"), "utf8"),
      documentsJsonl: readFileSync(join(out, "chunks.documents.jsonl"), "utf8"),
      archive: { documents, pages: pages.sort(), chunks: chunks.sort() },
    };
  } finally {
    db.close();
  }
}

/** Kills (SIGKILL) whatever `pagestream()` started that is still running: for afterAll. */
export async function stopAll(): Promise<void> {
  const exits = [...running].map((child) => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.once("exit", resolve))));
  for (const child of running) child.kill("SIGKILL");
  await Promise.all(exits);
}
