/**
 * A sink may not write the pipeline file (a JSONL sink on pipeline.yaml passed validate and
 * overwrote it), the run folder's own files, the source folder or another sink's file — by the
 * names the pipeline gives, and through a symbolic link that makes two names one file.
 */
import { spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { formatIssue, parsePipeline } from "../../src/pipeline/config.js";

const CLI = resolve("dist/cli.js");
const HEAD = "source: { type: folder, path: in }\nstages: [{ type: extract }]\n";

async function issuesOf(text: string): Promise<string[]> {
  const r = await parsePipeline(text, { file: "pipeline.yaml", baseDir: process.cwd() });
  return r.ok ? [] : r.issues.map(formatIssue);
}

describe("sinks on files that are not theirs, by name", () => {
  const cases: [string, string, string[]][] = [
    [
      "the pipeline file",
      `${HEAD}sinks: [{ type: jsonl, path: pipeline.yaml }]\n`,
      ["pipeline.yaml:3:30 sinks[0].path: pipeline.yaml is the pipeline file: the run would overwrite it; write it elsewhere"],
    ],
    [
      "the run state",
      `${HEAD}sinks: [{ type: sqlite, path: out/run-state.sqlite }]\n`,
      ["pipeline.yaml:3:31 sinks[0].path: out/run-state.sqlite is the run folder's own run-state.sqlite, where the run keeps its state, lock and summary: write it elsewhere"],
    ],
    [
      "the lock of a run folder named in the file",
      `run_folder: state\n${HEAD}sinks: [{ type: jsonl, path: state/run.lock }]\n`,
      ["pipeline.yaml:4:30 sinks[0].path: state/run.lock is the run folder's own run.lock, where the run keeps its state, lock and summary: write it elsewhere"],
    ],
    [
      "the run summary and failures",
      `${HEAD}sinks: [{ type: jsonl, path: out/run-summary.json }, { type: jsonl, path: out/failed.jsonl }]\n`,
      [
        "pipeline.yaml:3:30 sinks[0].path: out/run-summary.json is the run folder's own run-summary.json, where the run keeps its state, lock and summary: write it elsewhere",
        "pipeline.yaml:3:75 sinks[1].path: out/failed.jsonl is the run folder's own failed.jsonl, where the run keeps its state, lock and summary: write it elsewhere",
      ],
    ],
  ];
  for (const [what, text, issues] of cases) {
    it(`refuses a sink on ${what}`, async () => {
      expect(await issuesOf(text)).toEqual(issues);
    });
  }

  it("accepts files beside them", async () => {
    expect(await issuesOf(`${HEAD}sinks: [{ type: jsonl, path: out/pages.jsonl }, { type: jsonl, path: pipeline.jsonl }, { type: sqlite, path: out/run-state-archive.sqlite }]\n`)).toEqual([]);
  });
});

describe("sinks on files that are not theirs, through a symbolic link", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "pagestream-collisions-"));
    await mkdir(join(dir, "in"));
    await mkdir(join(dir, "shared"));
    await mkdir(join(dir, "out"));
    await symlink(join(dir, "shared"), join(dir, "alias"));
    await symlink(dir, join(dir, "here"));
    await symlink(join(dir, "in"), join(dir, "docs"));
    await symlink(join(dir, "out"), join(dir, "state"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const validate = (text: string) => writeFile(join(dir, "pipeline.yaml"), HEAD + text).then(() => spawnSync(process.execPath, [CLI, "validate"], { cwd: dir, encoding: "utf8" }));

  const cases: [string, string, string][] = [
    ["another sink's file", "sinks: [{ type: jsonl, path: shared/x.jsonl }, { type: jsonl, path: alias/x.jsonl }]\n", "sinks[1] (jsonl): alias/x.jsonl is written by sinks[0] too (the same file as shared/x.jsonl): two sinks on one file corrupt it; give each its own path"],
    ["the pipeline file", "sinks: [{ type: jsonl, path: here/pipeline.yaml }]\n", "sinks[0] (jsonl): here/pipeline.yaml is the pipeline file (the same file as pipeline.yaml): the run would overwrite it; write it elsewhere"],
    ["the source folder", "sinks: [{ type: jsonl, path: docs/pages.jsonl }]\n", "sinks[0] (jsonl): docs/pages.jsonl is inside the source folder in: the run would read what it writes, and could overwrite a document; write it elsewhere"],
    ["the run folder's lock", "sinks: [{ type: jsonl, path: state/run.lock }]\n", "sinks[0] (jsonl): state/run.lock is the run folder's own run.lock (the same file as out/run.lock), where the run keeps its state, lock and summary: write it elsewhere"],
  ];
  for (const [what, text, issue] of cases) {
    it(`refuses a sink on ${what}: validate exits 2 naming both names`, async () => {
      const validated = await validate(text);
      expect([validated.status, validated.stdout, validated.stderr]).toEqual([2, "", `pipeline.yaml: ${issue}\n`]);
    });
  }

  it("and the run refuses it before anything is written: the pipeline file stays as it was", async () => {
    const text = HEAD + "sinks: [{ type: jsonl, path: here/pipeline.yaml }]\n";
    await writeFile(join(dir, "pipeline.yaml"), text);
    const run = spawnSync(process.execPath, [CLI, "run", "--progress", "never"], { cwd: dir, encoding: "utf8" });
    expect([run.status, run.stderr]).toEqual([2, "pagestream: pipeline.yaml: sinks[0] (jsonl): here/pipeline.yaml is the pipeline file (the same file as pipeline.yaml): the run would overwrite it; write it elsewhere\n"]);
    expect(await readFile(join(dir, "pipeline.yaml"), "utf8")).toBe(text);
  });
});
