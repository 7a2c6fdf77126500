#!/usr/bin/env node
// How well chunks' boxes hold their words, measured with another tool's eyes: every PDF of the
// given folders goes through the default pipeline (Markdown chunks, as shipped), then
// `pdftotext -bbox` (poppler) says where each word of each page stands; a chunk's word counts as
// held when poppler finds it with its middle inside one of the chunk's boxes on one of its pages.
//
//   npm run build && node bench/chunk-boxes.mjs ../shared/corpus/real ../shared/corpus/business
//
// Prints, per document and over all, the share of chunk words held (words: runs of two or more
// letters or digits, lower-cased; the repeated table header of a continued table left out) and
// the share of chunks holding 95 % of their words or more. Needs poppler-utils (pdftotext).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const folders = process.argv.slice(2);
if (folders.length === 0) {
  process.stderr.write("usage: node bench/chunk-boxes.mjs FOLDER...\n");
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), "pagestream-chunk-boxes-"));
try {
  mkdirSync(join(work, "in"));
  for (const folder of folders) {
    for (const f of readdirSync(folder).filter((f) => f.endsWith(".pdf"))) symlinkSync(resolve(folder, f), join(work, "in", `${basename(folder)}-${f}`));
  }
  writeFileSync(
    join(work, "pipeline.yaml"),
    ["source: { type: folder, path: in }", "stages:", "  - type: extract", "  - type: flag-scans", "  - type: strip-furniture", "  - type: dehyphenate", "  - type: chunk", "sinks:", "  - { type: jsonl, path: out/chunks.jsonl }", ""].join("\n"),
  );
  execFileSync(process.execPath, [join(root, "dist/cli.js"), "run", join(work, "pipeline.yaml")], { cwd: work, stdio: ["ignore", "ignore", "inherit"] });
  const chunks = readFileSync(join(work, "out/chunks.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l)).filter((l) => l.metadata);
  const byUri = new Map();
  for (const c of chunks) byUri.set(c.metadata.source_uri, [...(byUri.get(c.metadata.source_uri) ?? []), c]);
  // Words: runs of two or more letters or digits; Chinese, Japanese and Korean text (no spaces
  // between words) counts character by character. Poppler gives right-to-left words in the
  // order their letters are drawn: a word is also held when it stands reversed.
  const WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[\p{L}\p{N}]{2,}/gu;
  const words = (text) => (text.toLowerCase().match(WORD) ?? []).flatMap((w) => (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(w) ? [...w] : [w]));
  let held = 0;
  let total = 0;
  let good = 0;
  let all = 0;
  const rows = [];
  const unread = [];
  for (const [uri, list] of byUri) {
    // Each page's words from poppler, with their middles.
    const xhtml = execFileSync("pdftotext", ["-q", "-cropbox", "-bbox", uri, "-"], { encoding: "utf8", maxBuffer: 1 << 30 });
    const pages = xhtml.split("<page ").slice(1).map((page) =>
      [...page.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({ x: (+m[1] + +m[3]) / 2, y: (+m[2] + +m[4]) / 2, words: words(m[5].replace(/&amp;/g, "&")) })),
    );
    // Poppler without a language's data (no poppler-data here for Japanese and Chinese fonts)
    // reads no words of the document: it cannot say where they stand.
    const anywhere = new Set(pages.flat().flatMap((w) => w.words.flatMap((t) => [t, [...t].reverse().join("")])));
    const ours = list.flatMap((c) => words(c.text));
    if (ours.filter((t) => anywhere.has(t)).length < 0.5 * ours.length) {
      unread.push(basename(uri));
      continue;
    }
    let docHeld = 0;
    let docTotal = 0;
    for (const c of list) {
      const boxes = c.metadata.boxes ? JSON.parse(c.metadata.boxes) : [];
      const inside = new Set();
      for (const b of boxes) for (const w of pages[b.page - 1] ?? []) if (w.x >= b.x0 && w.x <= b.x1 && w.y >= b.y0 && w.y <= b.y1) for (const t of w.words) inside.add(t).add([...t].reverse().join(""));
      const mine = words(c.text.slice(c.metadata.prefix_chars ?? 0));
      const found = mine.filter((t) => inside.has(t)).length;
      docHeld += found;
      docTotal += mine.length;
      all++;
      if (mine.length === 0 || found >= 0.95 * mine.length) good++;
    }
    held += docHeld;
    total += docTotal;
    rows.push([basename(uri), list.length, docTotal ? docHeld / docTotal : 1]);
  }
  rows.sort((a, b) => a[2] - b[2]);
  for (const [name, n, share] of rows) console.log(`${name.padEnd(56)} chunks ${String(n).padStart(4)}  words held ${(100 * share).toFixed(1)} %`);
  if (unread.length) console.log(`not measured (poppler reads under half of their words here): ${unread.join(", ")}`);
  console.log(`ALL documents ${rows.length} chunks ${all} words held ${(100 * held / total).toFixed(2)} % chunks holding >= 95 % ${(100 * good / all).toFixed(1)} %`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
