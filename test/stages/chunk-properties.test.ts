/**
 * Properties every chunking must have, on generated documents (fast-check): headings, running
 * text with sentence ends, abbreviations and unicode, over-long words, tables and code listings,
 * empty pages, and chunk limits from tiny to roomy.
 */
import fc from "fast-check";
import { countTokens } from "gpt-tokenizer/encoding/cl100k_base";
import { describe, expect, it } from "vitest";
import type { PageRecord } from "../../src/core/records.js";
import { chunkId } from "../../src/stages/chunk/chunk-id.js";
import { withBlockRoles } from "../../src/text/block-roles.js";
import { documentText } from "../../src/text/document-text.js";
import { documentView } from "../../src/text/document-view.js";
import { chunk, code, DOC_ID, heading, page, table, text, type ParagraphSpec, URI } from "./chunk-fixtures.js";

const count = (s: string) => countTokens(s, { disallowedSpecial: new Set() });

const word = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom("the", "harbour", "berth", "dues", "were", "agreed", "S.", "e.g.", "1,284", "2026", "COVID-19", "Café", "naïve", "港", "😀", "(see", "note)", "well-known", "'quoted'") },
  { weight: 3, arbitrary: fc.string({ minLength: 1, maxLength: 12, unit: "grapheme" }).map((w) => w.replace(/\s/g, "x")) },
  { weight: 1, arbitrary: fc.string({ minLength: 40, maxLength: 400, unit: fc.constantFrom("a", "b", "7", "é", "😀", "/", "-") }) },
);
const sentence = fc.tuple(fc.array(word, { minLength: 1, maxLength: 18 }), fc.constantFrom(".", "!", "?", "", ";")).map(([ws, end]) => {
  const s = ws.join(" ");
  return s.charAt(0).toUpperCase() + s.slice(1) + end;
});
const textLines = fc.array(fc.array(sentence, { minLength: 1, maxLength: 3 }).map((ss) => ss.join(" ")), { minLength: 1, maxLength: 4 });
const paragraph: fc.Arbitrary<ParagraphSpec> = fc.oneof(
  { weight: 10, arbitrary: textLines.map((lines) => text(...lines)) },
  { weight: 3, arbitrary: fc.tuple(fc.array(word, { minLength: 1, maxLength: 5 }), fc.constantFrom(13, 16, 20)).map(([ws, size]) => heading(ws.join(" "), size)) },
  { weight: 2, arbitrary: fc.array(fc.array(word, { minLength: 2, maxLength: 4 }).map((cells) => cells.join("\t")), { minLength: 2, maxLength: 9 }).map((rows) => table(...rows)) },
  { weight: 1, arbitrary: fc.array(fc.tuple(fc.nat(8), fc.array(word, { minLength: 1, maxLength: 6 })).map(([indent, ws]) => " ".repeat(indent) + ws.join(" ")), { minLength: 1, maxLength: 10 }).map((lines) => code(...lines)) },
);
const documentPages: fc.Arbitrary<PageRecord[]> = fc
  .array(fc.array(paragraph, { minLength: 0, maxLength: 6 }), { minLength: 1, maxLength: 5 })
  .map((pages) => pages.map((paragraphs, i) => page(i + 1, paragraphs)));
const limits = fc
  .integer({ min: 16, max: 300 })
  .chain((maxTokens) =>
    fc.integer({ min: 0, max: Math.floor(maxTokens / 2) }).chain((overlapTokens) => fc.record({ maxTokens: fc.constant(maxTokens), overlapTokens: fc.constant(overlapTokens), minTokens: fc.integer({ min: 0, max: maxTokens - overlapTokens }) })),
  );

// endOnFailure: a failing case is reported as found (with its seed, to replay it), not shrunk for minutes.
const RUNS = { numRuns: Number(process.env.CHUNK_RUNS ?? 100), endOnFailure: true };

describe("chunking properties", () => {
  it("keeps every chunk within max_tokens by the tokenizer it names, and says how many it has", async () => {
    await fc.assert(
      fc.asyncProperty(documentPages, limits, async (pages, l) => {
        for (const c of await chunk(pages, l)) {
          expect(c.tokenizer).toBe("gpt-tokenizer");
          expect(c.encoding).toBe("cl100k_base");
          expect(c.tokenCount).toBe(count(c.text));
          expect(c.tokenCount).toBeLessThanOrEqual(l.maxTokens);
        }
      }),
      RUNS,
    );
  });

  it("keeps Markdown chunks within max_tokens too, each its prefix and its span of the Markdown view, in order", async () => {
    await fc.assert(
      fc.asyncProperty(documentPages, limits, async (pages, l) => {
        const view = documentView(withBlockRoles(pages), "markdown").text;
        let last = 0;
        for (const c of await chunk(pages, l, DOC_ID, "markdown")) {
          expect(c.textFormat).toBe("markdown");
          expect(c.tokenCount).toBe(count(c.text));
          expect(c.tokenCount).toBeLessThanOrEqual(l.maxTokens);
          expect(c.text).toBe(c.prefix + view.slice(c.charStart, c.charEnd));
          expect(c.charEnd).toBeGreaterThanOrEqual(last);
          last = c.charEnd;
        }
      }),
      RUNS,
    );
  });

  it("gives every chunk the heading path in force where it starts, and the headings that start inside it", async () => {
    await fc.assert(
      fc.asyncProperty(documentPages, limits, async (pages, l) => {
        // The headings as the Markdown view prints them, found by reading its ATX lines: where
        // each starts, its level, its text.
        const view = documentView(withBlockRoles(pages), "markdown").text;
        const headings = [...view.matchAll(/^(#{1,6}) (.*)$/gmu)].map((m) => ({ at: m.index!, level: m[1]!.length, text: m[2]!.replace(/\\([!-/:-@[-`{-~])/gu, "$1") }));
        const pathAt = (offset: number) => {
          const path: { level: number; text: string }[] = [];
          for (const h of headings.filter((x) => x.at <= offset)) {
            while (path.length && path[path.length - 1]!.level >= h.level) path.pop();
            path.push(h);
          }
          return path.map((h) => h.text);
        };
        for (const c of await chunk(pages, l, DOC_ID, "markdown")) {
          expect(c.headings).toEqual(pathAt(c.charStart));
          expect(c.headingsInside).toEqual(headings.filter((h) => h.at >= c.charStart && h.at < c.charEnd).map((h) => h.text));
        }
      }),
      RUNS,
    );
  });

  it("reproduces the document text from the chunks, less overlap and repeated table headers", async () => {
    await fc.assert(
      fc.asyncProperty(documentPages, limits, async (pages, l) => {
        const doc = documentText(pages).text;
        let rebuilt = "";
        let end = 0;
        for (const c of await chunk(pages, l)) {
          expect(c.text.startsWith(c.prefix)).toBe(true);
          const own = c.text.slice(c.prefix.length);
          expect(own).toBe(doc.slice(c.charStart, c.charEnd));
          if (c.charStart < end) {
            rebuilt += own.slice(end - c.charStart); // the overlap is already there
          } else {
            const gap = doc.slice(end, c.charStart);
            expect(gap).toMatch(/^\s*$/); // only the white space between two paragraphs, rows or words
            rebuilt += gap + own;
          }
          expect(c.charEnd).toBeGreaterThan(end);
          end = c.charEnd;
        }
        expect(doc.slice(end)).toMatch(/^\s*$/);
        expect(rebuilt + doc.slice(end)).toBe(doc);
      }),
      RUNS,
    );
  });

  it("overlaps consecutive chunks whenever overlap_tokens is set and no table header stands in for it", async () => {
    await fc.assert(
      fc.asyncProperty(documentPages, limits, async (pages, l) => {
        fc.pre(l.overlapTokens >= 8);
        const chunks = await chunk(pages, l);
        const doc = documentText(pages).text;
        for (let i = 1; i < chunks.length; i++) {
          const [before, c] = [chunks[i - 1]!, chunks[i]!];
          if (c.prefix || c.charStart < before.charEnd) continue;
          // A chunk may go without overlap only when even the last word of the chunk before
          // would not fit: too long for overlap_tokens, or no room left (a table or listing
          // kept whole fills the chunk).
          const lastWordStart = doc.lastIndexOf(doc.slice(before.charStart, before.charEnd).split(/\s/).pop()!, before.charEnd);
          const lastWord = doc.slice(lastWordStart, before.charEnd);
          const noRoom = count(doc.slice(lastWordStart, c.charEnd)) > l.maxTokens;
          expect(noRoom || count(lastWord) > l.overlapTokens, `no overlap after "${lastWord.slice(-30)}"`).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it("never starts or ends a chunk inside a word, unless the word is longer than a chunk may be", async () => {
    await fc.assert(
      fc.asyncProperty(documentPages, limits, async (pages, l) => {
        const doc = documentText(pages).text;
        // Inside a word: between two non-space characters, except after a CJK full stop (CJK
        // sentences are written without a space after them).
        const inside = (at: number) => at > 0 && at < doc.length && /\S/.test(doc[at - 1]!) && /\S/.test(doc[at]!) && !/[。！？]/.test(doc[at - 1]!);
        const wordAround = (at: number) => {
          let s = at;
          let e = at;
          while (s > 0 && /\S/.test(doc[s - 1]!)) s--;
          while (e < doc.length && /\S/.test(doc[e]!)) e++;
          return doc.slice(s, e);
        };
        for (const c of await chunk(pages, l)) {
          for (const at of [c.charStart, c.charEnd]) {
            if (inside(at)) expect(count(wordAround(at)), `cut inside "${wordAround(at).slice(0, 40)}"`).toBeGreaterThan(l.maxTokens - l.overlapTokens);
          }
        }
      }),
      RUNS,
    );
  });

  it("gives each chunk the pages its text comes from, and covers every page that has text", async () => {
    await fc.assert(
      fc.asyncProperty(documentPages, limits, async (pages, l) => {
        const { text: doc, pages: spans } = documentText(pages);
        const pageOf = (offset: number) => spans.find((s) => offset >= s.start && offset < s.end)!.number;
        const covered = new Set<number>();
        for (const c of await chunk(pages, l)) {
          expect(c.pageStart).toBe(pageOf(c.charStart));
          expect(c.pageEnd).toBe(pageOf(c.charEnd - 1));
          for (let p = c.pageStart; p <= c.pageEnd; p++) covered.add(p);
        }
        expect([...covered].filter((p) => spans.some((s) => s.number === p)).sort((a, b) => a - b)).toEqual(spans.map((s) => s.number));
        expect(doc.length === 0 || covered.size > 0).toBe(true);
      }),
      RUNS,
    );
  });

  it("gives the same chunks and ids on every run, ids made from the document hash and the index", async () => {
    await fc.assert(
      fc.asyncProperty(documentPages, limits, async (pages, l) => {
        const first = await chunk(pages, l);
        expect(await chunk(pages, l)).toEqual(first);
        expect(first.map((c) => c.id)).toEqual(first.map((_, i) => chunkId(DOC_ID, URI, i)));
        expect(first.map((c) => c.index)).toEqual(first.map((_, i) => i));
      }),
      { numRuns: 50 },
    );
  });
});
