import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { configReference, pipelineJsonSchema, REFERENCE_MARKERS, builtinSpecs } from "../../src/pipeline/config-schema.js";
import { formatIssue, parsePipeline } from "../../src/pipeline/config.js";
import { DEFAULT_STAGES } from "../../src/pipeline/default-pipeline.js";

const where = { file: "pipeline.yaml", baseDir: process.cwd() };

async function issuesOf(text: string): Promise<string[]> {
  const r = await parsePipeline(text, where);
  return r.ok ? [] : r.issues.map(formatIssue);
}

describe("pipeline.yaml validation", () => {
  it("accepts the default pipeline.yaml", async () => {
    const r = await parsePipeline(await readFile("pipeline.yaml", "utf8"), where);
    expect(r.ok).toBe(true);
  });

  it("reports every error at once, each with file:line:col and the option's path", async () => {
    const text = [
      "concurrency: lots", // 1
      "source:", // 2
      "  type: folder", // 3
      "  path: fixtures/samples", // 4
      "  recursive: true", // 5
      "stages:", // 6
      "  - type: extract", // 7
      "    space_ratio: wide", // 8
      "    mode: sideways", // 9
      "sinks:", // 10
      "  - type: jsonl", // 11
    ].join("\n");
    // A bad top-level key does not hide the components' errors (issue 14 §5): all come together.
    expect(await issuesOf(text)).toEqual([
      'pipeline.yaml:1:14 concurrency: expected a number, got "lots"',
      'pipeline.yaml:5:3 source.recursive: unknown option "recursive"',
      'pipeline.yaml:8:18 stages[0].space_ratio: expected a number, got "wide"',
      'pipeline.yaml:9:11 stages[0].mode: expected one of "reflow", "preserve", got "sideways"',
    ]);
  });

  it("reports an unknown top-level key with every error under the other keys, and what cannot work in the pipeline too", async () => {
    const text = [
      "concurency: 2", // 1
      "source: { type: folder, path: in, recursive: true }", // 2
      "stages:", // 3
      "  - type: extract", // 4
      "  - type: chunk", // 5
      "    max_tokens: many", // 6
      "sinks:", // 7
      "  - { type: jsonl, records: pages, shape: langchain }", // 8
      "  - { type: sqlite, stemming: snowball }", // 9
      "  - type: jsonl", // 10
      "    records: chunks", // 11
      "    path: out/pages.jsonl", // 12
    ].join("\n");
    expect(await issuesOf(text)).toEqual([
      'pipeline.yaml:1:1 concurency: unknown option "concurency": did you mean "concurrency"?',
      'pipeline.yaml:2:35 source.recursive: unknown option "recursive"',
      'pipeline.yaml:6:17 stages[1].max_tokens: expected a number, got "many"',
      "pipeline.yaml:8:43 sinks[0].shape: applies to chunk records only (records: chunks): page records have one shape",
      'pipeline.yaml:9:31 sinks[1].stemming: expected one of "none", "porter", got "snowball"',
      "pipeline.yaml:12:11 sinks[2].path: out/pages.jsonl is written by sinks[0] too: two sinks on one file corrupt it; give each its own path",
    ]);
  });

  it("names the option a mistyped one most likely meant, in components and nested settings too", async () => {
    const text = [
      "source: { type: folder, path: in, incldue: [a] }", // 1
      "stages:", // 2
      "  - type: extract", // 3
      "    mdoe: preserve", // 4
      "  - type: chunk", // 5
      "    overlap_tokns: 10", // 6
      "    max-tokens: 300", // 7
      "    sideways: 1", // 8
      "sinks: [{ type: jsonl }]", // 9
      "queue: { url: 'redis://q', atempts: 3 }", // 10
    ].join("\n");
    expect(await issuesOf(text)).toEqual([
      'pipeline.yaml:1:35 source.incldue: unknown option "incldue": did you mean "include"?',
      'pipeline.yaml:4:5 stages[0].mdoe: unknown option "mdoe": did you mean "mode"?',
      'pipeline.yaml:6:5 stages[1].overlap_tokns: unknown option "overlap_tokns": did you mean "overlap_tokens"?',
      'pipeline.yaml:7:5 stages[1].max-tokens: unknown option "max-tokens" (options use snake_case: "max_tokens")',
      'pipeline.yaml:8:5 stages[1].sideways: unknown option "sideways"',
      'pipeline.yaml:10:28 queue.atempts: unknown option "atempts": did you mean "attempts"?',
    ]);
  });

  it("refuses records: chunks without a chunk stage before anything runs, with the other errors", async () => {
    const text = "source: { type: folder, path: in, nope: 1 }\nstages: [{ type: extract }]\nsinks:\n  - type: jsonl\n    records: chunks\n";
    expect(await issuesOf(text)).toEqual([
      'pipeline.yaml:1:35 source.nope: unknown option "nope"',
      "pipeline.yaml:5:14 sinks[0].records: chunks need a chunk stage in the pipeline (- type: chunk), and there is none",
    ]);
  });

  it("reports a stray indent on the indented line, not at the value on the line above it", async () => {
    const text = ["source:", "  type: folder", "    path: in", "stages: [{ type: extract }]", "sinks: [{ type: jsonl }]"].join("\n");
    expect(await issuesOf(text)).toEqual(['pipeline.yaml:3:5 indented further than line 2 above it: line it up with the keys it belongs with (or end line 2 with a key and ":")']);
    const deeper = ["source:", "  type: folder", "  path: in", "   recursive: true", "stages: [{ type: extract }]", "sinks: [{ type: jsonl }]"].join("\n");
    expect(await issuesOf(deeper)).toEqual(['pipeline.yaml:4:4 indented further than line 3 above it: line it up with the keys it belongs with (or end line 3 with a key and ":")']);
  });

  it("keeps the yaml library's place for other syntax errors", async () => {
    expect(await issuesOf("source:\n  type: folder\n path: in\n")).toEqual(["pipeline.yaml:3:1 All mapping items must start at the same column"]);
  });

  it("names the built-ins when a type is unknown", async () => {
    const text = "source: { type: ftp }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl }]\n";
    expect(await issuesOf(text)).toEqual(['pipeline.yaml:1:17 source.type: unknown source type "ftp"; built-in sources: folder, s3']);
  });

  it("requires at least one stage, and the first one to read the documents", async () => {
    const empty = "source: { type: folder, path: in }\nstages: []\nsinks: [{ type: jsonl }]\n";
    expect(await issuesOf(empty)).toEqual(["pipeline.yaml:2:9 stages: needs at least 1 item(s)"]);
    const noExtract = "source: { type: folder, path: in }\nstages: [{ type: ./test/helpers/uppercase-stage.ts }]\nsinks: [{ type: jsonl }]\n";
    expect(await issuesOf(noExtract)).toEqual(['pipeline.yaml:2:18 stages[0].type: the first stage must read the documents (extract), not "uppercase"']);
  });

  it("chooses chunk records for a jsonl sink after a chunk stage, and refuses them without one, at the option", async () => {
    const withChunk = await parsePipeline("source: { type: folder, path: in }\nstages: [{ type: extract }, { type: chunk }]\nsinks: [{ type: jsonl }]\n", where);
    expect(withChunk.ok && withChunk.config.sinks[0]!.options.records).toBe("chunks");
    const without = await parsePipeline("source: { type: folder, path: in }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl }]\n", where);
    expect(without.ok && without.config.sinks[0]!.options.records).toBe("pages");
    const text = "source: { type: folder, path: in }\nstages: [{ type: extract }]\nsinks:\n  - type: jsonl\n    records: chunks\n";
    expect(await issuesOf(text)).toEqual(["pipeline.yaml:5:14 sinks[0].records: chunks need a chunk stage in the pipeline (- type: chunk), and there is none"]);
  });

  it("refuses a sink that writes inside the source folder or onto a source file, and two sinks on one file, before anything opens", async () => {
    const text = [
      "source: { type: folder, path: fixtures/samples }", // 1
      "stages: [{ type: extract }]", // 2
      "sinks:", // 3
      "  - type: jsonl", // 4
      "    path: fixtures/samples/meeting-minutes.pdf", // 5
      "  - type: jsonl", // 6
      "    path: out/pages.jsonl", // 7
      "  - type: jsonl", // 8
      "    path: out/pages.jsonl", // 9
    ].join("\n");
    expect(await issuesOf(text)).toEqual([
      "pipeline.yaml:5:11 sinks[0].path: fixtures/samples/meeting-minutes.pdf is inside the source folder fixtures/samples: the run would read what it writes, and could overwrite a document; write it elsewhere",
      "pipeline.yaml:9:11 sinks[2].path: out/pages.jsonl is written by sinks[1] too: two sinks on one file corrupt it; give each its own path",
    ]);
    // A default path counts too: two sqlite sinks without a path both write out/archive.sqlite.
    expect(await issuesOf("source: { type: folder, path: in }\nstages: [{ type: extract }]\nsinks:\n  - type: sqlite\n  - type: sqlite\n")).toEqual([
      "pipeline.yaml:5:11 sinks[1].type: out/archive.sqlite is written by sinks[0] too: two sinks on one file corrupt it; give each its own path",
    ]);
  });

  it("refuses a size cap that admits files the worker's memory cap cannot hold", async () => {
    const text = "max_worker_memory_mb: 512\nmax_file_bytes: 268435456\nsource: { type: folder, path: in }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl }]\n";
    expect(await issuesOf(text)).toEqual([
      "pipeline.yaml:2:17 max_file_bytes: max_file_bytes (268435456) admits files that cannot fit max_worker_memory_mb (512 MiB): a worker needs about 3 × a file's size, so files up to 178956970 bytes fit; lower max_file_bytes or raise max_worker_memory_mb",
    ]);
    // The defaults agree with each other.
    expect(await issuesOf("source: { type: folder, path: in }\nstages: [{ type: extract }]\nsinks: [{ type: jsonl }]\n")).toEqual([]);
  });

  it("reports a missing required option at its component", async () => {
    const text = "source:\n  type: folder\nstages: [{ type: extract }]\nsinks: [{ type: jsonl }]\n";
    expect(await issuesOf(text)).toEqual(["pipeline.yaml:2:3 source.path: is required (string)"]);
  });

  it("reports YAML syntax errors with their position", async () => {
    const issues = await issuesOf("source: [unclosed\n");
    expect(issues[0]).toMatch(/^pipeline\.yaml:\d+:\d+ /);
  });

  it("rejects a bad page range with a sentence", async () => {
    const text = "source: { type: folder, path: in }\nstages: [{ type: extract, pages: '4-2' }]\nsinks: [{ type: jsonl }]\n";
    expect(await issuesOf(text)).toEqual(['pipeline.yaml:2:34 stages[0].pages: "4-2" ends before it starts']);
  });

  it("loads a user's stage module through the same contract", async () => {
    const text = "source: { type: folder, path: in }\nstages: [{ type: extract }, { type: ./test/helpers/uppercase-stage.ts }]\nsinks: [{ type: jsonl }]\n";
    const r = await parsePipeline(text, where);
    expect(r.ok && r.config.stages.map((s) => s.spec.type)).toEqual(["extract", "uppercase"]);
  });
});

describe("component declarations", () => {
  it("validate their own examples", async () => {
    const specs = await builtinSpecs();
    for (const spec of [...specs.source, ...specs.stage, ...specs.sink]) {
      expect(spec.examples.length, spec.type).toBeGreaterThan(0);
      for (const example of spec.examples) expect(spec.options.safeParse(example).success, `${spec.type} ${JSON.stringify(example)}`).toBe(true);
    }
  });

  it("describe every option", async () => {
    const specs = await builtinSpecs();
    for (const spec of [...specs.source, ...specs.stage, ...specs.sink]) {
      for (const [name, schema] of Object.entries(spec.options.shape)) expect((schema as { description?: string }).description, `${spec.type}.${name}`).toBeTruthy();
    }
  });
});

describe("generated files", () => {
  it("pipeline.schema.json is up to date (run `npm run docs`)", async () => {
    const committed = JSON.parse(await readFile("pipeline.schema.json", "utf8"));
    expect(committed).toEqual(await pipelineJsonSchema());
  });

  it("the configuration reference in docs/reference.md is up to date (run `npm run docs`)", async () => {
    const readme = await readFile("docs/reference.md", "utf8");
    const start = readme.indexOf(REFERENCE_MARKERS.start) + REFERENCE_MARKERS.start.length;
    const end = readme.indexOf(REFERENCE_MARKERS.end);
    expect(readme.slice(start, end).trim()).toBe((await configReference()).trim());
  });

  it("pipeline.yaml starts with the yaml-language-server modeline", async () => {
    expect((await readFile("pipeline.yaml", "utf8")).split("\n")[0]).toBe("# yaml-language-server: $schema=./pipeline.schema.json");
  });

  it("pipeline.yaml runs the stages `pagestream extract` runs, first and in the same order", async () => {
    const r = await parsePipeline(await readFile("pipeline.yaml", "utf8"), where);
    expect(r.ok && r.config.stages.map((s) => s.spec.type).slice(0, DEFAULT_STAGES.length)).toEqual(DEFAULT_STAGES.map((s) => s.type));
  });
});
