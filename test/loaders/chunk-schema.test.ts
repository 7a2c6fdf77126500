/**
 * chunk.schema.json (issue 34): the published JSON Schema of a chunk line is what pagestream
 * writes. Every line `pagestream export` gives — each shape, with and without stable keys, from
 * a jsonl sink and from an archive — validates against the committed file (ajv, draft-07), and
 * the schema refuses what broke typed stores: a null, a fraction, a key it does not declare.
 */
import Ajv from "ajv";
import { copyFile, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chunkJsonSchema } from "../../src/sinks/jsonl/chunk-schema.js";
import { CHUNK_SHAPES, METADATA_FIELDS } from "../../src/sinks/jsonl/chunk-shapes.js";
import { exported, notePdf, pagestream, paragraphs, pipelineFolder, run } from "./loader-run.js";

let dir: string;
let schema: Record<string, any>;
const ajv = new Ajv({ allErrors: true, strict: true });
let validate: ReturnType<Ajv["compile"]>;

beforeAll(async () => {
  schema = JSON.parse(await readFile("chunk.schema.json", "utf8"));
  validate = ajv.compile(schema);
  dir = await pipelineFolder(["{ type: jsonl, path: out/chunks.jsonl, shape: llamaindex }", "{ type: sqlite, path: out/archive.sqlite }"]);
  // A document with a title, headings and page labels, and one with none of them.
  for (const f of ["meeting-minutes.pdf", "quarterly-report.pdf"]) await copyFile(join("fixtures/samples", f), join(dir, "in", f));
  await writeFile(join(dir, "in/untitled-notice.pdf"), await notePdf({ paragraphs: paragraphs(4) }));
  run(dir);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The lines that do not validate, each with ajv's reasons. */
const invalid = (lines: Record<string, any>[]) =>
  lines.flatMap((line, i) => (validate(line) ? [] : [`line ${i + 1}: ${ajv.errorsText(validate.errors)}`]));

describe("chunk.schema.json", () => {
  it("is up to date with the metadata's fields (run `npm run docs`)", () => {
    expect(schema).toEqual(chunkJsonSchema());
  });

  it("validates every exported chunk line: each shape, with and without stable keys, from the jsonl sink and from the archive", () => {
    let checked = 0;
    for (const from of [[], ["--db", "out/archive.sqlite"]]) {
      for (const shape of CHUNK_SHAPES) {
        for (const stable of [[], ["--stable-keys"]]) {
          const lines = exported(dir, [...from, "--shape", shape, ...stable]);
          expect(lines.length).toBeGreaterThan(10);
          expect(invalid(lines), [...from, shape, ...stable].join(" ")).toEqual([]);
          checked += lines.length;
        }
      }
    }
    expect(checked).toBeGreaterThan(160);
  });

  it("with --stable-keys every line has every key the schema declares, in its order; without, the untitled document's lines have no title", () => {
    const keys = Object.keys(schema.definitions.metadata.properties);
    expect(keys).toEqual(METADATA_FIELDS.map((f) => f.key));
    for (const from of [[], ["--db", "out/archive.sqlite"]]) {
      const stable = exported(dir, [...from, "--shape", "flat", "--stable-keys"]);
      expect(stable.map((c) => Object.keys(c.metadata))).toEqual(stable.map(() => keys));
      const untitled = stable.filter((c) => c.metadata.path === "untitled-notice.pdf");
      expect(untitled.length).toBeGreaterThan(0);
      expect(untitled.map((c) => [c.metadata.title, c.metadata.headings])).toEqual(untitled.map(() => ["", []]));
      const loose = exported(dir, [...from, "--shape", "flat"]).filter((c) => c.metadata.path === "untitled-notice.pdf");
      expect(loose.map((c) => "title" in c.metadata)).toEqual(untitled.map(() => false));
    }
    // The archive keeps no tokenizer: empty, typed as the schema says.
    expect(exported(dir, ["--db", "out/archive.sqlite", "--stable-keys"]).every((c) => c.metadata.tokenizer === "" && c.metadata.encoding === "")).toBe(true);
  });

  it("export refuses --stable-keys for page and document records, from the sink and from the archive, with exit 2", () => {
    // The pipeline's jsonl sink writes chunks, so its document records; the archive has all three.
    for (const [from, kinds] of [[[], ["documents"]], [["--db", "out/archive.sqlite"], ["pages", "documents"]]] as const) {
      for (const records of kinds) {
        const r = pagestream(dir, ["export", ...from, "--records", records, "--stable-keys"]);
        expect([r.code, r.stdout, r.stderr]).toEqual([2, "", `pagestream: --stable-keys is about chunk metadata, and these are ${records === "pages" ? "page" : "document"} records: export chunks (--records chunks), or leave it out\n`]);
      }
    }
  });

  it("refuses a null, a fraction where an integer goes, a list of numbers and a key it does not declare", () => {
    const [line] = exported(dir, ["--shape", "flat"]);
    const broken = [
      { ...line, metadata: { ...line!.metadata, title: null } },
      { ...line, metadata: { ...line!.metadata, page_start: 1.5 } },
      { ...line, metadata: { ...line!.metadata, page_labels: [1, 2] } },
      { ...line, metadata: { ...line!.metadata, colour: "red" } },
      { ...line, chunk_index: "0" },
      { pageContent: line!.text, metadata: line!.metadata, id: line!.id },
    ];
    expect(invalid([line!])).toEqual([]);
    expect(broken.map((b) => validate(b))).toEqual(broken.map(() => false));
  });
});
