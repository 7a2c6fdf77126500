// `pagestream extract` over several PDFs and folders in one call: separators on stdout, JSONL,
// --out-dir naming, and bad files among good ones. Needs dist/ (`npm run build`), as cli.test.ts.
import { spawnSync } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flateBombPdf } from "../fixtures/hostile.mjs";
import { outputStems } from "../src/cli/output-stems.js";

const CLI = resolve("dist/cli.js");
const TWO_PAGES = "fixtures/two-pages.pdf";
const MINUTES = "fixtures/samples/meeting-minutes.pdf";
const REPORT = "fixtures/samples/quarterly-report.pdf";

let tmp: string;
/** What `extract` prints for each fixture alone: a batch must give each file exactly this. */
const alone = new Map<string, string>();
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "pagestream-extract-many-"));
  for (const file of [TWO_PAGES, MINUTES, REPORT]) alone.set(file, cli(["extract", file]).stdout);
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A folder holding `files` (relative path → fixture to copy, or text for a file that is not a PDF). */
async function folderWith(name: string, files: Record<string, string>): Promise<string> {
  const dir = join(tmp, name);
  for (const [rel, from] of Object.entries(files)) {
    await mkdir(join(dir, rel, ".."), { recursive: true });
    if (from.endsWith(".pdf")) await copyFile(from, join(dir, rel));
    else await writeFile(join(dir, rel), from);
  }
  return dir;
}

describe("pagestream extract with several files", () => {
  it("prints each file's text after a `==> path <==` line, a blank line before every separator but the first", () => {
    const r = cli(["extract", TWO_PAGES, MINUTES]);
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(r.stdout).toBe(`==> ${TWO_PAGES} <==\n${alone.get(TWO_PAGES)}\n==> ${MINUTES} <==\n${alone.get(MINUTES)}`);
  });

  it("reads a folder as every .pdf under it, any case, subfolders included, in name order; other files are left alone", async () => {
    const dir = await folderWith("mixed", { "b.pdf": TWO_PAGES, "a.PDF": MINUTES, "sub/c.pdf": REPORT, "notes.txt": "not a pdf" });
    const r = cli(["extract", dir]);
    expect([r.code, r.stderr]).toEqual([0, ""]);
    expect(r.stdout).toBe(`==> ${join(dir, "a.PDF")} <==\n${alone.get(MINUTES)}\n==> ${join(dir, "b.pdf")} <==\n${alone.get(TWO_PAGES)}\n==> ${join(dir, "sub/c.pdf")} <==\n${alone.get(REPORT)}`);
  });

  it("separates even one file when the argument is a folder: the output's form follows the command line, not the folder's contents", async () => {
    const dir = await folderWith("single", { "only.pdf": TWO_PAGES });
    expect(cli(["extract", dir]).stdout).toBe(`==> ${join(dir, "only.pdf")} <==\n${alone.get(TWO_PAGES)}`);
  });

  it("prints one JSON object a line with --format json, naming its file; a failed file's line carries the error", async () => {
    const notPdf = join(tmp, "notes.pdf");
    await writeFile(notPdf, "just some text\n");
    const r = cli(["extract", TWO_PAGES, notPdf, "--format", "json"]);
    expect(r.code).toBe(3);
    const lines = r.stdout.trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines).toEqual([
      { file: TWO_PAGES, ...JSON.parse(cli(["extract", TWO_PAGES, "--format", "json"]).stdout) },
      { file: notPdf, error: { code: "not_pdf", message: expect.any(String) } },
    ]);
  });

  it("writes one whole file per input with --out-dir, subfolders mirrored, a same-named input given -2, and nothing on stdout", async () => {
    const dir = await folderWith("tree", { "two-pages.pdf": TWO_PAGES, "2026/minutes.pdf": MINUTES });
    const out = join(tmp, "out");
    const r = cli(["extract", TWO_PAGES, dir, "--out-dir", out]);
    expect([r.code, r.stdout]).toEqual([0, ""]);
    expect(r.stderr).toBe(`pagestream: 3 of 3 files written to ${out}\n`);
    expect((await readdir(out, { recursive: true })).sort()).toEqual(["2026", "2026/minutes.txt", "two-pages-2.txt", "two-pages.txt"]);
    expect(await readFile(join(out, "two-pages.txt"), "utf8")).toBe(alone.get(TWO_PAGES));
    expect(await readFile(join(out, "two-pages-2.txt"), "utf8")).toBe(alone.get(TWO_PAGES));
    expect(await readFile(join(out, "2026/minutes.txt"), "utf8")).toBe(alone.get(MINUTES));
  });

  it("names each bad file and its problem on stderr, writes the good ones, and exits 3", async () => {
    const notPdf = join(tmp, "bad", "letter.pdf");
    await mkdir(join(tmp, "bad"), { recursive: true });
    await writeFile(notPdf, "Dear sir,\n");
    const out = join(tmp, "out-bad");
    const r = cli(["extract", TWO_PAGES, notPdf, "no-such.pdf", "fixtures/bad/encrypted-userpw.pdf", MINUTES, "--out-dir", out]);
    expect(r.code).toBe(3);
    const lines = r.stderr.trimEnd().split("\n").map((l) => l.replace(/^pagestream: /, "").split(": ").slice(0, 2).join(": "));
    expect(lines).toEqual([`${notPdf}: not_pdf`, "no-such.pdf: not_found", "fixtures/bad/encrypted-userpw.pdf: encrypted", `2 of 5 files written to ${out}, 3 failed`]);
    expect((await readdir(out)).sort()).toEqual(["meeting-minutes.txt", "two-pages.txt"]);
  });

  it("goes on after a file that kills its worker (memory cap): the next file gets a new worker", async () => {
    const bomb = join(tmp, "bomb.pdf");
    await writeFile(bomb, flateBombPdf());
    const r = cli(["extract", bomb, TWO_PAGES, "--max-worker-memory-mb", "300"]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`${bomb}: resource_limit: extraction used more than max_worker_memory_mb (300 MiB`);
    expect(r.stdout).toBe(`==> ${TWO_PAGES} <==\n${alone.get(TWO_PAGES)}`);
  });

  it("keeps --tables per file, each input's tables under its own output name", async () => {
    const tables = join(tmp, "tables");
    const invoice = "fixtures/invoice-blocks-and-item-table.pdf";
    const dir = await folderWith("invoices", { "invoice-blocks-and-item-table.pdf": invoice });
    const r = cli(["extract", invoice, dir, "--tables", tables, "--out-dir", join(tmp, "out-tables")]);
    expect(r.code).toBe(0);
    const perTable = ["p1-t1", "p1-t2", "p1-t3"];
    expect((await readdir(tables)).sort()).toEqual([...perTable.map((t) => `invoice-blocks-and-item-table-2-${t}.csv`), ...perTable.map((t) => `invoice-blocks-and-item-table-${t}.csv`)]);
  });
});

describe("outputStems", () => {
  it("drops .pdf in any case, keeps subfolders, and gives a later input on a taken stem -2, -3, compared without case", () => {
    expect(outputStems(["a.pdf", "sub/a.PDF", "A.pdf", "a.pdf", "a-2.pdf", "notes.txt"])).toEqual(["a", "sub/a", "A-2", "a-3", "a-2-2", "notes.txt"]);
  });
});
