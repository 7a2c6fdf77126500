/** The CLI as a user runs it: the compiled dist/cli.js in a child process (`npm test` builds first). */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { flateBombPdf } from "../fixtures/hostile.mjs";
import { tracedCli } from "./helpers/loaded-modules.js";
import { startRedis } from "./helpers/redis-server.js";
import { S3RVER_ENV, startS3Server } from "./helpers/s3-server.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const CLI = resolve("dist/cli.js");
let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "pagestream-cli-"));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

function cli(args: string[], options: { cwd?: string; nodeArgs?: string[]; env?: NodeJS.ProcessEnv } = {}) {
  const r = spawnSync(process.execPath, [...(options.nodeArgs ?? []), CLI, ...args], { cwd: options.cwd ?? process.cwd(), encoding: "utf8", env: options.env });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("pagestream --help", () => {
  it("lists the commands without loading pdf.js, zod, yaml or rxjs", () => {
    const r = tracedCli(["--help"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/run \[options\] \[pipeline\][\s\S]*extract \[options\] <pdf\.\.\.>[\s\S]*validate \[options\] \[pipeline\][\s\S]*export \[options\] \[pipeline\]/);
    expect(r.sources.some((s) => s.endsWith("src/cli.ts"))).toBe(true);
    expect(r.sources.filter((s) => /node_modules\/(pdfjs-dist|zod|yaml|rxjs)\//.test(s))).toEqual([]);
  });

  it("runs as the package's bin, through its #! line (how `npx pagestream` starts it in a checkout)", () => {
    const r = spawnSync(CLI, ["--version"], { encoding: "utf8" });
    expect([r.error?.message, r.status, r.stdout.trim()]).toEqual([undefined, 0, JSON.parse(readFileSync("package.json", "utf8")).version]);
  });
});

describe("pagestream extract", () => {
  it("prints the text of a PDF on stdout, paragraphs separated by one blank line", () => {
    const r = cli(["extract", "fixtures/two-pages.pdf"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Page one holds the opening paragraph[^\n]*\n\nPage two holds the closing paragraph[^\n]*\n$/);
    expect(r.stderr).toBe("");
  });

  it("labels every page with --markers, empty pages too", () => {
    const r = cli(["extract", "fixtures/empty-middle-page.pdf", "--markers"]);
    expect(r.stdout).toMatch(/^--- Page 1 ---\n.+\n--- Page 2 ---\n--- Page 3 ---\n.+\n$/);
  });

  it("keeps line breaks with --mode preserve and selects pages with --pages", () => {
    const r = cli(["extract", "fixtures/two-pages.pdf", "--mode", "preserve", "--pages", "2"]);
    expect(r.stdout).toBe("Page two holds the closing paragraph. There is no third page in this document, and nothing else\nfollows.\n");
  });

  it("says how many pages there are when none of the requested pages exist, and exits 3", () => {
    const r = cli(["extract", "fixtures/two-pages.pdf", "--pages", "5-6"]);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("pagestream: fixtures/two-pages.pdf: no_pages: None of the requested pages exist in this document: it has 2 page(s).\n");
  });

  it("prints the document and page records with --format json", () => {
    const r = cli(["extract", "fixtures/two-pages.pdf", "--format", "json"]);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(["document", "pages", "tables", "warnings"]);
    expect(out.document).toMatchObject({ page_count: 2, tagged: false, title: expect.any(String) });
    // A document whose catalog marks it tagged says so.
    expect(JSON.parse(cli(["extract", "fixtures/tagged-table.pdf", "--format", "json"]).stdout).document.tagged).toBe(true);
    expect(out.document.document_id).toMatch(/^[0-9a-f]{64}$/);
    expect(out.pages.map((p: { number: number }) => p.number)).toEqual([1, 2]);
    expect(Object.keys(out.pages[0]).slice(0, 2)).toEqual(["number", "text"]);
    expect(out.pages[0]).toMatchObject({ empty: false, order_source: "geometry", mode: "reflow" });
    expect(out.pages[0].lines[0].runs[0]).toMatchObject({ text: expect.any(String), x: expect.any(Number), font_size: expect.any(Number) });
  });

  it("prints Markdown with --format markdown: headings at their levels, list items, code fenced, tables as pipe tables", () => {
    const r = cli(["extract", "fixtures/structure-report.pdf", "--format", "markdown"]);
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(r.stdout).toMatch(/^# Harbour Operations Review\n\nAda Okafor and Jan van Dijk\n\n## 1 Overview\n/);
    expect(r.stdout).toContain("\n### 1.1 Scope\n");
    expect(r.stdout).toContain("- • Moor bow to the east.\n  - – with two lines fore and aft,\n");
    expect(r.stdout).toContain("```\nberth = find_berth(vessel)\nif berth is None:\n    queue.append(vessel)\n");
    expect(r.stdout).toContain("| Quay | Landings | Share |\n| --- | --- | --- |\n| North | 1,240 | 41% |");
  });

  it("prints every table as CSV with --format csv, writes one file per table with --tables, and gives the cells in --format json", async () => {
    const csv = cli(["extract", "fixtures/table-ruled-tight-cells.pdf", "--format", "csv"]);
    expect([csv.code, csv.stderr]).toEqual([0, ""]);
    expect(csv.stdout).toBe(
      [
        "Pollutant,Release to air,Release to water,Release to land",
        "Carbon dioxide (CO2),100 million,-,-",
        "Hydrochlorofluorocarbons (HCFCs),1,-,-",
        "Polychlorinated biphenyls (PCBs),0.1,0.1,0.1",
        "Copper and compounds (as Cu),100,50,50",
        "",
      ].join("\n"),
    );
    const dir = join(tmp, "tables");
    const written = cli(["extract", "fixtures/table-empty-and-wrapped-cell.pdf", "--tables", dir]);
    expect(written.code).toBe(0);
    expect(written.stderr).toBe(`pagestream: table-empty-and-wrapped-cell.pdf: 1 table written to ${dir}\n`);
    expect(await readFile(join(dir, "table-empty-and-wrapped-cell-p1-t1.csv"), "utf8")).toContain('\n"Fender, cylindrical",,12,86.00\n');
    const json = JSON.parse(cli(["extract", "fixtures/table-ruled-tight-cells.pdf", "--format", "json"]).stdout);
    expect(json.tables).toHaveLength(1);
    expect(json.tables[0]).toMatchObject({ page: 1, index: 1, rows: 5, columns: 4 });
    expect(json.tables[0].cells.slice(4, 6)).toMatchObject([
      { row: 1, col: 0, row_span: 1, col_span: 1, text: "Carbon dioxide (CO2)" },
      { row: 1, col: 1, row_span: 1, col_span: 1, text: "100 million" },
    ]);
    // The first body row's baseline stands at 118 pt from the top (row top 107 + 11), its 9 pt
    // words from 0.8 em over it to 0.2 em under it; the pollutant starts 1.5 pt inside the rule at x 40.
    const box = json.tables[0].cells[4].box;
    expect(box).toMatchObject({ page: 1, x0: 41.5, y0: 110.8, y1: 119.8 });
    expect(box.x1).toBeGreaterThan(120);
    expect(json.tables[0].cells[5].box.x0).toBeGreaterThan(box.x1);
    // A region's label over its rows: the cell spans them, its text on its first row, the cells it covers empty.
    const spanned = JSON.parse(cli(["extract", "fixtures/table-grid-labels-over-rows.pdf", "--format", "json"]).stdout);
    const labels = spanned.tables[0].cells.filter((c: { col: number }) => c.col === 0);
    expect(labels.map((c: { row: number; row_span: number; text: string }) => [c.row, c.row_span, c.text])).toEqual([
      [0, 1, "Region"],
      [1, 2, "North"],
      [2, 1, ""],
      [3, 2, "South-east coast"],
      [4, 1, ""],
      [5, 3, "West"],
      [6, 1, ""],
      [7, 1, ""],
    ]);
  });

  it("marks pages in Markdown with an HTML comment a renderer does not show", () => {
    const r = cli(["extract", "fixtures/empty-middle-page.pdf", "--format", "markdown", "--markers"]);
    expect(r.stdout).toMatch(/^<!-- page 1 -->\n\n.+\n\n<!-- page 2 -->\n\n<!-- page 3 -->\n\n.+\n\n$/);
  });

  it("gives each paragraph its role in --format json (H1–H6, LI with its depth, Code, Table, Caption), and each bold run its weight", () => {
    const out = JSON.parse(cli(["extract", "fixtures/structure-report.pdf", "--format", "json"]).stdout);
    const roles = out.pages.flatMap((p: { paragraphs: { role?: string; depth?: number }[] }) => p.paragraphs.map((q) => (q.depth ? `${q.role}${q.depth}` : (q.role ?? "P"))));
    expect(roles).toEqual(["H1", "P", "H2", "P", "H3", "P", "H4", "P", "P", "LI1", "LI2", "LI2", "LI1", "LI1", "P", "H2", "P", "LI1", "LI1", "LI1", "P", "Code", "Caption", "Table"]);
    expect(out.pages[0].lines[0].runs[0]).toMatchObject({ text: "Harbour Operations Review", bold: true });
  });

  it("names the file and the problem for a file that is not a PDF, and exits 3", async () => {
    await writeFile(join(tmp, "notes.pdf"), "just some text\n");
    const r = cli(["extract", join(tmp, "notes.pdf")]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`${join(tmp, "notes.pdf")}: not_pdf: `);
  });

  it("reads in a worker under the run's limits: a flate bomb is stopped at the memory cap, too many pages are refused", async () => {
    await writeFile(join(tmp, "bomb.pdf"), flateBombPdf());
    const bomb = cli(["extract", join(tmp, "bomb.pdf"), "--max-worker-memory-mb", "300"]);
    expect([bomb.code, bomb.stdout]).toEqual([3, ""]);
    expect(bomb.stderr).toContain(`${join(tmp, "bomb.pdf")}: resource_limit: extraction used more than max_worker_memory_mb (300 MiB`);
    const pages = cli(["extract", "fixtures/two-pages.pdf", "--max-pages", "1"]);
    expect(pages.code).toBe(3);
    expect(pages.stderr).toContain("too_large: the document has 2 pages to read, more than max_pages (1)");
    expect(cli(["extract", "fixtures/two-pages.pdf", "--max-pages", "0"]).code).toBe(2);
  });

  it("names --password for an encrypted file, and opens it with one", () => {
    const locked = cli(["extract", "fixtures/bad/encrypted-userpw.pdf"]);
    expect(locked.code).toBe(3);
    expect(locked.stderr).toContain("encrypted: the document is encrypted and needs a password");
    expect(locked.stderr).toContain("`--password` for pagestream extract");
    const opened = cli(["extract", "fixtures/bad/encrypted-userpw.pdf", "--password", "secret"]);
    expect(opened.code, opened.stderr).toBe(0);
    expect(opened.stdout).toContain("The committee reviewed the figures");
  });

  it("exits 2 for a missing file or a bad option", () => {
    expect(cli(["extract", "no-such.pdf"]).code).toBe(2);
    expect(cli(["extract", "fixtures/two-pages.pdf", "--mode", "sideways"]).code).toBe(2);
    const badRange = cli(["extract", "fixtures/two-pages.pdf", "--pages", "4-2"]);
    expect(badRange.code).toBe(2);
    expect(badRange.stderr).toContain('"4-2" ends before it starts');
  });

  it("prints the same text with the worker's code caches (pdf.js's, the worker's own) absent, saved, damaged, or in a folder that cannot be made", async () => {
    const folder = join(tmp, "code-cache");
    const run = (cache: string) => cli(["extract", "fixtures/two-pages.pdf"], { env: { ...process.env, NODE_COMPILE_CACHE: cache } });
    const first = run(folder);
    expect([first.code, first.stderr]).toEqual([0, ""]);
    // The worker saves it after sending its result, while the command ends (within a few tenths of a second; a loaded CI machine gets longer).
    // On Node 22+ the folder is Node's compile cache too, and the worker is handed Node's folder for this version, under it.
    let files: string[] = [];
    for (let waited = 0; files.length < 2 && waited < 20_000; waited += 50) {
      await new Promise((r) => setTimeout(r, 50));
      files = (await readdir(folder, { recursive: true }).catch(() => [])).filter((f) => f.endsWith(".v8cache"));
    }
    expect(files).toHaveLength(2);
    expect(run(folder)).toEqual(first);
    for (const file of files) {
      const cached = await readFile(join(folder, file));
      cached[cached.length >> 1]! ^= 0xff;
      await writeFile(join(folder, file), cached);
    }
    expect(run(folder)).toEqual(first);
    await writeFile(join(tmp, "a-file"), "");
    expect(run(join(tmp, "a-file", "cache"))).toEqual(first);
  });
});

describe("pagestream validate", () => {
  it("accepts the default pipeline.yaml", () => {
    const r = cli(["validate"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^pipeline\.yaml: ok/);
    // The default RAG pipeline writes chunks without saying so, and validate tells.
    expect(r.stdout).toContain("sinks[0] (jsonl): records: chunks (the pipeline has a chunk stage; records: pages writes page records instead)");
  });

  it("prints every problem with file:line:col and exits 2", async () => {
    const file = join(tmp, "broken.yaml");
    await writeFile(file, "source:\n  type: folder\nstages:\n  - type: extract\n    mode: sideways\nsinks: [{ type: jsonl, colour: red }]\n");
    const r = cli(["validate", file]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toEqual([
      `${file}:2:3 source.path: is required (string)`,
      `${file}:5:11 stages[0].mode: expected one of "reflow", "preserve", got "sideways"`,
      `${file}:6:24 sinks[0].colour: unknown option "colour"`,
    ]);
  });
});

describe("pagestream validate --env", () => {
  it("checks what the pipeline will use — the source folder, the sinks' files, the run folder — all at once, changing nothing", async () => {
    const dir = await mkdtemp(join(tmp, "env-"));
    await mkdir(join(dir, "archive.sqlite"));
    await writeFile(join(dir, "out"), "a file where the output folder should be\n");
    await writeFile(
      join(dir, "p.yaml"),
      "run_folder: state\nsource: { type: folder, path: inbox }\nstages: [{ type: extract }]\nsinks:\n  - { type: jsonl, path: out/pages.jsonl }\n  - { type: sqlite, path: archive.sqlite }\n",
    );
    // The pure checks pass: the file is well formed.
    expect(cli(["validate", "p.yaml"], { cwd: dir }).code).toBe(0);
    const r = cli(["validate", "p.yaml", "--env"], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n")).toEqual([
      `p.yaml: source (folder): source folder inbox cannot be read: it does not exist (${join(dir, "inbox")})`,
      `p.yaml: sinks[0] (jsonl): cannot create out/pages.jsonl: ${join(dir, "out")} is a file, not a folder (ENOTDIR)`,
      "p.yaml: sinks[1] (sqlite): cannot write archive.sqlite: it is a folder, not a file (EISDIR)",
    ]);
    await mkdir(join(dir, "inbox"));
    await rm(join(dir, "out"));
    await rm(join(dir, "archive.sqlite"), { recursive: true });
    const ok = cli(["validate", "p.yaml", "--env"], { cwd: dir });
    expect([ok.code, ok.stderr]).toEqual([0, ""]);
    expect(ok.stdout.trim().split("\n").slice(1)).toEqual([
      "  sinks[0] (jsonl): records: pages (there is no chunk stage)",
      "  source (folder): folder inbox can be read",
      "  sinks[0] (jsonl): out/pages.jsonl can be written",
      "  sinks[1] (sqlite): archive.sqlite can be created",
      "  run_folder: state can be written",
    ]);
    // Nothing was made: no folder, no archive, no run state.
    expect((await readdir(dir)).sort()).toEqual(["inbox", "p.yaml"]);
  });

  it("lists the bucket as a run would, on a real S3 server: a bucket that is not there is named with its endpoint", async () => {
    const server = await startS3Server(["scans"]);
    try {
      const dir = await mkdtemp(join(tmp, "env-s3-"));
      const yaml = (bucket: string) => `source: { type: s3, bucket: ${bucket}, endpoint: "${server.endpoint}", max_attempts: 1 }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl }]\n`;
      await writeFile(join(dir, "good.yaml"), yaml("scans"));
      await writeFile(join(dir, "bad.yaml"), yaml("scams"));
      const env = { ...process.env, ...S3RVER_ENV, AWS_REGION: "us-east-1" };
      const good = spawnSync(process.execPath, [CLI, "validate", "good.yaml", "--env"], { cwd: dir, encoding: "utf8", env });
      expect([good.status, good.stderr]).toEqual([0, ""]);
      expect(good.stdout).toContain(`  source (s3): s3://scans/ can be listed at ${server.endpoint} (it holds no objects)`);
      const bad = spawnSync(process.execPath, [CLI, "validate", "bad.yaml", "--env"], { cwd: dir, encoding: "utf8", env });
      expect(bad.status).toBe(2);
      expect(bad.stderr).toContain(`bad.yaml: source (s3): bucket "scams" does not exist at ${server.endpoint}`);
    } finally {
      await server.stop();
    }
  });

  it("asks the queue's Redis, when the file names one, for an answer: a real redis-server, then the same port with nothing on it; the password is never shown", async () => {
    const redis = await startRedis({ password: "s3cret-pw" });
    const dir = await mkdtemp(join(tmp, "env-queue-"));
    await mkdir(join(dir, "inbox"));
    await writeFile(join(dir, "p.yaml"), `queue: ${redis.url}\nsource: { type: folder, path: inbox }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl }]\n`);
    try {
      const up = cli(["validate", "p.yaml", "--env"], { cwd: dir });
      expect([up.code, up.stderr]).toEqual([0, ""]);
      expect(up.stdout).toContain(`  queue: Redis at redis://:***@127.0.0.1:${redis.port} answers`);
      expect(up.stdout).not.toContain("s3cret-pw");
    } finally {
      await redis.stop();
    }
    const down = cli(["validate", "p.yaml", "--env"], { cwd: dir });
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(new RegExp(`^p\\.yaml: queue \\(redis\\): cannot reach the queue's Redis at redis://:\\*\\*\\*@127\\.0\\.0\\.1:${redis.port}: .*ECONNREFUSED`));
    expect(down.stderr).not.toContain("s3cret-pw");
  });
});

describe("pagestream run", () => {
  it("runs the default pipeline.yaml on the sample PDFs into chunks (out/chunks.jsonl, out/chunks.documents.jsonl) and out/archive.sqlite", async () => {
    const dir = await mkdtemp(join(tmp, "default-"));
    await copyFile("pipeline.yaml", join(dir, "pipeline.yaml"));
    await symlink(resolve("fixtures"), join(dir, "fixtures"));
    const r = cli(["run"], { cwd: dir });
    expect(r.stderr).toMatch(/3 document\(s\) ingested \(9 pages\), 0 failed/);
    expect(r.code).toBe(0);
    const documents = (await readFile(join(dir, "out/chunks.documents.jsonl"), "utf8")).trim().split("\n").map((l) => JSON.parse(l));
    expect(documents.map((d) => `${d.uri.split("/").pop()}:${d.status}:${d.pages.join(",")}`)).toEqual([
      "meeting-minutes.pdf:ok:1,2",
      "quarterly-report.pdf:ok:1,2,3,4",
      "service-agreement.pdf:ok:1,2,3",
    ]);
    const chunks = (await readFile(join(dir, "out/chunks.jsonl"), "utf8")).trim().split("\n").map((l) => JSON.parse(l));
    expect(chunks.length).toBe(documents.reduce((n, d) => n + d.chunk_count, 0));
    for (const c of chunks) expect(c.metadata.token_count).toBeLessThanOrEqual(512);
    // Every page of every document is in some chunk's page range.
    const covered = new Set(chunks.flatMap((c) => Array.from({ length: c.metadata.page_end - c.metadata.page_start + 1 }, (_, i) => `${c.metadata.source_uri.split("/").pop()}:${c.metadata.page_start + i}`)));
    expect(covered).toEqual(new Set(documents.flatMap((d) => d.pages.map((p: number) => `${d.uri.split("/").pop()}:${p}`))));
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(join(dir, "out/archive.sqlite"), { readonly: true });
    expect(db.prepare("SELECT count(*) AS documents, sum(pages) AS pages, sum(chunk_count) AS chunks FROM documents").get()).toEqual({ documents: 3, pages: 9, chunks: chunks.length });
    expect((db.prepare("SELECT id FROM chunks ORDER BY seq").all() as { id: string }[]).map((c) => c.id)).toEqual(chunks.map((c) => c.id));
    db.close();
  });

  it("finishes with exit 3 and an error record when a document fails", async () => {
    const dir = await mkdtemp(join(tmp, "mixed-"));
    await mkdir(join(dir, "in"));
    await copyFile("fixtures/two-pages.pdf", join(dir, "in/good.pdf"));
    await writeFile(join(dir, "in/broken.pdf"), "%PDF-1.7\ngarbage");
    await writeFile(join(dir, "p.yaml"), "source: { type: folder, path: in }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl, path: out.jsonl }]\n");
    const r = cli(["run", "p.yaml"], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`${join(dir, "in/broken.pdf")}: damaged: `);
    const records = (await readFile(join(dir, "out.jsonl"), "utf8")).trim().split("\n").map((l) => JSON.parse(l));
    expect(records.map((r) => r.type)).toEqual(["error", "page", "page"]);
  });

  it("exits 2 without running when the pipeline is invalid", async () => {
    const file = join(tmp, "invalid.yaml");
    await writeFile(file, "source: { type: folder }\n");
    expect(cli(["run", file]).code).toBe(2);
  });
});
