/**
 * `pagestream init <folder>` as a user runs it (the built dist/cli.js): the pipeline it writes
 * validates, runs and is searched where it was written, its schema reference names a file that
 * exists, and the folders and files it cannot use are refused with a sentence that says why.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const CLI = resolve("dist/cli.js");
let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "pagestream-init-"));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

function cli(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A folder of PDFs beside an empty folder to work in. */
async function papers(name: string): Promise<{ pdfs: string; work: string }> {
  const pdfs = join(tmp, name, "papers");
  const work = join(tmp, name, "search");
  await mkdir(join(pdfs, "2026"), { recursive: true });
  await mkdir(work);
  await copyFile("fixtures/two-pages.pdf", join(pdfs, "2026", "memo.PDF"));
  return { pdfs, work };
}

describe("pagestream init", () => {
  it("writes a pipeline.yaml for a folder that validates, runs and is searched from where it was written", async () => {
    const { pdfs, work } = await papers("ok");
    const init = cli(["init", "../papers"], work);
    expect([init.code, init.stderr]).toEqual([0, ""]);
    expect(init.stdout).toBe(`wrote pipeline.yaml: the PDFs under ${pdfs} → out/chunks.jsonl and out/archive.sqlite\nnext: pagestream run, then pagestream search "some words" (or pagestream serve)\n`);
    const text = await readFile(join(work, "pipeline.yaml"), "utf8");
    expect(text).toContain(`  path: ${JSON.stringify(pdfs)}\n`);

    const validate = cli(["validate", "--env"], work);
    expect([validate.code, validate.stderr]).toEqual([0, ""]);
    const run = cli(["run", "--progress", "never", "--log-level", "warn"], work);
    expect([run.code, run.stderr]).toEqual([0, ""]);
    const search = cli(["search", "closing paragraph", "--json"], work);
    expect(search.code).toBe(0);
    expect((JSON.parse(search.stdout) as { hits: { path: string }[] }).hits.map((h) => h.path)).toEqual(["2026/memo.PDF"]);
  });

  it("names this installation's pipeline.schema.json in the editor's modeline, a file that exists wherever the pipeline is", async () => {
    const { work } = await papers("schema");
    expect(cli(["init", "../papers"], work).code).toBe(0);
    const modeline = /^# yaml-language-server: \$schema=(\S+)\n/.exec(await readFile(join(work, "pipeline.yaml"), "utf8"));
    expect(modeline?.[1]).toMatch(/^file:\/\//);
    const schema = fileURLToPath(modeline![1]!);
    expect(schema).toBe(resolve("pipeline.schema.json"));
    expect(JSON.parse(await readFile(schema, "utf8")).$schema).toMatch(/json-schema\.org\/draft-07/);
  });

  it("names a folder below the pipeline by its relative path, and writes where --pipeline says", async () => {
    const { work } = await papers("below");
    await mkdir(join(work, "inbox"));
    const init = cli(["init", "inbox", "--pipeline", "inbox.yaml"], work);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain("next: pagestream run inbox.yaml,");
    expect(await readFile(join(work, "inbox.yaml"), "utf8")).toContain('  path: "inbox"\n');
    expect(cli(["validate", "inbox.yaml"], work).code).toBe(0);
  });

  it("refuses the folder the pipeline would be written in: its outputs would be inside what it reads", async () => {
    const { pdfs } = await papers("inside");
    const r = cli(["init", "."], pdfs);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "pagestream init: pipeline.yaml would write its outputs (out/) inside ., the folder it reads: a run would read what it writes. " +
        "Write it in a folder of its own, e.g. mkdir ../pdf-search && cd ../pdf-search && pagestream init ../papers\n",
    );
    expect(existsSync(join(pdfs, "pipeline.yaml"))).toBe(false);
  });

  it("keeps a pipeline file that exists unless told --force", async () => {
    const { work } = await papers("exists");
    await writeFile(join(work, "pipeline.yaml"), "# mine\n");
    const r = cli(["init", "../papers"], work);
    expect([r.code, r.stderr]).toEqual([2, "pagestream init: pipeline.yaml exists already: edit it, or replace it with --force\n"]);
    expect(await readFile(join(work, "pipeline.yaml"), "utf8")).toBe("# mine\n");
    expect(cli(["init", "../papers", "--force"], work).code).toBe(0);
    expect(await readFile(join(work, "pipeline.yaml"), "utf8")).toMatch(/^# yaml-language-server/);
  });

  it("names a folder that does not exist, or a file given as the folder", async () => {
    const { work } = await papers("missing");
    expect(cli(["init", "../nowhere"], work)).toMatchObject({ code: 2, stderr: `pagestream init: ../nowhere: the folder does not exist (${join(tmp, "missing", "nowhere")})\n` });
    await writeFile(join(work, "a.pdf"), "%PDF-1.7");
    expect(cli(["init", "a.pdf"], work)).toMatchObject({ code: 2, stderr: "pagestream init: a.pdf: not a folder; give the folder that holds the PDFs\n" });
    expect(existsSync(join(work, "pipeline.yaml"))).toBe(false);
  });
});

describe("a first run without a pipeline file", () => {
  it("says how to write one, instead of a position in a file that is not there", async () => {
    const empty = await mkdtemp(join(tmp, "empty-"));
    const r = cli(["run"], empty);
    expect([r.code, r.stderr]).toEqual([
      2,
      `pipeline.yaml: the file does not exist (in ${empty}): \`pagestream init <folder of PDFs>\` writes a pipeline.yaml for your PDFs here, or give the path of an existing pipeline file\n`,
    ]);
  });
});

describe("a run whose source folder is missing", () => {
  it("fails before its sinks open: no empty output files are left behind", async () => {
    const dir = await mkdtemp(join(tmp, "no-source-"));
    await writeFile(join(dir, "pipeline.yaml"), "source: { type: folder, path: nothere }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl, path: out/pages.jsonl }, { type: sqlite, path: out/archive.sqlite }]\n");
    const r = cli(["run", "--progress", "never"], dir);
    expect([r.code, r.stderr]).toEqual([1, `pagestream: source folder nothere cannot be read: it does not exist (${join(dir, "nothere")})\n`]);
    expect(existsSync(join(dir, "out"))).toBe(false);
  });
});
