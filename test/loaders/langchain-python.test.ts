/**
 * Python LangChain (langchain-core) loaded as it is (issue 34): it refused the langchain shape
 * (`Document.__init__() missing 1 required positional argument: 'page_content'`, that shape
 * being LangChain.js's camelCase). shape: langchain_python is `Document(**line)`, run here
 * through examples/python/load_langchain.py as a user runs it. Needs a python3 that imports
 * langchain_core (`pip install langchain-core`); skipped, saying so, where it does not.
 */
import { spawnSync } from "node:child_process";
import { copyFile, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exported, jsonLines, pagestream, pipelineFolder, run } from "./loader-run.js";

const SCRIPT = resolve("examples/python/load_langchain.py");
const probe = spawnSync("python3", ["-c", "import langchain_core"], { encoding: "utf8" });
const available = probe.status === 0;
if (!available) {
  const why = probe.error ? `python3 cannot be run (${probe.error.message})` : `python3 cannot import langchain_core (${probe.stderr.trim().split("\n").pop()})`;
  console.warn(`Python LangChain tests skipped: ${why}; pip install langchain-core to run them`);
}

let dir: string;
function python(args: string[]) {
  const r = spawnSync("python3", [SCRIPT, ...args], { cwd: dir, encoding: "utf8", maxBuffer: 64 << 20 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.skipIf(!available)("Python LangChain (langchain-core)", () => {
  beforeAll(async () => {
    dir = await pipelineFolder(["{ type: jsonl, path: out/chunks.jsonl, mode: snapshot, shape: langchain_python }"]);
    for (const f of ["meeting-minutes.pdf", "service-agreement.pdf"]) await copyFile(join("fixtures/samples", f), join(dir, "in", f));
    run(dir);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("makes a Document of every line of shape: langchain_python, with its text, metadata and stable id", () => {
    const flat = exported(dir, ["--shape", "flat"]);
    const r = python(["out/chunks.jsonl", "--json"]);
    expect([r.code, r.stderr]).toEqual([0, ""]);
    const documents = jsonLines(r.stdout);
    expect(documents.map((d) => [d.id, d.page_content, d.metadata])).toEqual(flat.map((c) => [c.id, c.text, { document_id: c.document_id, chunk_index: c.chunk_index, ...c.metadata }]));
    expect(documents.every((d) => d.type === "Document" && d.page_content.length > 0)).toBe(true);
    expect(python(["out/chunks.jsonl"]).stdout).toBe(`${flat.length} Documents from out/chunks.jsonl, ${flat.length} distinct ids\n`);
  });

  it("loads pagestream export --shape langchain_python --stable-keys as well", () => {
    const r = pagestream(dir, ["export", "--shape", "langchain_python", "--stable-keys", "--out", "stable.jsonl"]);
    expect(r.code).toBe(0);
    const loaded = python(["stable.jsonl", "--json"]);
    expect([loaded.code, loaded.stderr]).toEqual([0, ""]);
    expect(jsonLines(loaded.stdout).every((d) => Array.isArray(d.metadata.flags) && typeof d.metadata.title === "string")).toBe(true);
  });

  it("refuses LangChain.js's shape, naming the file, the line and the shape to export", () => {
    expect(pagestream(dir, ["export", "--shape", "langchain", "--out", "js.jsonl"]).code).toBe(0);
    const r = python(["js.jsonl"]);
    expect([r.code, r.stdout, r.stderr]).toEqual([2, "", "load_langchain: js.jsonl line 1 is LangChain.js's shape (pageContent): write it with shape: langchain_python, or export with --shape langchain_python\n"]);
    // What Document(**line) itself says of it: the error the issue reported.
    const raw = spawnSync("python3", ["-c", "import json,sys\nfrom langchain_core.documents import Document\nDocument(**json.loads(open('js.jsonl').readline()))"], { cwd: dir, encoding: "utf8" });
    expect(raw.stderr).toContain("missing 1 required positional argument: 'page_content'");
  });
});
