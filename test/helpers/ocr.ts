/**
 * For the OCR tests: the scanned fixtures' ground truth from the manifest, running them through
 * the default stages with `ocr` added, and comparing OCR text with what is printed on the page.
 *
 * OCR is a guess at letters: a speck can turn "bollards" into "boilards". So the text is compared
 * word by word (an order-aware F1, as the corpus scorer computes it) and paragraph by paragraph,
 * and the tests say how close it must be; the structure (paragraphs, furniture, facts) exactly.
 */
import { mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DEFAULT_STAGES, withOcr } from "../../src/pipeline/default-pipeline.js";
import type { Stage } from "../../src/core/plugin.js";
import type { DocumentResult } from "../../src/core/records.js";
import { loadSpec } from "../../src/pipeline/registry.js";
import { processFile } from "../../src/run/process-document.js";
import { findExecutable } from "../../src/stages/ocr/child-process.js";

export interface OcrManifestEntry {
  file: string;
  pages: number;
  scanPages: number[];
  ocr: {
    languages: string[];
    /** The ocr stage's `pages` the fixture is read with, when not the default. */
    pages?: string;
    expected: { reflow: string };
    /** Per page; null for a typeset page. */
    skewDegrees: (number | null)[];
    runningHeader?: string;
    footers?: string[];
    pageLabels?: string[];
    onlyInScan?: string;
    mustContain?: string[];
  };
}

export function ocrFixtures(): OcrManifestEntry[] {
  const manifest = JSON.parse(readFileSync("fixtures/manifest.json", "utf8")) as (OcrManifestEntry | { ocr?: undefined })[];
  return manifest.filter((e): e is OcrManifestEntry => e.ocr !== undefined);
}

export function ocrFixture(file: string): OcrManifestEntry {
  const entry = ocrFixtures().find((e) => e.file === file);
  if (!entry) throw new Error(`${file} is not an OCR fixture in fixtures/manifest.json`);
  return entry;
}

/** The default stages with `ocr` after flag-scans (what `pagestream extract --ocr` runs), `ocr` with these options. */
export async function ocrStages(ocrOptions: Record<string, unknown> = {}, stages = withOcr(DEFAULT_STAGES)): Promise<Stage[]> {
  const context = { baseDir: process.cwd(), warn: () => {} };
  const built: Stage[] = [];
  for (const { type } of stages) {
    const spec = await loadSpec("stage", type, process.cwd());
    built.push(await spec.create(spec.options.parse(type === "ocr" ? ocrOptions : {}), context));
  }
  return built;
}

export function runStages(path: string, stages: readonly Stage[]): Promise<DocumentResult> {
  return processFile(resolve(path), stages);
}

/** Words as the corpus scorer sees them: lower case, edge punctuation off. */
export function words(text: string): string[] {
  return text
    .normalize("NFKC")
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201C\u201D]/g, '"')
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter(Boolean);
}

/** Order-aware word F1 of `text` against `truth` (longest common subsequence). */
export function wordF1(text: string, truth: string): number {
  const a = words(text);
  const b = words(truth);
  if (a.length === 0 && b.length === 0) return 1;
  const row = new Array<number>(b.length + 1).fill(0);
  for (const wa of a) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = wa === b[j - 1] ? diagonal + 1 : Math.max(row[j]!, row[j - 1]!);
      diagonal = above;
    }
  }
  const lcs = row[b.length]!;
  return a.length && b.length ? (2 * lcs) / (a.length + b.length) : 0;
}

export const paragraphsOf = (text: string) => text.split(/\n\s*\n/).filter((p) => p.trim());

/**
 * A folder holding links to `programs` only (found on this PATH), to put on a PATH that has
 * nothing else: a machine where the rest is not installed.
 */
export function pathWith(programs: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "pagestream-path-"));
  for (const program of programs) {
    const found = findExecutable(program);
    if (!found) throw new Error(`${program} is not on PATH`);
    symlinkSync(found, join(dir, program));
  }
  return dir;
}
