import { describe, expect, it } from "vitest";
import { renderPageText } from "../../src/text/page-text.js";
import type { Line } from "../../src/core/records.js";
import { buildLine } from "../../src/stages/extract/line-grouping.js";
import { segmentParagraphs } from "../../src/stages/extract/paragraphs.js";
import { run } from "../helpers/runs.js";

const options = { paragraphRatio: 1.45, indentRatio: 1, spaceRatio: 0.25 };
const spacing = { spaceRatio: 0.25, collapseLetterSpacing: true };

/** A line of text at (x, y) whose right end is at `right`. */
function line(text: string, x: number, y: number, right: number, fontSize = 10, extra = {}): Line {
  return buildLine([run(text, x, y, fontSize, right - x, extra)], spacing);
}

function reflow(lines: Line[]): string {
  return renderPageText(lines, segmentParagraphs(lines, options), "reflow");
}

describe("paragraphs", () => {
  it("ends a short heading set a size larger than the one short line of text under it", () => {
    // 12 pt over 11 pt (×1.09) is within one size for line grouping; the heading is short, and
    // so is its text: neither reaches the margin of the paragraph above.
    const lines = [
      line("M. Okafor (chair), J. Lindqvist, P. Ramsay, S. Haddad, T. Brennan. Apologies", 72, 640, 535, 11),
      line("were received from A. Novak.", 72, 626, 220, 11),
      line("1. Minutes of the last meeting", 72, 602, 239, 12),
      line("The minutes of the meeting held on 4 February were agreed.", 72, 582, 463, 11),
    ];
    expect(reflow(lines).split("\n\n")).toEqual([
      "M. Okafor (chair), J. Lindqvist, P. Ramsay, S. Haddad, T. Brennan. Apologies were received from A. Novak.",
      "1. Minutes of the last meeting",
      "The minutes of the meeting held on 4 February were agreed.",
    ]);
  });

  it("starts a paragraph at a vertical gap wider than paragraph_ratio × the median gap", () => {
    const lines = [
      line("The committee met on Tuesday and", 100, 700, 400),
      line("agreed the budget for next year.", 100, 688, 400),
      line("Members then discussed the plan", 100, 664, 400),
      line("for the new library building.", 100, 652, 400),
    ];
    expect(reflow(lines)).toBe("The committee met on Tuesday and agreed the budget for next year.\n\nMembers then discussed the plan for the new library building.");
  });

  it("measures a short line against its own column, not against a wider line at the top of the next", () => {
    const lines = [
      line("The name comes from the movie and one", 40, 160, 292),
      line("reason it might be chosen is the layers.", 40, 148, 292),
      line("As the technique was published by the", 40, 136, 292),
      line("engineers, it is called DeepDream.", 40, 124, 200),
      // The next column starts with a caption reaching further right.
      line("Fig. 2: A caption set in the right column", 300, 600, 560),
    ];
    const paragraphs = segmentParagraphs(lines, options, 0, new Set([4]));
    expect(paragraphs.map((p) => [p.start, p.end])).toEqual([
      [0, 4],
      [4, 5],
    ]);
  });

  it("does not end a paragraph inside a word broken at the line end, across a figure's gap or a column break", () => {
    const lines = [
      line("Two congruent triangles and two more congruent tri-", 100, 700, 400),
      line("angles", 250, 660, 280),
      line("The budget is a fixed part of the monthly sub-", 40, 120, 292),
      line("scription. Most sites chose fifteen percent.", 300, 700, 552),
    ];
    const paragraphs = segmentParagraphs(lines, options, 0, new Set([3]));
    expect(paragraphs.map((p) => [p.start, p.end])).toEqual([
      [0, 2],
      [2, 4],
    ]);
  });

  it("keeps a code listing one paragraph across its blank lines, and ends it at a wider gap", () => {
    const mono = { monospace: true };
    const lines = [
      line("def f():", 100, 700, 148, 10, mono),
      line("x = 1", 124, 689, 154, 10, mono),
      line("y = 2", 124, 678, 154, 10, mono),
      line("return x", 124, 656, 172, 10, mono),
      line("def g():", 100, 590, 148, 10, mono),
      line("return 2", 124, 579, 172, 10, mono),
    ];
    expect(segmentParagraphs(lines, options).map((p) => [p.start, p.end, p.kind])).toEqual([
      [0, 4, "verbatim"],
      [4, 6, "verbatim"],
    ]);
  });

  it("finds LaTeX paragraphs that have no extra gap, only a first-line indent", () => {
    const lines = [
      line("first paragraph runs across the", 100, 700, 400),
      line("whole measure of the column and", 100, 688, 400),
      line("ends here.", 100, 676, 160),
      line("Indented start of the second one", 115, 664, 400),
      line("continues at the margin again.", 100, 652, 400),
    ];
    expect(segmentParagraphs(lines, options).map((p) => [p.start, p.end])).toEqual([
      [0, 3],
      [3, 5],
    ]);
  });

  it("reads lines set flush right as one block: a short one starting far right is no first-line indent", () => {
    // A chart's labels right-aligned at x 400: "Taxation" starts 40 pt right of the line before.
    const labels = ["Education and training", "Public health", "Taxation", "Environment", "Justice"];
    const lines = labels.map((t, i) => line(t, 400 - 5 * t.length, 700 - 12 * i, 400));
    expect(segmentParagraphs(lines, options)).toHaveLength(1);
  });

  it("still finds a first-line indent in justified text whose last line ran full", () => {
    const lines = [
      line("first paragraph runs across the", 100, 700, 400),
      line("whole measure and its last line", 100, 688, 400),
      line("runs full to the margin as well", 100, 676, 400),
      line("Indented start of the second one", 115, 664, 400),
      line("continues at the margin again.", 100, 652, 400),
    ];
    expect(segmentParagraphs(lines, options).map((p) => [p.start, p.end])).toEqual([
      [0, 3],
      [3, 5],
    ]);
  });

  it("does not split a list item whose continuation lines hang indented", () => {
    const lines = [
      line("• The first item of a list is long", 100, 700, 400),
      line("enough to wrap onto a second line", 115, 688, 400),
      line("and onto a third one as well", 115, 676, 380),
    ];
    expect(segmentParagraphs(lines, options)).toHaveLength(1);
  });

  it("sets the items of a list set tight in one block, one to a line, and a list with space between its items a paragraph per item", () => {
    const list = (step: number) => [
      line("The rules that matter most are these:", 100, 700, 300),
      line("• Moor bow to the east, with two lines fore", 100, 688, 400),
      line("and two aft, fenders on the quay side.", 115, 676, 380),
      line("• Keep the walkway clear.", 100, 676 - step, 250),
      line("• Report damage to the office.", 100, 676 - 2 * step, 270),
    ];
    const tight = segmentParagraphs(list(12), options);
    expect(tight.map((p) => p.sameBlock ?? false)).toEqual([false, false, true, true]);
    expect(reflow(list(12))).toBe(
      "The rules that matter most are these:\n\n• Moor bow to the east, with two lines fore and two aft, fenders on the quay side.\n• Keep the walkway clear.\n• Report damage to the office.",
    );
    // 16 pt between items against 12 between lines: LaTeX's default itemize.
    expect(segmentParagraphs(list(16), options).map((p) => p.sameBlock ?? false)).toEqual([false, false, false, false]);
    expect(reflow(list(16)).split("\n\n")).toHaveLength(4);
  });

  it("takes a dash at the start of a line after a full line that stopped mid-sentence for the sentence's own dash, and a dash after a short line for an item", () => {
    const sentence = [
      line("Recurrent neural networks — LSTM networks, to be exact", 100, 700, 400),
      line("— are used in [NV15] together with gated units to build", 99, 688, 400),
      line("a network which can be trained to generate music.", 100, 676, 360),
    ];
    expect(segmentParagraphs(sentence, options)).toHaveLength(1);
    const items = [
      line("We sail at nine from the north quay and are back by six. The", 100, 712, 400),
      line("things to bring on the boat", 100, 700, 250),
      line("— a hat and a coat", 100, 688, 210),
      line("— water", 100, 676, 150),
    ];
    expect(segmentParagraphs(items, options).map((p) => [p.start, p.end])).toEqual([
      [0, 2],
      [2, 3],
      [3, 4],
    ]);
  });

  it("takes a name's initial at the start of a line for the sentence going on, and letter items for items", () => {
    const sentence = [
      line("Present were M. Okafor, J. Lindqvist and P. Ramsay. Apologies were received from", 100, 700, 500),
      line("A. Novak.", 100, 688, 145),
    ];
    expect(segmentParagraphs(sentence, options)).toHaveLength(1);
    const items = [
      line("The committee agreed three changes:", 100, 700, 300),
      line("a) the morning departure moves to", 100, 688, 270),
      line("07:00 from May, and", 115, 676, 215),
      line("b) the east berth closes in April.", 100, 664, 270),
    ];
    expect(segmentParagraphs(items, options).map((p) => [p.start, p.end])).toEqual([
      [0, 1],
      [1, 3],
      [3, 4],
    ]);
    // The first line of the sentence opens with an initial too ("M. Okafor"): "A." does not follow "M.".
    const named = [line("M. Okafor (chair), J. Lindqvist, P. Ramsay. Apologies were received from", 100, 700, 500), line("A. Novak.", 100, 688, 145)];
    expect(segmentParagraphs(named, options)).toHaveLength(1);
    const short = [line("i. apples", 100, 700, 150), line("ii. pears", 100, 688, 150), line("iii. plums", 100, 676, 150)];
    expect(segmentParagraphs(short, options)).toHaveLength(3);
  });

  it("starts a paragraph after a short line that ended a sentence when the next word would have fitted", () => {
    const lines = [
      line("A paragraph set without any gap or", 100, 700, 400),
      line("indent ends on a short line.", 100, 688, 250),
      line("The next one starts at the margin", 100, 676, 400),
      line("and runs on.", 100, 664, 170),
    ];
    expect(segmentParagraphs(lines, options)).toHaveLength(2);
  });

  it("keeps an address block set line by line as one paragraph", () => {
    const lines = [line("Ms Joanna Whitfield", 100, 700, 190), line("Flat 3, Linden Court", 100, 686, 195), line("88 Station Road", 100, 672, 170)];
    expect(segmentParagraphs(lines, options)).toHaveLength(1);
  });

  it("keeps a centred title broken over two lines as one paragraph", () => {
    const lines = [line("Smart Water Metering", 150, 700, 350, 17), line("Pilot", 225, 680, 275, 17)];
    expect(reflow(lines)).toBe("Smart Water Metering Pilot");
  });

  it("starts a paragraph where the font size changes (a heading, a footnote)", () => {
    const lines = [line("Background", 100, 700, 180, 14), line("Body text under the heading", 100, 684, 400, 10)];
    expect(segmentParagraphs(lines, options)).toHaveLength(2);
  });

  it("makes monospaced lines one verbatim paragraph that keeps its line breaks and indentation", () => {
    const mono = { monospace: true };
    const lines = [
      line("The relevant part of the file looks like this:", 100, 700, 330),
      line("[target]", 100, 680, 148, 10, mono),
      line("url = s3://bucket", 100, 668, 202, 10, mono),
      line("/srv/tmp", 136, 656, 184, 10, mono),
    ];
    const paragraphs = segmentParagraphs(lines, options);
    expect(paragraphs.map((p) => p.kind)).toEqual(["text", "verbatim"]);
    expect(renderPageText(lines, paragraphs, "reflow")).toBe("The relevant part of the file looks like this:\n\n[target]\nurl = s3://bucket\n      /srv/tmp");
  });

  it("returns no paragraphs for no lines", () => {
    expect(segmentParagraphs([], options)).toEqual([]);
  });
});

describe("paragraphs: headings run on into their text, labels, bullets on their own line", () => {
  const bold = { bold: true };
  it("ends a short bold line over a line that is not bold: a heading set without space above its text", () => {
    const lines = [line("CALENDAR OF EVENTS", 32, 700, 150, 10, bold), line("Oct. 24 – Staff Learning Day – no school for the pupils of any class.", 32, 688, 400)];
    expect(reflow(lines).split("\n\n")).toEqual(["CALENDAR OF EVENTS", "Oct. 24 – Staff Learning Day – no school for the pupils of any class."]);
  });

  it("keeps a run-in head with the paragraph that goes on from it: a theorem's name, a label ending in a colon", () => {
    // A page that marks its paragraphs by gaps, so that only the bold line's cue can split one.
    const body = (y: number) => [line("Sei X eine Menge und T eine Familie von Teilmengen von X, die", 72, y, 420), line("unter Vereinigungen und endlichen Schnitten abgeschlossen ist.", 72, y - 12, 400), line("Dann heißt T eine Topologie auf der Menge X.", 72, y - 24, 300)];
    for (const head of ["Definition 1", "Bemerkung 2 (Mengen, die offen sind)", "Input:"]) {
      const lines = [...body(760), line(head, 72, 718, 72 + head.length * 5, 10, bold), line("Ein topologischer Raum ist ein Paar (X, T) mit folgenden Eigenschaften", 72, 706, 420), ...body(676)];
      expect(reflow(lines).split("\n\n"), head).toHaveLength(3);
    }
    const heading = [...body(760), line("CALENDAR OF EVENTS", 72, 718, 170, 10, bold), line("Ein topologischer Raum ist ein Paar (X, T) mit folgenden Eigenschaften", 72, 706, 420), ...body(676)];
    expect(reflow(heading).split("\n\n")).toHaveLength(4);
  });

  it("sets a division's label over its title apart from it, unless the title is in capitals too", () => {
    expect(reflow([line("NOTE A", 40, 700, 80, 9.5, bold), line("Significant Accounting Policies", 40, 689, 200, 9.5, bold)]).split("\n\n")).toEqual(["NOTE A", "Significant Accounting Policies"]);
    expect(reflow([line("APPENDIX A", 270, 700, 330, 8), line("AUTOMATICALLY GENERATED TEXTS", 250, 691, 350, 8)]).split("\n\n")).toHaveLength(1);
  });

  it("keeps a bullet drawn on a line of its own, a little higher than its text, with that text", () => {
    const lines = [line("The VM falls back to the interpreter in two cases:", 72, 720, 400), line("•", 80, 701.5, 84), line("The loop body is short. In this case, the VM repeatedly", 90, 700, 400), line("passes the loop header and finds the trace again.", 90, 688, 380)];
    expect(reflow(lines).split("\n\n")).toEqual(["The VM falls back to the interpreter in two cases:", "• The loop body is short. In this case, the VM repeatedly passes the loop header and finds the trace again."]);
  });
});

describe("paragraphs: monospaced prose", () => {
  const mono = (text: string, x: number, y: number) => line(text, x, y, x + text.length * 6, 10, { monospace: true });
  it("reads a typewritten document's stanzas as prose, a paragraph each, and keeps a stanza that looks like code or a drawing verbatim", () => {
    const lines = [
      mono("1.  INTRODUCTION", 71, 700),
      mono("The objectives of FTP are to promote sharing of files (computer", 89, 676),
      mono("programs and/or data) and to transfer data reliably [2].", 89, 664),
      mono("+-------+        +--------+", 107, 640),
      mono("| User  |<------>| Server |", 107, 628),
      mono("+-------+        +--------+", 107, 616),
      mono("1. The server has completed sending data in a transfer mode", 107, 592),
      mono("that requires a close to indicate EOF.", 125, 580),
    ];
    const paragraphs = segmentParagraphs(lines, { ...options, typewriterDocument: true });
    expect(paragraphs.map((p) => [p.kind, lines[p.start]!.text])).toEqual([
      ["text", "1.  INTRODUCTION"],
      ["text", "The objectives of FTP are to promote sharing of files (computer"],
      ["verbatim", "+-------+        +--------+"],
      ["text", "1. The server has completed sending data in a transfer mode"],
    ]);
  });

  it("elsewhere keeps a monospaced block verbatim, unless it is a list item that reads as prose (a licence's conditions in typewriter type)", () => {
    const notice = [mono("This program is free software: you can redistribute it and/or modify", 72, 700), mono("it under the terms of the GNU General Public License.", 72, 688)];
    expect(segmentParagraphs(notice, options).map((p) => p.kind)).toEqual(["verbatim"]);
    const condition = [mono("a) The work must carry prominent notices stating that you modified", 72, 700), mono("it, and giving a relevant date.", 90, 688)];
    expect(segmentParagraphs(condition, options).map((p) => p.kind)).toEqual(["text"]);
  });
});
