/** Paragraphs marked by gaps alone: text typed line by line (ragged, hard line breaks), as licences and letters are. */
import { describe, expect, it } from "vitest";
import { renderPageText } from "../../src/text/page-text.js";
import type { Line } from "../../src/core/records.js";
import { buildLine } from "../../src/stages/extract/line-grouping.js";
import { paragraphGaps } from "../../src/stages/extract/paragraph-gaps.js";
import { segmentParagraphs } from "../../src/stages/extract/paragraphs.js";
import { run } from "../helpers/runs.js";

const options = { paragraphRatio: 1.45, indentRatio: 1, spaceRatio: 0.25 };
const spacing = { spaceRatio: 0.25, collapseLetterSpacing: true };
const line = (text: string, y: number, right: number, fontSize = 10, extra = {}): Line => buildLine([run(text, 72, y, fontSize, right - 72, extra)], spacing);
const reflow = (lines: Line[]) => renderPageText(lines, segmentParagraphs(lines, options), "reflow");
const median = (g: number[]) => [...g].sort((a, b) => a - b)[Math.floor((g.length - 1) / 2)]!;

describe("paragraphs marked by gaps", () => {
  it("keeps the lines of a ragged paragraph typed line by line together, though its lines end short", () => {
    // Every paragraph's lines end where the typist broke them; only the 20 pt gaps mark paragraphs.
    const lines = [
      line('"Contribution" shall mean any work of authorship, including', 700, 390),
      line("the original version of the Work and any modifications or additions", 688, 430),
      line("to that Work, that is intentionally submitted to Licensor.", 676, 409),
      line('"Contributor" shall mean Licensor and any individual or', 656, 435),
      line("Legal Entity on behalf of whom a Contribution has been received.", 644, 425),
      line('"Work" shall mean the work of authorship, whether in Source', 624, 400),
      line("or Object form, made available under the License.", 612, 380),
    ];
    expect(reflow(lines)).toBe(
      '"Contribution" shall mean any work of authorship, including the original version of the Work and any modifications or additions to that Work, that is intentionally submitted to Licensor.\n\n' +
        '"Contributor" shall mean Licensor and any individual or Legal Entity on behalf of whom a Contribution has been received.\n\n' +
        '"Work" shall mean the work of authorship, whether in Source or Object form, made available under the License.',
    );
  });

  it("breaks at a paragraph gap narrower than paragraph_ratio when the page's gaps fall in two groups (1.5 spacing, 1.36 × the line gap)", () => {
    const lines = [
      line('"Standard Version" refers to such a Package if it has not been', 700, 540),
      line("modified in accordance with the wishes of the Copyright Holder.", 681.3, 500),
      line('"Copyright Holder" is whoever is named in the copyright for the package.', 655.9, 520),
      line('"You" is you, if you are thinking about copying or distributing it.', 630.5, 470),
      line('"Reasonable copying fee" is whatever you can justify on the basis of', 605.1, 540),
      line("media cost, duplication charges, time of people involved.", 586.4, 430),
    ];
    expect(reflow(lines).split("\n\n")).toHaveLength(4);
  });

  it("looks at each kind of line apart: a code listing's tighter pitch does not make prose line gaps paragraph gaps", () => {
    const evidence = paragraphGaps(
      [
        ...[1.49, 1.49, 1.49, 2.5, 1.49, 1.49, 2.7, 1.49].map((gap) => ({ gap, kind: { fontSize: 10.9, monospace: false } })),
        ...[1.2, 1.2, 1.2, 1.2].map((gap) => ({ gap, kind: { fontSize: 10, monospace: true } })),
      ],
      1.45,
      median,
    );
    expect(evidence.thresholdFor({ fontSize: 10.9, monospace: false })! / 1.49).toBeGreaterThan(1.3);
    expect(evidence.thresholdFor({ fontSize: 10, monospace: true })).toBeUndefined();
  });

  it("does not claim gaps mark paragraphs when they spread evenly (line gaps stretched by math, a float)", () => {
    const evidence = paragraphGaps(
      [1.2, 1.25, 1.3, 1.35, 1.4, 1.45, 1.5, 1.55, 1.6, 1.65].map((gap) => ({ gap, kind: { fontSize: 10, monospace: false } })),
      1.45,
      median,
    );
    expect(evidence.thresholdFor({ fontSize: 10, monospace: false })).toBeUndefined();
  });
});
