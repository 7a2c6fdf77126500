import { z } from "zod";
import { defineStage } from "../../core/plugin.js";
import type { PageRecord } from "../../core/records.js";
import { pagesOf, pageWindows } from "../../core/stage-operators.js";
import { joinBrokenWords } from "./broken-words.js";
import { joinBrokenCellWords } from "./cell-words.js";
import { continuesOnNextPage } from "./page-continuation.js";
import { ENGLISH_SHARE, englishWordList, evidenceFrom, WordCounts } from "./word-evidence.js";

const options = z.strictObject({
  evidence: z
    .enum(["document", "none"])
    .default("document")
    .describe("Where to look for the word written whole or with its hyphen: elsewhere in this document, or nowhere (the base case rule and the word list alone)."),
  dictionary: z
    .enum(["auto", "none"])
    .default("auto")
    .describe("auto consults an English word list (an-array-of-english-words) for documents in English; other languages rely on the documents' own evidence and the case rule."),
  join_pages: z
    .boolean()
    .default(true)
    .describe("Rejoin a word broken over a page break, and mark a paragraph that runs over a page break so document text reads it whole."),
  move_words: z
    .boolean()
    .default(true)
    .describe("In preserve mode, move a rejoined word up onto the line where it starts; false leaves preserved lines exactly as printed, and then nothing is decided (no `dehyphenated` entries)."),
});

export default defineStage({
  type: "dehyphenate",
  summary: "Rejoins words broken at line ends and page breaks, keeping real hyphens (well-known, COVID-19), and records each decision.",
  options,
  examples: [{}, { evidence: "none", dictionary: "none" }],
  retired: {
    values: {
      evidence: {
        run: 'evidence: run was removed: it learned words from the documents a worker happened to process before, so a document\'s text depended on scheduling, restarts and what an incremental run skipped. Use evidence: document (the default).',
      },
    },
  },
  create(opts) {
    // Each document is judged on its own evidence: nothing carries over to the next one.
    return {
      // A window's words are judged on the window's evidence: the whole document's when it is one
      // window. Its last page waits for the next window, whose first page may finish its last word.
      apply: (records, context) =>
        records.pipe(
          pageWindows(context, ({ records: window, carried, last }) => {
            const held = [...carried, ...window];
            const pages = pagesOf(held);
            // A page held back from the window before: its own line ends are decided already.
            const decided = carried.length ? 1 : 0;
            const counts = new WordCounts().addPages(pages);
            const sources = opts.evidence === "none" ? [] : [counts];
            const english = opts.dictionary === "auto" && counts.englishShare() >= ENGLISH_SHARE;
            const evidence = evidenceFrom(sources, english ? englishWordList : undefined);
            const keepLines = !opts.move_words && pages[0]?.mode === "preserve";
            const joined = keepLines
              ? pages
              : joinBrokenWords(pages, evidence, { acrossPages: opts.join_pages, decided }).map((page, i) => (i < decided ? page : joinBrokenCellWords(page, evidence)));
            const out: PageRecord[] = joined.map((page, i) => {
              const next = joined[i + 1];
              return opts.join_pages && next && continuesOnNextPage(page, next) ? { ...page, continues: true } : page;
            });
            let p = 0;
            const done = held.map((r) => (r.type === "page" ? out[p++]! : r));
            if (last || out.length === 0) return { records: done };
            const cut = done.indexOf(out[out.length - 1]!);
            return { records: done.slice(0, cut), carry: done.slice(cut) };
          }),
        ),
    };
  },
});
