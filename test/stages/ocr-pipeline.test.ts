/**
 * OCR as a user meets it: `pagestream validate`, `run`, `extract --ocr` and `search` through the
 * CLI, with the real Tesseract; on a machine without Tesseract or a language pack (a PATH
 * without it, a language that is not installed); and a worker killed in the middle of a page.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { markedProcesses, markerEnv, newMarker } from "../helpers/marked-processes.js";
import { ocrFixture, pathWith } from "../helpers/ocr.js";

vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

const CLI = resolve("dist/cli.js");
const SCAN = ocrFixture("ocr-scan-two-pages.pdf");
const MIXED = ocrFixture("ocr-mixed-typeset-and-scan.pdf");
const GERMAN = ocrFixture("ocr-scan-german.pdf");
const cleanup: string[] = [];
afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanup.push(dir);
  return dir;
}

function cli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: options.cwd ?? process.cwd(), encoding: "utf8", env: { ...process.env, FORCE_COLOR: "0", ...options.env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The default pipeline.yaml with `ocr` after flag-scans, reading `folder`, and `extra` top-level settings. */
function defaultPipelineWithOcr(folder: string, ocr: string[] = [], extra: string[] = []): string {
  const text = readFileSync("pipeline.yaml", "utf8");
  if (!text.includes("  - type: flag-scans\n") || !text.includes("path: fixtures/samples")) throw new Error("pipeline.yaml changed shape: update this test");
  return [...extra, text.replace("  - type: flag-scans\n", ["  - type: flag-scans", "  - type: ocr", ...ocr.map((o) => `    ${o}`), ""].join("\n")).replace("path: fixtures/samples", `path: ${folder}`)].join("\n");
}

function folderWith(files: string[]): string {
  const dir = tempDir("pagestream-ocr-docs-");
  for (const file of files) symlinkSync(resolve("fixtures", file), join(dir, file.split("/").pop()!));
  return dir;
}

describe("a machine without Tesseract or a language pack", () => {
  let noTesseract: string;
  let onlyTesseract: string;
  beforeAll(() => {
    noTesseract = tempDir("pagestream-empty-path-");
    onlyTesseract = pathWith(["tesseract"]);
    cleanup.push(onlyTesseract);
  });

  it("validate accepts the default pipeline with ocr when Tesseract is installed", () => {
    const dir = tempDir("pagestream-ocr-validate-");
    writeFileSync(join(dir, "pipeline.yaml"), defaultPipelineWithOcr(folderWith([SCAN.file])));
    const r = cli(["validate", "pipeline.yaml"], { cwd: dir });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("stages extract → flag-scans → ocr → strip-furniture → dehyphenate → chunk");
  });

  it("validate fails and a run refuses to start when tesseract is not on PATH, naming the Debian package; the run writes nothing", () => {
    const dir = tempDir("pagestream-ocr-missing-");
    writeFileSync(join(dir, "pipeline.yaml"), defaultPipelineWithOcr(folderWith([SCAN.file])));
    const env = { PATH: noTesseract };
    const validate = cli(["validate", "pipeline.yaml"], { cwd: dir, env });
    expect(validate.code).toBe(2);
    expect(validate.stderr).toBe(
      "pipeline.yaml: stages[2] (ocr): Tesseract is not installed (no `tesseract` on PATH): install the Debian package tesseract-ocr (`apt-get install -y tesseract-ocr`)\n",
    );
    const run = cli(["run", "pipeline.yaml"], { cwd: dir, env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("stages[2] (ocr): Tesseract is not installed");
    expect(run.stderr).toContain("apt-get install -y tesseract-ocr");
    expect(existsSync(join(dir, "out"))).toBe(false);
  });

  it("validate fails on a language pack that is not installed, naming its package and the installed ones", () => {
    const dir = tempDir("pagestream-ocr-lang-");
    writeFileSync(join(dir, "pipeline.yaml"), defaultPipelineWithOcr(folderWith([SCAN.file]), ["languages: [eng, kat_old]"]));
    const r = cli(["validate", "pipeline.yaml"], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^pipeline\.yaml: stages\[2\] \(ocr\): the Tesseract language pack for kat_old is not installed: install the Debian package tesseract-ocr-kat-old \(`apt-get install -y tesseract-ocr-kat-old`\); installed: .*\beng\b.*\n$/,
    );
  });

  it("extract --ocr fails at once without Tesseract, and with an unknown language, saying what to install", () => {
    const missing = cli(["extract", "--ocr", `fixtures/${SCAN.file}`], { env: { PATH: noTesseract } });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe("");
    expect(missing.stderr).toContain("pagestream: ocr: Tesseract is not installed");
    const language = cli(["extract", "--ocr-languages", "eng,kat_old", `fixtures/${SCAN.file}`]);
    expect(language.code).toBe(1);
    expect(language.stderr).toContain("install the Debian package tesseract-ocr-kat-old");
  });

  it("reads with pdf.js when pdftoppm is not installed (renderer auto), and says pdftoppm is missing when it is asked for", () => {
    const json = cli(["extract", "--ocr-languages", "deu", "--format", "json", `fixtures/${GERMAN.file}`], { env: { PATH: onlyTesseract } });
    expect(json.code, json.stderr).toBe(0);
    const page = JSON.parse(json.stdout).pages[0];
    expect(page.ocr.renderer).toBe("pdfjs");
    expect(page.text).toContain("Straßenbeleuchtung");

    const dir = tempDir("pagestream-ocr-renderer-");
    writeFileSync(join(dir, "pipeline.yaml"), defaultPipelineWithOcr(folderWith([SCAN.file]), ["renderer: pdftoppm"]));
    const r = cli(["validate", "pipeline.yaml"], { cwd: dir, env: { PATH: onlyTesseract } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("renderer pdftoppm is not installed (no `pdftoppm` on PATH): install the Debian package poppler-utils");
  });
});

describe("the default pipeline with ocr added", () => {
  let dir: string;
  let docs: string;
  beforeAll(() => {
    dir = tempDir("pagestream-ocr-run-");
    docs = folderWith([SCAN.file, MIXED.file, "samples/meeting-minutes.pdf"]);
    writeFileSync(join(dir, "pipeline.yaml"), defaultPipelineWithOcr(docs));
    const r = cli(["run", "pipeline.yaml", "--progress", "never"], { cwd: dir });
    if (r.code !== 0) throw new Error(`the pipeline failed (${r.code}): ${r.stderr}`);
  });

  const search = (args: string[]) => {
    const r = cli(["search", "--db", "out/archive.sqlite", ...args], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    return r.stdout;
  };
  const hits = (args: string[]) => JSON.parse(search([...args, "--json"])).hits as { uri: string; match_pages: number[]; ocr?: { pages: number[]; mean_confidence: number } }[];

  it("finds a word only a scan contains, and the hit says it was read by OCR", () => {
    const found = hits([SCAN.ocr.onlyInScan!]);
    expect(found).toHaveLength(1);
    expect(found[0]!.uri.endsWith(SCAN.file)).toBe(true);
    expect(found[0]!.match_pages).toEqual([2, 2]);
    expect(found[0]!.ocr!.pages).toEqual([2]);
    expect(found[0]!.ocr!.mean_confidence).toBeGreaterThan(80);
    expect(search([SCAN.ocr.onlyInScan!])).toMatch(/ocr-scan-two-pages\.pdf {2}p\. 2 \(printed 2\) {2}\[ocr, confidence \d+(\.\d)?\]/);
  });

  it("finds the scanned page of a typeset document, and says OCR only for that page", () => {
    const scanned = hits([MIXED.ocr.onlyInScan!]);
    expect(scanned.map((h) => [h.uri.endsWith(MIXED.file), h.match_pages, h.ocr?.pages])).toEqual([[true, [2, 2], [2]]]);
    // On page 3, in a chunk that also holds the OCR text of page 2: the match itself is typeset.
    const typeset = hits(["autumn", "--path", join(docs, MIXED.file)]);
    expect(typeset.map((h) => [h.match_pages, h.ocr])).toEqual([[[3, 3], undefined]]);
  });

  it("filters on OCR text with --source", () => {
    expect(hits([SCAN.ocr.onlyInScan!, "--source", "text"])).toEqual([]);
    expect(hits([SCAN.ocr.onlyInScan!, "--source", "ocr"])).toHaveLength(1);
    const inMixed = (args: string[]) => hits([...args, "--path", join(docs, MIXED.file)]);
    expect(inMixed(["autumn", "--source", "ocr"])).toEqual([]);
    expect(inMixed(["autumn", "--source", "text"]).map((h) => h.match_pages)).toEqual([[3, 3]]);
    expect(inMixed(["gangway", "--source", "ocr"]).map((h) => h.match_pages)).toEqual([[2, 2]]);
  });

  it("keeps the OCR facts on the archive's pages and the ocr flag on pages and chunks", () => {
    const db = new Database(join(dir, "out/archive.sqlite"), { readonly: true });
    try {
      const pages = db
        .prepare("SELECT d.uri, p.number, p.flags, p.ocr FROM pages p JOIN documents d ON d.id = p.document_row ORDER BY d.uri, p.number")
        .all() as { uri: string; number: number; flags: string; ocr: string | null }[];
      const of = (file: string) => pages.filter((p) => p.uri.endsWith(file));
      expect(of(SCAN.file).map((p) => JSON.parse(p.flags))).toEqual([["ocr", "scan"], ["ocr", "scan"]]);
      expect(of(MIXED.file).map((p) => p.ocr !== null)).toEqual([false, true, false]);
      expect(JSON.parse(of(MIXED.file)[1]!.ocr!)).toMatchObject({ engine: "tesseract", languages: ["eng"], dpi: 300 });
      expect(of("meeting-minutes.pdf").every((p) => p.ocr === null && !JSON.parse(p.flags).includes("ocr"))).toBe(true);
      const chunkFlags = db.prepare("SELECT c.flags FROM chunks c JOIN documents d ON d.id = c.document_row WHERE d.uri LIKE ?").all(`%${SCAN.file}`) as { flags: string }[];
      expect(chunkFlags.length).toBeGreaterThan(0);
      for (const c of chunkFlags) expect(JSON.parse(c.flags)).toContain("ocr");
    } finally {
      db.close();
    }
    const chunks = readFileSync(join(dir, "out/chunks.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
    const scanChunks = chunks.filter((c) => c.metadata?.source_uri?.endsWith(SCAN.file));
    expect(scanChunks.length).toBeGreaterThan(0);
    for (const c of scanChunks) expect(c.metadata.flags).toContain("ocr");
  });
});

describe("a worker killed while Tesseract reads a page", () => {
  it("takes the Tesseract child with it: no process left, no temporary file", async () => {
    const dir = tempDir("pagestream-ocr-kill-");
    const scratch = tempDir("pagestream-ocr-tmp-");
    const marker = newMarker();
    // A timeout that falls inside the document's OCR, on a fast machine as on a slow one: the
    // first page's Tesseract is started as the page is rendered (0.2–0.5 s into the run on a fast
    // machine), and at 900 dpi the two pages are read in 8 s there (at 600 dpi, in under 4 s:
    // a 4-second timeout no longer fell inside them), so a Tesseract left running would outlive
    // the run and be found.
    writeFileSync(join(dir, "pipeline.yaml"), defaultPipelineWithOcr(folderWith([SCAN.file]), ["dpi: 900"], ["timeout_seconds: 3"]).replace(/^timeout_seconds: 300.*\n/m, ""));
    const before = new Set(readdirSync("/tmp"));
    const child = spawn(process.execPath, [CLI, "run", "pipeline.yaml", "--progress", "never"], {
      cwd: dir,
      env: { ...process.env, TMPDIR: scratch, ...markerEnv(marker) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    let seen = 0;
    const watcher = setInterval(() => (seen = Math.max(seen, markedProcesses("tesseract", marker).length)), 50);
    const code = await new Promise<number | null>((done) => child.on("close", done));
    clearInterval(watcher);
    expect(seen, "Tesseract was never seen running: the timeout did not fall inside OCR").toBeGreaterThan(0);
    expect(code, stderr).toBe(3);
    expect(stderr).toContain("timeout");
    expect(markedProcesses("tesseract", marker)).toEqual([]);
    // Node 22+ keeps the code it compiled in the temp folder (src/compile-cache.ts): a cache, not a leftover.
    expect(readdirSync(scratch).filter((f) => f !== "node-compile-cache")).toEqual([]);
    const created = readdirSync("/tmp").filter((f) => !before.has(f) && /^(tess|lept|pdftoppm)/i.test(f));
    expect(created).toEqual([]);
  });
});
