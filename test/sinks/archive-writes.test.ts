/**
 * What the archive stores must not depend on how fast it is written: the rows hash is the
 * sha256 of the document's rows as one JSON string (a re-run compares it with the hash stored by
 * earlier versions), and the ranking bounds are the pairs `addPoint` gives, merged chunk by
 * chunk and then into what each block held, as they always were.
 */
import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { prepareArchive } from "../../src/sinks/sqlite/archive-schema.js";
import { documentRows } from "../../src/sinks/sqlite/document-rows.js";
import { asciiRowTokens, FtsTokens, SEPARATORS_BEYOND_ASCII } from "../../src/sinks/sqlite/fts-tokens.js";
import { addPoint, blockOf, FTS_WEIGHTS, ImpactWriter, RECORDED_WEIGHT, type ImpactChunk, type ImpactPoint } from "../../src/sinks/sqlite/term-impacts.js";
import { heading, page, result, text } from "../stages/chunk-fixtures.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pagestream-archive-writes-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the archive's rows", () => {
  it("hashes a document's rows as the sha256 of their JSON as one string, quotes, newlines and all", async () => {
    const doc = await result(
      [
        page(1, [heading("Berth \"A\" Notice", 16), text("The east berth closes on the third of May.", "Fishing vessels use the outer wall.")]),
        page(2, [text("Dues: £4 a tonne\tpayable at the quay — 東京 office.")]),
      ],
      { title: "Berth Notice", limits: { maxTokens: 12 } },
    );
    const { document, pages, chunks } = documentRows(doc);
    expect(pages).toHaveLength(2);
    expect(chunks.length).toBeGreaterThan(2);
    const { rows_hash, ...rest } = document;
    expect(rows_hash).toBe(createHash("sha256").update(JSON.stringify({ document: rest, pages, chunks })).digest("hex"));
  });
});

describe("the ranking bounds", () => {
  it("are the pairs addPoint gives, chunk by chunk within a write, then merged into the block's stored pairs", () => {
    const db = new Database(join(dir, "archive.sqlite"));
    prepareArchive(db, { stemming: "none", trigram: false });
    const tokenize = db.prepare("SELECT value FROM archive_meta WHERE key = 'fts_tokenize'").pluck().get() as string;
    db.prepare("INSERT INTO documents (uri, document_id, status, warnings, chunk_count, ingested_at, config_hash, rows_hash) VALUES ('/in/a.pdf', NULL, 'ok', '[]', 0, '', '', '')").run();
    const insert = db.prepare(
      "INSERT INTO chunks (id, document_row, chunk_index, text, title, page_start, page_end, page_labels, char_start, char_end, prefix_chars, token_count, headings, flags, cjk) VALUES (?, 1, ?, ?, ?, 1, 1, '[]', 0, 0, 0, 0, '[]', '[]', ?)",
    );
    // Chunks where "quay" occurs more often the longer they are (2 to 7 times): more pairs than a
    // block keeps, so pairs merge; "berth" from 0 to 6 times, in capitals too, and in the title of
    // every other chunk; in a few chunks text that is not ASCII (counted by FTS5 itself). Three
    // blocks, written in batches that share blocks.
    const chunkText = (i: number) => {
      const quay = 2 + ((i * 5) % 6);
      return [...Array(quay).fill("quay"), ...Array((i * 3) % 7).fill(i % 3 ? "Berth" : "BERTH"), ...Array(4 * quay + (i % 4)).fill("filler"), i % 11 === 0 ? "café" : "tide"].join(" ");
    };
    const writer = new ImpactWriter(db, tokenize);
    const reference = new FtsTokens(db, tokenize, FTS_WEIGHTS);
    const expected = new Map<string, ImpactPoint[]>();
    let index = 0;
    for (const size of [40, 100, 90, 70]) {
      const batch: ImpactChunk[] = [];
      for (let k = 0; k < size; k++, index++) {
        const row = { text: chunkText(index), title: index % 2 ? "Berth notice" : "", cjk: index % 13 === 0 ? "東京 京都" : "" };
        batch.push({ seq: Number(insert.run(`c${index}`, index, row.text, row.title, row.cjk).lastInsertRowid), ...row });
      }
      writer.add(batch);
      // The same bounds, from the pure pieces.
      const added = new Map<string, ImpactPoint[]>();
      reference.count(batch.map((c) => [c.text, c.title, c.cjk]), RECORDED_WEIGHT).forEach(({ length, weighted }, i) => {
        for (const [term, weight] of weighted) {
          const key = `${term} ${blockOf(batch[i]!.seq)}`;
          added.set(key, addPoint(added.get(key) ?? [], [weight, length]));
        }
      });
      for (const [key, points] of added) {
        const stored = expected.get(key);
        expected.set(key, stored ? points.reduce(addPoint, stored) : points);
      }
    }
    const rows = db.prepare("SELECT term, block, impacts FROM term_impacts").all() as { term: string; block: number; impacts: string }[];
    expect(new Map(rows.map((r) => [`${r.term} ${r.block}`, JSON.parse(r.impacts) as ImpactPoint[]]))).toEqual(expected);
    // The case worth guarding: pairs merged past the most kept.
    expect(expected.get("quay 1")).toHaveLength(4);
    expect(new Set(rows.map((r) => r.block))).toEqual(new Set([0, 1, 2]));
    writer.close();
    reference.close();
    db.close();
  });
});

describe("the tokens counted without FTS5", () => {
  it("splits at each character beyond ASCII it counts itself as FTS5 does, and leaves it out of every token", () => {
    const db = new Database(":memory:");
    const fts = new FtsTokens(db, "unicode61 remove_diacritics 2", [1, 0.5, 1]);
    const separators: string[] = [];
    for (const [, from, to] of SEPARATORS_BEYOND_ASCII.matchAll(/(.)(?:-(.))?/gu)) {
      for (let code = from!.charCodeAt(0); code <= (to ?? from!).charCodeAt(0); code++) separators.push(String.fromCharCode(code));
    }
    expect(separators.length).toBeGreaterThan(600);
    const rows = separators.map((s) => [`Quay${s}quay${s}${s}B`, "", ""]);
    // FTS5's own tokens of each row: two words, whatever the separator.
    const counted = fts.count(rows, 0);
    expect(separators.filter((_, i) => counted[i]!.length !== 3 || counted[i]!.weighted.get("quay") !== 2 || counted[i]!.weighted.get("b") !== 1)).toEqual([]);
    rows.forEach((row, i) => expect([separators[i], asciiRowTokens(row, [1, 0.5, 1], 0, [3, 0, 0])]).toEqual([separators[i], counted[i]]));
    fts.close();
    db.close();
  });

  it("counts English with typographic punctuation as FTS5 does, and leaves other text beyond ASCII to it", () => {
    const db = new Database(":memory:");
    const fts = new FtsTokens(db, "unicode61 remove_diacritics 2", [1, 0.5, 1]);
    const row = ["The harbour’s dues — £4 · “quay” → berth… 10 × 2 ≤ 30 • Berth ±5 °C", "Harbour Dues", ""];
    const [scratch] = fts.count([row], 1);
    const perColumn = row.map((text) => fts.count([[text, "", ""]], 1)[0]!.length);
    expect(asciiRowTokens(row, [1, 0.5, 1], 1, perColumn)).toEqual(scratch);
    for (const kept of ["café", "µm", "x²", "½", "ª", "₺"]) expect([kept, asciiRowTokens([`quay ${kept}`, "", ""], [1, 0.5, 1], 1, [2, 0, 0])]).toEqual([kept, undefined]);
    fts.close();
    db.close();
  });
});
