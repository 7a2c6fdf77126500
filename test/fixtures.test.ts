/**
 * Every generated fixture against the text its manifest says a correct extractor prints.
 * The manifest is written by fixtures/generate.mjs from the same data it draws.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { textOutput } from "../src/cli/extract-command.js";
import { extractFile, okPages } from "./helpers/extract.js";

interface ManifestEntry {
  file: string;
  pages: number;
  exercises: string;
  expected?: { reflow?: string; preserve?: string; markers?: string; markdown?: string };
  mustContain?: string[];
  mustNotContain?: string[];
  emptyPages?: number[];
  pageRanges?: { pages: string; reflow?: string; error?: string }[];
  /** "default" when the expectations are for the default stages (cleaned text), not extract alone. */
  stages?: "default";
  orderSource?: string;
  columns?: number | "uncertain";
  dehyphenated?: { page: number; left: string; right: string; result: string }[];
  scanDocument?: boolean;
  scanPages?: number[];
  strayText?: { page: number; text: string }[];
  warnings?: string[];
  pageLabels?: (string | null)[];
}

const manifest: ManifestEntry[] = JSON.parse(readFileSync("fixtures/manifest.json", "utf8"));
const fixture = (file: string) => join("fixtures", file);

/**
 * Expectations written for the base dehyphenation rule alone (docs/extraction.md §10.1: lower case
 * joins, a capital or digit keeps the hyphen, no space): the default stages with the dehyphenate
 * stage's evidence and dictionary off, which would otherwise restore "well-known".
 */
const BASE_RULE: Record<string, Record<string, Record<string, unknown>>> = {
  "hyphenated-lines.pdf:reflow": { dehyphenate: { evidence: "none", dictionary: "none" } },
};

const stagesOf = (entry: ManifestEntry) => (entry.stages === "default" ? "default" : "extract");

describe("fixtures", () => {
  it("the manifest lists every fixture PDF, and every listed file exists", () => {
    const onDisk = [
      ...readdirSync("fixtures").filter((f) => f.endsWith(".pdf")),
      ...readdirSync("fixtures/samples").filter((f) => f.endsWith(".pdf")).map((f) => `samples/${f}`),
    ].sort();
    expect(manifest.map((e) => e.file).sort()).toEqual(onDisk);
    for (const e of manifest) expect(e.exercises, e.file).toBeTruthy();
  });

  const regenerated = mkdtempSync(join(tmpdir(), "pagestream-fixtures-"));
  afterAll(() => rmSync(regenerated, { recursive: true, force: true }));
  it("the committed fixtures are exactly what fixtures/generate.mjs makes (run `npm run fixtures`)", () => {
    execFileSync(process.execPath, ["fixtures/generate.mjs", "--out", regenerated]);
    for (const e of manifest) expect(readFileSync(join(regenerated, e.file)).equals(readFileSync(fixture(e.file))), e.file).toBe(true);
    expect(readFileSync(join(regenerated, "manifest.json"), "utf8")).toBe(readFileSync("fixtures/manifest.json", "utf8"));
    // The damaged and hostile files (fixtures/hostile.mjs), encrypted ones included.
    const bad: { file: string }[] = JSON.parse(readFileSync("fixtures/bad/manifest.json", "utf8"));
    for (const e of bad) expect(readFileSync(join(regenerated, "bad", e.file)).equals(readFileSync(join("fixtures/bad", e.file))), `bad/${e.file}`).toBe(true);
    expect(readFileSync(join(regenerated, "bad/manifest.json"), "utf8")).toBe(readFileSync("fixtures/bad/manifest.json", "utf8"));
  });

  for (const entry of manifest) {
    describe(entry.file, () => {
      for (const mode of ["reflow", "preserve", "markers"] as const) {
        const expected = entry.expected?.[mode];
        if (expected === undefined) continue;
        const baseRule = BASE_RULE[`${entry.file}:${mode}`];
        it(`prints the expected ${mode} text${baseRule ? " (the base dehyphenation rule)" : ""}`, async () => {
          const options = { mode: mode === "markers" ? "reflow" : mode };
          const pages = okPages(await (baseRule ? extractFile(fixture(entry.file), options, "default", baseRule) : extractFile(fixture(entry.file), options, stagesOf(entry))));
          expect(textOutput(pages, "plain", mode === "markers").trimEnd()).toBe(expected);
        });
      }

      if (entry.expected?.markdown !== undefined) {
        it("prints the expected Markdown", async () => {
          const pages = okPages(await extractFile(fixture(entry.file), {}, stagesOf(entry)));
          expect(textOutput(pages, "markdown", false).trimEnd()).toBe(entry.expected!.markdown);
        });
      }

      if (entry.mustContain || entry.mustNotContain) {
        it("contains what it must and nothing it must not", async () => {
          const text = textOutput(okPages(await extractFile(fixture(entry.file), {}, stagesOf(entry))), "plain", false);
          for (const s of entry.mustContain ?? []) expect(text).toContain(s);
          for (const s of entry.mustNotContain ?? []) expect(text).not.toContain(s);
        });
      }

      it(`has ${entry.pages} page(s)${entry.emptyPages ? `, empty exactly on ${entry.emptyPages.join(", ")}` : ""}`, async () => {
        const pages = okPages(await extractFile(fixture(entry.file)));
        expect(pages).toHaveLength(entry.pages);
        if (entry.emptyPages) expect(pages.filter((p) => p.empty).map((p) => p.number)).toEqual(entry.emptyPages);
      });

      if (entry.orderSource || entry.columns !== undefined) {
        it(`is read in ${entry.orderSource ?? "its"} order${entry.columns !== undefined ? `, ${entry.columns} column(s)` : ""}`, async () => {
          const [page] = okPages(await extractFile(fixture(entry.file)));
          if (entry.orderSource) expect(page!.orderSource).toBe(entry.orderSource);
          if (entry.columns !== undefined) expect(page!.columns).toBe(entry.columns);
        });
      }

      if (entry.stages === "default") {
        it("reports what the cleaning stages decided: hyphens, scans, stray text, warnings, page labels", async () => {
          const result = await extractFile(fixture(entry.file), {}, "default");
          const pages = okPages(result);
          if (entry.dehyphenated) {
            const got = pages.flatMap((p) => (p.dehyphenated ?? []).map(({ left, right, result }) => ({ page: p.number, left, right, result })));
            expect(got).toEqual(entry.dehyphenated);
          }
          if (entry.scanPages) expect(pages.filter((p) => p.scan).map((p) => p.number)).toEqual(entry.scanPages);
          if (entry.scanDocument !== undefined && result.status === "ok") expect(result.document.scan).toBe(entry.scanDocument);
          for (const { page, text } of entry.strayText ?? []) expect(pages[page - 1]!.strayText).toBe(text);
          if (entry.warnings) expect(result.warnings.map((w) => w.message)).toEqual(entry.warnings);
          if (entry.pageLabels) expect(pages.map((p) => p.furniture?.pageLabel ?? null)).toEqual(entry.pageLabels);
        });
      }

      for (const range of entry.pageRanges ?? []) {
        it(`--pages ${range.pages} ${range.error ? "fails with a message saying how many pages there are" : "gives the pages that exist"}`, async () => {
          const result = await extractFile(fixture(entry.file), { pages: range.pages });
          if (range.error) {
            expect(result.status === "failed" && result.error.message).toBe(range.error);
          } else {
            expect(textOutput(okPages(result), "plain", false).trimEnd()).toBe(range.reflow);
          }
        });
      }
    });
  }

  it("keeps real hyphens at line ends without adding a space (until the dehyphenate stage decides)", async () => {
    const text = textOutput(okPages(await extractFile(fixture("hyphenated-lines.pdf"))), "plain", false);
    for (const word of ["Osei-Mensah", "COVID-19", "client-Side", "2026-03-14", "well-known", "self-contained"]) expect(text).toContain(word);
    expect(text).not.toMatch(/\p{L}- \p{L}/u);
  });
});
