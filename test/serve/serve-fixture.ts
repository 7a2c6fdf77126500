/**
 * What the serve tests stand on: a folder with the default pipeline over a copy of the sample
 * PDFs (and the PDFs a test adds), run once into an archive, and `pagestream serve` started on
 * it on a free loopback port, as a user starts it.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import PDFDocument from "pdfkit";

export const CLI = resolve("dist/cli.js");

/** A folder holding pipeline.yaml, fixtures/samples/ (copies) and extra PDFs beside them, and its archive. */
export async function archiveFolder(extra: Record<string, Buffer> = {}): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "pagestream-serve-"));
  const samples = join(dir, "fixtures/samples");
  await mkdir(samples, { recursive: true });
  await copyFile("pipeline.yaml", join(dir, "pipeline.yaml"));
  for (const name of await readdir("fixtures/samples")) await copyFile(join("fixtures/samples", name), join(samples, name));
  for (const [name, bytes] of Object.entries(extra)) {
    await mkdir(dirname(join(samples, name)), { recursive: true });
    await writeFile(join(samples, name), bytes);
  }
  const run = spawnSync(process.execPath, [CLI, "run", "--progress", "never"], { cwd: dir, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`the pipeline run failed (${run.status}): ${run.stderr}`);
  return dir;
}

export interface Served {
  /** The address it printed, with its token (`?token=…`). */
  url: string;
  /** The token in that address. */
  token: string;
  /** The server's process id, for its memory in /proc. */
  pid: number;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  stop(): Promise<number | null>;
}

/** Starts `pagestream serve --port 0 …` in `cwd` and waits for the address it prints. */
export async function serve(cwd: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Served> {
  const child: ChildProcess = spawn(process.execPath, [CLI, "serve", "--port", "0", ...args], { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (t: string) => (stderr += t));
  const url = await new Promise<string>((done, fail) => {
    child.once("exit", (code) => fail(new Error(`pagestream serve exited (${code}) before listening: ${stderr}`)));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const found = /at (http:\/\/\S+)$/.exec(line);
      if (found) done(found[1]!);
    });
  });
  return {
    url,
    token: new URL(url).searchParams.get("token") ?? "",
    pid: child.pid!,
    stderr: () => stderr,
    // SIGTERM, as a user stops it; a server still running 20 s later is killed, and its exit
    // code (null) says so.
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
      const code = await exited;
      clearTimeout(timer);
      if (code !== 0) process.stderr.write(`pagestream serve exited ${code} on SIGTERM; its stderr:\n${stderr}\n`);
      return code;
    },
  };
}

/** A one-page PDF whose text is `lines`, in Helvetica (made by pdfkit, as the fixtures are). */
export function textPdf(title: string, lines: string[]): Promise<Buffer> {
  const doc = new PDFDocument({ size: "LETTER", margin: 72, compress: false, info: { Title: title, CreationDate: new Date(0), ModDate: new Date(0) } });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(Buffer.from(c)));
  const done = new Promise<Buffer>((ok, fail) => {
    doc.on("end", () => ok(Buffer.concat(chunks)));
    doc.on("error", fail);
  });
  doc.font("Helvetica").fontSize(12);
  for (const line of lines) doc.text(line, { lineGap: 6 });
  doc.end();
  return done;
}

/** Twelve short keeper's notes in notes/, each mentioning the lighthouse once: more hits than a page of them. */
export async function lighthouseNotes(): Promise<Record<string, Buffer>> {
  const notes: Record<string, Buffer> = {};
  for (let n = 1; n <= 12; n++) {
    const day = String(n).padStart(2, "0");
    notes[`notes/keeper-${day}.pdf`] = await textPdf(`Keeper's note ${day}`, [`Keeper's note for day ${day}.`, `The lighthouse lamp was lit at ${n + 5} o'clock and the fog signal tested ${n} times.`]);
  }
  return notes;
}

/** The text of a PDF that tries to run script wherever it is shown as markup. */
export const HOSTILE_LINES = [
  "Hostile notice <script>window.__pwned = 'script'</script> ends here.",
  `Second line <img src=x onerror="window.__pwned = 'img'"> and "quotes" & ampersands.`,
  "Third line </pre><iframe srcdoc=x></iframe> javascript:alert(1)",
];
