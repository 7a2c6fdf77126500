import { beforeAll, describe, expect, it } from "vitest";
import { loadPdfJs } from "../../src/stages/extract/pdfjs-loader.js";
import { regionOfLine, ruleBetweenLines, rulesThroughLine } from "../../src/stages/extract/ruled-lines.js";
import { axisRulings, drawnSegments, tableRulings, type DrawingOps, type Rule, type Segment } from "../../src/stages/extract/rulings.js";
import { run } from "../helpers/runs.js";

/** pdf.js's operator codes, as the extract stage hands them over. */
let OPS: DrawingOps;
beforeAll(async () => {
  OPS = (await loadPdfJs()).OPS;
});

// pdf.js's path encoding inside constructPath (DrawOPS).
const M = 0;
const L = 1;
const C = 2;
const Z = 4;

/** A synthetic operator list: [op name, args] pairs as pdf.js's evaluator emits them. */
function ops(list: [keyof DrawingOps, unknown[] | null][]): Segment[] {
  return drawnSegments(
    list.map(([name]) => OPS[name]),
    list.map(([, args]) => args),
    OPS,
  );
}

/** constructPath painted by `paint`, with the path's points as pdf.js packs them. */
function path(paint: keyof DrawingOps, data: number[]): [keyof DrawingOps, unknown[]] {
  return ["constructPath", [OPS[paint], [new Float32Array(data)], null]];
}

const rect = (x: number, y: number, w: number, h: number) => [M, x, y, L, x + w, y, L, x + w, y + h, L, x, y + h, Z];
const round = (segments: Segment[]) => segments.map((s) => [s.x0, s.y0, s.x1, s.y1].map((v) => Math.round(v * 100) / 100));

describe("drawn segments (synthetic operator lists)", () => {
  it("reads a stroked rectangle's four sides, placed by the matrix in force", () => {
    const segments = ops([
      ["save", null],
      ["transform", [2, 0, 0, 2, 100, 50]],
      path("stroke", rect(0, 0, 10, 5)),
      ["restore", null],
    ]);
    expect(round(segments)).toEqual([
      [100, 50, 120, 50],
      [120, 50, 120, 60],
      [120, 60, 100, 60],
      [100, 60, 100, 50],
    ]);
  });

  it("leaves the matrix a restore undoes, and applies a form XObject's own matrix only inside it", () => {
    const segments = ops([
      ["save", null],
      ["transform", [1, 0, 0, 1, 500, 500]],
      ["restore", null],
      ["paintFormXObjectBegin", [[1, 0, 0, 1, 0, 100], [0, 0, 50, 50]]],
      path("stroke", [M, 0, 0, L, 40, 0]),
      ["paintFormXObjectEnd", null],
      path("stroke", [M, 0, 0, L, 40, 0]),
    ]);
    expect(round(segments)).toEqual([
      [0, 100, 40, 100],
      [0, 0, 40, 0],
    ]);
  });

  it("takes a filled rectangle thin enough to be a rule as its middle line, and no shaded cell or curve", () => {
    const segments = ops([
      path("fill", rect(50, 200, 300, 0.8)), // a booktabs rule
      path("fill", rect(120, 100, 0.6, 80)), // a column rule
      path("fill", rect(50, 300, 300, 14)), // a shaded row
      path("stroke", [M, 0, 0, C, 10, 10, 20, 10, 30, 0]), // a curve
      path("fill", [M, 0, 400, L, 20, 420, L, 0, 440, Z]), // a triangle
    ]);
    expect(round(segments)).toEqual([
      [50, 200.4, 350, 200.4],
      [120.3, 100, 120.3, 180],
    ]);
  });

  it("draws nothing for a path that is only ended (a clipping path)", () => {
    expect(ops([["constructPath", [0, [new Float32Array(rect(0, 0, 100, 100))], null]]])).toEqual([]);
  });
});

describe("axis rulings", () => {
  it("merges a rule drawn cell by cell into one, and drops slanted lines and marks", () => {
    const pieces: Segment[] = [
      { x0: 50, y0: 100, x1: 120, y1: 100 },
      { x0: 122, y0: 100.4, x1: 200, y1: 100.4 }, // the next cell's side, 2 pt on, 0.4 pt off
      { x0: 10, y0: 10, x1: 60, y1: 60 }, // slanted
      { x0: 300, y0: 50, x1: 302, y1: 50 }, // a 2 pt dash
    ];
    const { horizontal, vertical } = axisRulings(pieces);
    expect(horizontal).toEqual([{ at: 100.2, from: 50, to: 200 }]);
    expect(vertical).toEqual([]);
  });

  it("turns rules into the frame of a page read sideways", () => {
    // Text drawn at 90°: a line along the page's y axis is horizontal in the text's frame.
    const { horizontal, vertical } = axisRulings([{ x0: 300, y0: 100, x1: 300, y1: 400 }], 90);
    expect(vertical).toEqual([]);
    expect(horizontal.map((r) => [Math.round(r.at), Math.round(r.from), Math.round(r.to)])).toEqual([[-300, 100, 400]]);
  });
});

/** A boxed grid: horizontal rules at `ys`, vertical ones at `xs`, each across the whole grid. */
function grid(xs: number[], ys: number[]): { horizontal: Rule[]; vertical: Rule[] } {
  return {
    horizontal: ys.map((at) => ({ at, from: xs[0]!, to: xs[xs.length - 1]! })),
    vertical: xs.map((at) => ({ at, from: ys[0]!, to: ys[ys.length - 1]! })),
  };
}

describe("table rulings", () => {
  it("finds a grid and its column rules", () => {
    const { regions, lone } = tableRulings(grid([50, 200, 300], [600, 620, 640, 660]));
    expect(regions).toHaveLength(1);
    expect(regions[0]).toMatchObject({ x0: 50, x1: 300, y0: 600, y1: 660 });
    expect(regions[0]!.vertical.map((r) => r.at)).toEqual([50, 200, 300]);
    expect(lone).toEqual([]);
  });

  it("takes a box around text, and boxes joined by an arrow, for no grid", () => {
    const box = grid([50, 150], [600, 640]);
    const other = grid([200, 300], [600, 640]);
    const arrow: Rule = { at: 620, from: 150, to: 200 };
    expect(tableRulings(box).regions).toEqual([]);
    expect(tableRulings({ horizontal: [...box.horizontal, ...other.horizontal, arrow], vertical: [...box.vertical, ...other.vertical] }).regions).toEqual([]);
  });

  it("keeps a long vertical rule that meets no other as a column rule, and a short one not", () => {
    const { lone } = tableRulings({ horizontal: [], vertical: [{ at: 120, from: 100, to: 200 }, { at: 300, from: 100, to: 112 }] });
    expect(lone.map((r) => r.at)).toEqual([120]);
  });

  it("takes an axis with 20,000 ticks on it for no grid, where a recursive union-find overflowed the stack", () => {
    const axis = { at: 100, from: 0, to: 20_000 };
    const ticks = Array.from({ length: 20_000 }, (_, i) => ({ at: i, from: 95, to: 105 }));
    expect(tableRulings({ horizontal: [axis], vertical: ticks })).toEqual({ regions: [], lone: [], horizontal: [axis] });
  });

  it("puts a line in the grid it starts in, even when it runs on past it", () => {
    const { regions } = tableRulings(grid([50, 200, 300], [600, 620, 640, 660]));
    const line = (x: number, y: number) => ({ text: "Lead 12", x, y, width: 300, fontSize: 9, runs: [run("Lead", x, y, 9), run("12", x + 200, y, 9)] });
    expect(regionOfLine(line(55, 625), regions)).toBe(0);
    expect(regionOfLine(line(55, 700), regions)).toBe(-1);
    expect(regionOfLine(line(320, 625), regions)).toBe(-1);
  });
});

describe("rules and lines of text", () => {
  it("finds the rules running through a line's letters, not those ending above it", () => {
    const vertical: Rule[] = [
      { at: 120, from: 595, to: 620 },
      { at: 180, from: 605, to: 640 }, // starts above the line's letters
    ];
    expect(rulesThroughLine(vertical, 600, 10, 50, 300)).toEqual([120]);
  });

  it("parts two lines by a rule across the table, not by an underline or a short rule", () => {
    const across: Rule[] = [{ at: 612, from: 50, to: 300 }];
    const short: Rule[] = [{ at: 612, from: 50, to: 90 }];
    expect(ruleBetweenLines(across, 620, 600, 10, 50, 300)).toBe(true);
    expect(ruleBetweenLines(short, 620, 600, 10, 50, 300)).toBe(false);
    // A rule broken where a stub cell spans it counts by its pieces: 200 of 250 points.
    const broken: Rule[] = [
      { at: 612, from: 100, to: 200 },
      { at: 612, from: 200, to: 300 },
    ];
    expect(ruleBetweenLines(broken, 620, 600, 10, 50, 300)).toBe(true);
    expect(ruleBetweenLines([broken[0]!], 620, 600, 10, 50, 300)).toBe(false);
    // A rule through the lower line's letters is not between the two lines.
    expect(ruleBetweenLines([{ at: 603, from: 50, to: 300 }], 620, 600, 10, 50, 300)).toBe(false);
  });

  it("parts two lines by a rule level with the lower line's letters where none of its words stand under the rule", () => {
    // The lower line is the last line of a header cell spanning two rows (at 220–260), level with
    // the rule that parts the rows beside it (50–200 and 270–300): it is not cut by that rule.
    const beside: Rule[] = [
      { at: 603, from: 50, to: 200 },
      { at: 603, from: 270, to: 300 },
    ];
    const spanningCellLine = [run("2011-12)", 220, 600, 10, 40)];
    expect(ruleBetweenLines(beside, 620, 600, 10, 50, 300, spanningCellLine)).toBe(true);
    // Under the rule, the same words are cut by it: the rule runs through them.
    expect(ruleBetweenLines(beside, 620, 600, 10, 50, 300, [run("1975-79", 60, 600, 10, 40)])).toBe(false);
  });
});
