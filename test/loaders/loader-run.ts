/**
 * What the loader tests share: PDFs made at test time (pdfkit, Helvetica), a folder run through
 * the real CLI (dist/), and its exports. A document without a title or headings makes the
 * metadata keys that come and go; one with both brings them in.
 */
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import PDFDocument from "pdfkit";

export const CLI = resolve("dist/cli.js");

export interface NoteSpec {
  /** The document's Info title; none when left out. */
  title?: string;
  /** A heading drawn large and bold above the paragraphs; none when left out. */
  heading?: string;
  paragraphs: string[];
}

/** A PDF of `paragraphs` in 11-point Helvetica, on as many pages as they take. */
export function notePdf(spec: NoteSpec): Promise<Buffer> {
  const doc = new PDFDocument({ size: "LETTER", margin: 72, compress: false, info: { ...(spec.title ? { Title: spec.title } : {}), CreationDate: new Date(0), ModDate: new Date(0) } });
  const parts: Buffer[] = [];
  doc.on("data", (c: Buffer) => parts.push(Buffer.from(c)));
  const done = new Promise<Buffer>((ok, fail) => {
    doc.on("end", () => ok(Buffer.concat(parts)));
    doc.on("error", fail);
  });
  if (spec.heading) doc.font("Helvetica-Bold").fontSize(18).text(spec.heading).moveDown();
  doc.font("Helvetica").fontSize(11);
  for (const p of spec.paragraphs) doc.text(p, { lineGap: 3 }).moveDown();
  doc.end();
  return done;
}

const SENTENCES = [
  "The east berth closes on the third of May for repairs to the quay wall and its fenders.",
  "Vessels over ninety metres are directed to the west berth while the work lasts.",
  "Pilots board at the outer buoy two hours before high water, weather permitting.",
  "Cargo handlers report to the harbour office before the first shift of each week.",
  "The dredging of the inner channel resumes once the survey vessel has finished its soundings.",
  "Fuel is supplied from the north jetty between six in the morning and eight at night.",
];

/** `count` paragraphs of harbour notices, each a few sentences, different for every `seed`. */
export function paragraphs(count: number, seed = 0): string[] {
  return Array.from({ length: count }, (_, i) => {
    const n = 3 + ((i + seed) % 3);
    return Array.from({ length: n }, (_, j) => SENTENCES[(i * 2 + j + seed) % SENTENCES.length]!).join(" ") + ` Notice ${seed}.${i}.`;
  });
}

/** A new folder with `in/` and a pipeline.yaml whose stages chunk at `maxTokens`, and the given sink lines. */
export async function pipelineFolder(sinks: string[], maxTokens = 128): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "pagestream-loaders-"));
  await mkdir(join(dir, "in"));
  await writeFile(
    join(dir, "pipeline.yaml"),
    `source: { type: folder, path: in, stable_seconds: 0 }
stages: [{ type: extract }, { type: strip-furniture }, { type: dehyphenate }, { type: chunk, max_tokens: ${maxTokens}, overlap_tokens: 16, min_tokens: 16 }]
sinks:
${sinks.map((s) => `  - ${s}`).join("\n")}
`,
  );
  return dir;
}

export function pagestream(dir: string, args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: "utf8", maxBuffer: 64 << 20 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `pagestream run`, which must succeed without a word. */
export function run(dir: string): void {
  const r = pagestream(dir, ["run", "pipeline.yaml", "--progress", "never", "--log-level", "warn"]);
  if (r.code !== 0 || r.stderr !== "") throw new Error(`pagestream run exited ${r.code}: ${r.stderr}`);
}

/** `pagestream export ARGS`, which must succeed without a word; its lines parsed. */
export function exported(dir: string, args: string[]): Record<string, any>[] {
  const r = pagestream(dir, ["export", ...args]);
  if (r.code !== 0 || r.stderr !== "") throw new Error(`pagestream export ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  return jsonLines(r.stdout);
}

export const jsonLines = (text: string): Record<string, any>[] => (text === "" ? [] : text.trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, any>));
export const fileLines = async (path: string) => jsonLines(await readFile(path, "utf8"));
