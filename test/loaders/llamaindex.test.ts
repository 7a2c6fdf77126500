/**
 * shape: llamaindex loaded as it is (issue 34): LlamaIndex.TS puts every metadata key it is not
 * told to leave out in front of the text it embeds and hands the LLM. Before, that added ids,
 * offsets, counts and boxes to every embedding input, which then went over the model's limit
 * the chunk stage had sized the chunks to. Now no embedding input is longer than max_tokens,
 * counted by the chunk stage's own tokenizer, and the LLM still sees what the text is.
 */
import { Document, MetadataMode } from "@llamaindex/core/schema";
import { copyFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTokenizer } from "../../src/stages/chunk/tokenizer.js";
import { fileLines, notePdf, paragraphs, pipelineFolder, run } from "./loader-run.js";

const MAX_TOKENS = 96;
let dir: string;

beforeAll(async () => {
  dir = await pipelineFolder(["{ type: jsonl, path: out/llamaindex.jsonl, mode: snapshot, shape: llamaindex }"], MAX_TOKENS);
  await copyFile("fixtures/samples/quarterly-report.pdf", join(dir, "in/quarterly-report.pdf"));
  await writeFile(join(dir, "in/notice.pdf"), await notePdf({ title: "Harbour Notices", heading: "Berths and Pilots", paragraphs: paragraphs(8) }));
  run(dir);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("LlamaIndex.TS, shape: llamaindex", () => {
  it("embeds no input longer than the chunk stage's max_tokens: the text alone", async () => {
    const tokenizer = await loadTokenizer("cl100k_base");
    const documents = (await fileLines(join(dir, "out/llamaindex.jsonl"))).map((line) => new Document(line as never));
    expect(documents.length).toBeGreaterThan(10);
    const counts = documents.map((d) => tokenizer.count(d.getContent(MetadataMode.EMBED)));
    expect(counts.filter((n) => n > MAX_TOKENS)).toEqual([]);
    expect(documents.map((d) => d.getContent(MetadataMode.EMBED))).toEqual(documents.map((d) => d.text.trim()));
    // The same nodes with every key embedded, as the shape was before: full chunks go over.
    const everyKey = documents.map((d) => new Document({ id_: d.id_, text: d.text, metadata: d.metadata }));
    expect(everyKey.filter((d) => tokenizer.count(d.getContent(MetadataMode.EMBED)) > MAX_TOKENS).length).toBeGreaterThan(documents.length / 2);
  });

  it("hands the LLM the title, headings, pages and path with the text, and no ids, offsets, counts or boxes", async () => {
    const documents = (await fileLines(join(dir, "out/llamaindex.jsonl"))).map((line) => new Document(line as never));
    const notice = documents.find((d) => d.metadata.path === "notice.pdf")!;
    const shown = notice.getContent(MetadataMode.LLM);
    expect(shown.split("\n\n")[0]!.split("\n")).toEqual([
      "headings: Berths and Pilots",
      `page_end: ${notice.metadata.page_end}`,
      `page_start: ${notice.metadata.page_start}`,
      "path: notice.pdf",
      "title: Harbour Notices",
    ]);
    for (const d of documents) {
      for (const key of ["document_id", "chunk_index", "source_uri", "char_start", "char_end", "prefix_chars", "token_count", "tokenizer", "encoding", "text_format", "boxes", "flags"]) {
        expect(d.getContent(MetadataMode.LLM)).not.toContain(`${key}: `);
      }
      // Everything still travels in the metadata, for filters and citations.
      expect(typeof d.metadata.boxes === "string" && typeof d.metadata.char_start === "number").toBe(true);
    }
  });
});
