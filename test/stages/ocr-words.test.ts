/** OCR words → runs → lines, without Tesseract: TSV rows and word boxes written by hand. */
import { describe, expect, it } from "vitest";
import type { PageRecord } from "../../src/core/records.js";
import { layoutParagraphs, layoutRuns } from "../../src/stages/extract/page-layout.js";
import extract, { layoutOptions } from "../../src/stages/extract/stage.js";
import { confidenceOf } from "../../src/stages/ocr/confidence.js";
import { languagePackage } from "../../src/stages/ocr/environment.js";
import { greyBmp } from "../../src/stages/ocr/bmp.js";
import { inkBox } from "../../src/stages/ocr/ink-crop.js";
import { ocrRuns } from "../../src/stages/ocr/ocr-runs.js";
import { needsOcr } from "../../src/stages/ocr/page-selection.js";
import { encodePgm, readPgm } from "../../src/stages/ocr/pgm.js";
import { lineSizes } from "../../src/stages/ocr/text-size.js";
import { parseTsv, type OcrWord } from "../../src/stages/ocr/tsv.js";

const HEADER = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext";

/** A page 612 × 792 pt read at 300 dpi: 2550 × 3300 px, 1 pt = 300/72 px. */
const FRAME = { width: 612, height: 792, imageWidth: 2550, imageHeight: 3300 };
const PX = 300 / 72;

/**
 * Boxes for the words of printed lines at 300 dpi: 11 pt text (ascender 0.73 em, x-height 0.53,
 * descender 0.21), lines `pitch` pt apart from `top` pt, words set 0.3 em apart, and the whole
 * turned `skew` degrees (counter-clockwise) around the page centre like a scan.
 */
function scannedLines(lines: string[][], { top = 100, pitch = 14, size = 11, skew = 0, left = 72 } = {}): OcrWord[] {
  const em = size * PX;
  const angle = (skew * Math.PI) / 180;
  const out: OcrWord[] = [];
  lines.forEach((line, l) => {
    let x = left * PX;
    const baseline = (top + l * pitch) * PX;
    line.forEach((text) => {
      const width = text.length * 0.5 * em;
      const ascent = /[A-Zbdfhkl0-9]/.test(text) ? 0.73 : /[tij]/.test(text) ? 0.65 : 0.53;
      const descent = /[gjpqy]/.test(text) ? 0.21 : 0;
      // Turn the box's lower left corner around the page centre; a small skew keeps boxes upright.
      const cx = FRAME.imageWidth / 2;
      const cy = FRAME.imageHeight / 2;
      const dx = x - cx;
      const dy = baseline + descent * em - cy;
      const bx = cx + dx * Math.cos(angle) + dy * Math.sin(angle);
      const by = cy - dx * Math.sin(angle) + dy * Math.cos(angle);
      const height = (ascent + descent) * em;
      out.push({ text, left: Math.round(bx), top: Math.round(by - height), width: Math.round(width), height: Math.round(height), confidence: 95, block: 1, paragraph: 1, line: l + 1 });
      x += width + 0.3 * em;
    });
  });
  return out;
}

const PROSE = [
  ["The", "north", "quay", "wall", "was", "inspected", "from", "the", "water"],
  ["and", "from", "the", "deck", "between", "the", "fourth", "and", "ninth"],
  ["of", "June,", "when", "divers", "examined", "the", "face", "of", "it."],
];

describe("Tesseract TSV", () => {
  it("keeps the words (level 5) with their line ids, boxes and confidences, and drops empty ones", () => {
    const tsv = [
      HEADER,
      "1\t1\t0\t0\t0\t0\t0\t0\t2550\t3300\t-1\t",
      "4\t1\t1\t1\t1\t0\t300\t400\t500\t40\t-1\t",
      "5\t1\t1\t1\t1\t1\t300\t400\t120\t40\t96.5\tQuay",
      "5\t1\t1\t1\t1\t2\t440\t410\t60\t30\t91\twall",
      "5\t1\t1\t1\t1\t3\t520\t410\t10\t30\t0\t ",
      "5\t1\t2\t1\t1\t1\t300\t600\t80\t40\t-1\tsurvey",
    ].join("\n");
    expect(parseTsv(tsv)).toEqual([
      { text: "Quay", left: 300, top: 400, width: 120, height: 40, confidence: 96.5, block: 1, paragraph: 1, line: 1 },
      { text: "wall", left: 440, top: 410, width: 60, height: 30, confidence: 91, block: 1, paragraph: 1, line: 1 },
      { text: "survey", left: 300, top: 600, width: 80, height: 40, confidence: 0, block: 2, paragraph: 1, line: 1 },
    ]);
  });

  it("refuses output that is not Tesseract's TSV (hOCR, plain text)", () => {
    expect(() => parseTsv("<?xml version='1.0'?>\n<html>")).toThrow(/not Tesseract TSV output/);
    expect(() => parseTsv("")).toThrow(/not Tesseract TSV output/);
  });
});

describe("OCR words → runs", () => {
  it("puts the words of a line on one baseline, in points, y up, with a space before every word but the first", () => {
    const { runs, skewDegrees } = ocrRuns(scannedLines([["The", "quay", "wall"]]), FRAME, { deskew: true });
    expect(skewDegrees).toBe(0);
    expect(runs.map((r) => r.text)).toEqual(["The", "quay", "wall"]);
    expect(new Set(runs.map((r) => r.y)).size).toBe(1);
    expect(runs[0]!.y).toBeCloseTo(792 - 100, 0);
    expect(runs[0]!.x).toBeCloseTo(72, 0);
    expect(runs.map((r) => r.separateWord ?? false)).toEqual([false, true, true]);
    expect(runs[0]!.fontSize).toBeCloseTo(11, 0);
  });

  it("finds the tilt of a page scanned 1.5° askew and takes it out: lines level, left edges straight", () => {
    const { runs, skewDegrees } = ocrRuns(scannedLines(PROSE, { skew: 1.5 }), FRAME, { deskew: true });
    expect(skewDegrees).toBeCloseTo(1.5, 1);
    const byLine = [0, 1, 2].map((l) => runs.slice(l * 9, l * 9 + 9));
    for (const line of byLine) expect(Math.max(...line.map((r) => r.y)) - Math.min(...line.map((r) => r.y))).toBe(0);
    const lefts = byLine.map((line) => line[0]!.x);
    expect(Math.max(...lefts) - Math.min(...lefts)).toBeLessThan(0.6);
    expect(byLine[0]![0]!.y - byLine[1]![0]!.y).toBeCloseTo(14, 0);
  });

  it("leaves the tilt in with deskew off", () => {
    const { runs, skewDegrees } = ocrRuns(scannedLines(PROSE, { skew: 1.5 }), FRAME, { deskew: false });
    expect(skewDegrees).toBe(0);
    const lefts = [0, 1, 2].map((l) => runs[l * 9]!.x);
    expect(Math.max(...lefts) - Math.min(...lefts)).toBeGreaterThan(0.5);
  });

  it("drops specks of dirt read as punctuation, keeps real dashes", () => {
    const words = scannedLines([["Quay", "wall", "-", "north"]]);
    const dash = words[2]!;
    words[2] = { ...dash, top: dash.top + 40, height: 4, width: 28 };
    words.push({ text: ";", left: 1900, top: 380, width: 3, height: 3, confidence: 11, block: 1, paragraph: 1, line: 1 });
    const { runs, words: kept } = ocrRuns(words, FRAME, { deskew: true });
    expect(runs.map((r) => r.text)).toEqual(["Quay", "wall", "-", "north"]);
    expect(kept.map((w) => w.text)).toEqual(["Quay", "wall", "-", "north"]);
  });
});

describe("OCR font sizes", () => {
  const line = (heights: [string, number][]) => heights.map(([text, height]) => ({ text, height }));

  it("gives lines of one size exactly one size, and a heading another", () => {
    const sizes = lineSizes([
      line([["Condition", 64], ["on", 47], ["the", 64], ["wall", 64]]),
      line([["The", 33], ["north", 34], ["quay", 43], ["wall", 33]]),
      line([["and", 34], ["from", 33], ["the", 33], ["deck", 34]]),
      line([["of", 34], ["June", 33], ["when", 34], ["divers", 34]]),
    ]);
    expect(sizes[1]).toBe(sizes[2]);
    expect(sizes[2]).toBe(sizes[3]);
    expect(sizes[0]! / sizes[1]!).toBeGreaterThan(1.7);
  });

  it("measures a line whose boxes Tesseract drew as tall as the line by its x-height words (Apache 2.0, page 2)", () => {
    const sizes = lineSizes([
      line([["such", 21], ["Contribution", 33], ["was", 21], ["submitted.", 33], ["If", 33], ["You", 33]]),
      line([["(including", 68], ["a", 21], ["cross-claim", 68], ["or", 22], ["counterclaim", 68], ["that", 68], ["the", 68], ["Work", 68]]),
      line([["incorporated", 44], ["within", 33], ["the", 33], ["Work", 33], ["constitutes", 33], ["or", 21]]),
    ]);
    expect(sizes[1]! / sizes[0]!).toBeGreaterThan(0.9);
    expect(sizes[1]! / sizes[0]!).toBeLessThan(1.1);
  });

  it("is not thrown by a speck that makes one box of a small line taller (a scanned running header)", () => {
    const [header] = lineSizes([line([["Kestrel", 53], ["Harbour", 45], ["Wall", 28], ["2025", 27], ["Survey", 32]])]);
    expect(header! / (28 / 0.73)).toBeLessThan(1.05);
  });
});

describe("OCR runs through extraction's assembly", () => {
  it("reads a tilted scan of two gap-separated paragraphs as two paragraphs, each line joined", () => {
    const words = [
      ...scannedLines(PROSE, { skew: -1.2 }),
      ...scannedLines([["Most", "of", "the", "wall", "is", "sound", "and", "the", "joints"], ["have", "held."]], { skew: -1.2, top: 100 + 3 * 14 + 8 }).map((w) => ({ ...w, paragraph: 2 })),
    ];
    const layout = layoutOptions(extract.options.parse({}));
    const { runs } = ocrRuns(words, FRAME, { deskew: true });
    const { paragraphs, text } = layoutParagraphs(layoutRuns(runs, layout, "OCR"), layout);
    expect(paragraphs).toHaveLength(2);
    expect(text).toBe(
      "The north quay wall was inspected from the water and from the deck between the fourth and ninth of June, when divers examined the face of it.\n\nMost of the wall is sound and the joints have held.",
    );
  });
});

describe("which pages OCR reads", () => {
  const page = (facts: Partial<PageRecord>) => ({ type: "page", number: 1, text: "", ...facts }) as PageRecord;
  it("scans by default; garbled pages when asked; every page with all; never a good text layer otherwise", () => {
    expect(needsOcr(page({ scan: true }), "scans")).toBe(true);
    expect(needsOcr(page({ garbled: 0.4 }), "scans")).toBe(false);
    expect(needsOcr(page({ garbled: 0.4 }), "scans-and-garbled")).toBe(true);
    expect(needsOcr(page({ text: "A good text layer." }), "scans-and-garbled")).toBe(false);
    expect(needsOcr(page({ text: "A good text layer." }), "all")).toBe(true);
  });
});

describe("OCR facts", () => {
  it("mean confidence to one decimal, and the words under the threshold", () => {
    const w = (confidence: number) => ({ text: "x", left: 0, top: 0, width: 1, height: 1, confidence, block: 1, paragraph: 1, line: 1 });
    expect(confidenceOf([w(96), w(90), w(41.5)], 60)).toEqual({ words: 3, meanConfidence: 75.8, lowConfidenceWords: 1 });
    expect(confidenceOf([], 60)).toEqual({ words: 0, meanConfidence: 0, lowConfidenceWords: 0 });
  });

  it("names the Debian package of a language pack", () => {
    expect(languagePackage("deu")).toBe("tesseract-ocr-deu");
    expect(languagePackage("chi_sim")).toBe("tesseract-ocr-chi-sim");
  });
});

describe("PGM page images", () => {
  it("writes and reads back a binary 8-bit PGM, and refuses a truncated one", () => {
    const image = encodePgm(new Uint8Array([0, 128, 255, 7, 8, 9]), 3, 2);
    expect(image.pgm.subarray(0, 11).toString("latin1")).toBe("P5\n3 2\n255\n");
    expect(readPgm(image.pgm)).toMatchObject({ width: 3, height: 2 });
    expect(() => readPgm(image.pgm.subarray(0, 14))).toThrow(/truncated/);
    expect(() => readPgm(Buffer.from("P6\n3 2\n255\n"))).toThrow(/not an 8-bit binary PGM/);
  });
});

describe("cropping a page image to its ink", () => {
  /** A white page with a dark block (the text) and single-pixel specks in the margins. */
  function page(width: number, height: number, block: [number, number, number, number], specks: [number, number][]) {
    const grey = new Uint8Array(width * height).fill(255);
    const [x0, y0, x1, y1] = block;
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) grey[y * width + x] = 20;
    for (const [x, y] of specks) grey[y * width + x] = 0;
    return encodePgm(grey, width, height);
  }

  it("cuts the white margins off, ignoring specks, keeps a small border, and says where the crop sits", () => {
    const image = page(1000, 1400, [200, 300, 700, 900], [[10, 10], [990, 1390], [5, 700]]);
    expect(inkBox(image)).toEqual({ left: 180, top: 280, width: 540, height: 640 });
  });

  it("finds an edge of ink that only specks spread over many rows make (a column counts its dark pixels down the whole page)", () => {
    const image = page(1000, 1400, [200, 300, 700, 900], [[100, 50], [100, 1000], [100, 1300]]);
    expect(inkBox(image)).toEqual({ left: 80, top: 280, width: 640, height: 640 });
  });

  it("leaves a page alone that is ink to its edges, or blank", () => {
    const full = page(500, 700, [5, 5, 495, 695], []);
    expect(inkBox(full)).toEqual({ left: 0, top: 0, width: 500, height: 700 });
    const blank = page(500, 700, [0, 0, 0, 0], [[100, 100]]);
    expect(inkBox(blank)).toEqual({ left: 0, top: 0, width: 500, height: 700 });
  });
});

describe("the grey BMP Tesseract is given", () => {
  it("holds the box of the page, rows bottom up and padded to 4 bytes, a palette of the 256 greys, and the dpi", () => {
    // 6 × 4 pixels, each the grey 10·row + column.
    const grey = Uint8Array.from({ length: 24 }, (_, i) => 10 * Math.floor(i / 6) + (i % 6));
    const bmp = greyBmp(encodePgm(grey, 6, 4), { left: 1, top: 1, width: 3, height: 2 }, 300);
    expect(bmp.subarray(0, 2).toString("latin1")).toBe("BM");
    expect([bmp.readUInt32LE(2), bmp.readUInt32LE(10), bmp.readInt32LE(18), bmp.readInt32LE(22), bmp.readUInt16LE(28), bmp.readInt32LE(38)]).toEqual([
      14 + 40 + 1024 + 8,
      14 + 40 + 1024,
      3,
      2,
      8,
      11811,
    ]);
    expect([...bmp.subarray(54 + 4 * 200, 54 + 4 * 201)]).toEqual([200, 200, 200, 0]);
    // The last row of the box first: 21 22 23, then 11 12 13, each padded to 4 bytes.
    expect([...bmp.subarray(14 + 40 + 1024)]).toEqual([21, 22, 23, 0, 11, 12, 13, 0]);
  });
});
