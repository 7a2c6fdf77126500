import { z } from "zod";
import { defineStage } from "../../core/plugin.js";
import { pagesOf, pageWindows } from "../../core/stage-operators.js";
import { TEXT_FORMATS } from "../../text/document-view.js";
import { chunkWindow, newChunkCursor, type ChunkCursor } from "./chunker.js";
import { ENCODINGS, loadTokenizer } from "./tokenizer.js";

const options = z
  .strictObject({
    encoding: z
      .enum(ENCODINGS)
      .default("cl100k_base")
      .describe(
        "The tokenizer encoding chunks are measured in (gpt-tokenizer, shipped with pagestream): cl100k_base for OpenAI's text-embedding-3 and ada-002 models, o200k_base for GPT-4o-era models.",
      ),
    max_tokens: z
      .int()
      .min(16)
      .max(1_000_000)
      .default(512)
      .describe("Most tokens in a chunk, overlap and any repeated table header included. No chunk is ever longer."),
    overlap_tokens: z
      .int()
      .min(0)
      .default(64)
      .describe(
        "Tokens of the text before a chunk that it repeats at its start (from a sentence or word start), so a passage cut at a boundary is whole in one chunk. Never across documents; a chunk that continues a table repeats its header row instead.",
      ),
    text_format: z
      .enum(TEXT_FORMATS)
      .default("markdown")
      .describe(
        "The view of the text chunks are cut from and carry: markdown (headings as #, list items as - or 1., code fenced, tables as | a | b | rows with a header row, repeated by a chunk that continues the table) or plain (what pagestream extract prints: paragraphs, tables one row a line with tab-separated cells). Chunks are cut and counted in it, and char_start/char_end point into it.",
      ),
    min_tokens: z
      .int()
      .min(0)
      .default(64)
      .describe(
        "A chunk with fewer tokens of its own than this merges into the chunk before or after it when they fit together (a tiny tail, a short section between two long ones).",
      ),
  })
  .superRefine((o, ctx) => {
    if (o.overlap_tokens > o.max_tokens / 2) {
      ctx.addIssue({ code: "custom", path: ["overlap_tokens"], message: `must be at most half of max_tokens (${Math.floor(o.max_tokens / 2)}), got ${o.overlap_tokens}` });
    }
    if (o.min_tokens > o.max_tokens - o.overlap_tokens) {
      ctx.addIssue({ code: "custom", path: ["min_tokens"], message: `must be at most max_tokens − overlap_tokens (${o.max_tokens - o.overlap_tokens}), got ${o.min_tokens}` });
    }
  });

export type ChunkOptions = z.output<typeof options>;

export default defineStage({
  type: "chunk",
  // 2: chunk ids name the uri too, so two copies of one file have ids of their own.
  // 3: text_format (Markdown by default); headings in force at the chunk's start, headings inside, running titles.
  version: 3,
  producesChunks: true,
  summary: "Cuts each document's text into token-counted chunks for embedding, at headings, paragraphs, sentences or words, in that order of preference.",
  options,
  examples: [{ max_tokens: 512, overlap_tokens: 64 }, { encoding: "o200k_base", max_tokens: 1024, overlap_tokens: 128, min_tokens: 100 }, { max_tokens: 256, overlap_tokens: 0, text_format: "plain" }],
  async create(opts) {
    const tokenizer = await loadTokenizer(opts.encoding);
    const limits = { maxTokens: opts.max_tokens, overlapTokens: opts.overlap_tokens, minTokens: opts.min_tokens };
    return {
      apply: (records, context) =>
        records.pipe(
          pageWindows<ChunkCursor>(context, ({ records: window, state }) => {
            // A second chunk stage replaces the chunks of the first.
            const kept = window.filter((r) => r.type !== "chunk");
            const input = { documentId: context.input.documentId, uri: context.input.item.uri, pages: pagesOf(kept) };
            const { chunks, cursor } = chunkWindow(input, limits, tokenizer, opts.text_format, state ?? newChunkCursor());
            return { records: [...kept, ...chunks], state: cursor };
          }),
        ),
    };
  },
});
