import { describe, expect, it } from "vitest";
import type { TextRun } from "../../src/core/records.js";
import { orderByColumns } from "../../src/stages/extract/column-layout.js";
import { groupLines } from "../../src/stages/extract/line-grouping.js";
import { tablesOf } from "../../src/stages/extract/table-detection.js";
import { run, words } from "../helpers/runs.js";

const options = { lineTolerance: 0.5, spaceRatio: 0.25, collapseLetterSpacing: true, gutterRatio: 0.7 };

/** A column of `n` full lines of prose starting at (x, top), 12 pt apart, each `width` wide. */
function column(label: string, n: number, x: number, top: number, width: number): TextRun[] {
  return Array.from({ length: n }, (_, i) => run(`${label}${i} words of running prose fill this line`, x, top - 12 * i, 10, width));
}

/** Every table among the lines. */
const detectTables = (...args: Parameters<typeof tablesOf>) => [...tablesOf(...args)];

function order(runs: TextRun[]) {
  return orderByColumns(groupLines(runs, options), options);
}

describe("column layout", () => {
  it("reads two columns down, not across", () => {
    const { lines, columns } = order([...column("L", 6, 60, 700, 220), ...column("R", 6, 304, 700, 220)]);
    expect(lines.map((l) => l.text.slice(0, 2))).toEqual(["L0", "L1", "L2", "L3", "L4", "L5", "R0", "R1", "R2", "R3", "R4", "R5"]);
    expect(columns).toBe(2);
  });

  it("reads a full-width title first, then each column, then a full-width footnote", () => {
    const runs = [run("A Title Across The Whole Page Width", 60, 740, 14, 464), ...column("L", 5, 60, 700, 220), ...column("R", 5, 304, 700, 220), run("1 A footnote that runs across the whole width of the page", 60, 600, 8, 464)];
    const { lines } = order(runs);
    expect(lines.map((l) => l.text.slice(0, 2))).toEqual(["A ", "L0", "L1", "L2", "L3", "L4", "R0", "R1", "R2", "R3", "R4", "1 "]);
  });

  it("reads three columns one after another: a side of the first gutter holds two columns of its own", () => {
    const { lines, columns, flowBreaks } = order([...column("L", 6, 60, 700, 150), ...column("M", 6, 232, 700, 150), ...column("R", 6, 404, 700, 150)]);
    expect(lines.map((l) => l.text.slice(0, 2))).toEqual(["L0", "L1", "L2", "L3", "L4", "L5", "M0", "M1", "M2", "M3", "M4", "M5", "R0", "R1", "R2", "R3", "R4", "R5"]);
    expect(columns).toBe(3);
    expect([...flowBreaks]).toEqual([6, 12]);
  });

  it("does not take two columns of table cells beside a column of prose for columns of text", () => {
    // Left: prose. Right: two narrow columns of figures on its baselines, each too narrow to read as text.
    const figures = Array.from({ length: 6 }, (_, i) => [run(`${100 + i}`, 330, 700 - 12 * i, 10, 20), run(`${200 + i}`, 420, 700 - 12 * i, 10, 20)]).flat();
    const { lines, columns } = order([...column("L", 6, 60, 700, 220), ...figures]);
    expect(columns).toBe(1);
    expect(lines.map((l) => l.text)).toEqual(Array.from({ length: 6 }, (_, i) => `L${i} words of running prose fill this line ${100 + i} ${200 + i}`));
  });

  it("handles columns whose baselines do not line up", () => {
    const { lines } = order([...column("L", 5, 60, 700, 220), ...column("R", 5, 304, 694, 220)]);
    expect(lines.map((l) => l.text.slice(0, 2))).toEqual(["L0", "L1", "L2", "L3", "L4", "R0", "R1", "R2", "R3", "R4"]);
  });

  it("marks where the text flows on to the next column", () => {
    const { flowBreaks } = order([...column("L", 4, 60, 700, 220), ...column("R", 4, 304, 700, 220)]);
    expect([...flowBreaks]).toEqual([4]);
  });

  it("does not split a single column with a centred author line into columns", () => {
    const runs = [run("Ana Ruiz", 150, 740, 11, 50), run("Bo Chen", 250, 740, 11, 45), run("Carl Diaz", 345, 740, 11, 50), ...column("P", 6, 60, 710, 464)];
    const { lines, columns } = order(runs);
    expect(columns).toBe(1);
    expect(lines.map((l) => l.text.slice(0, 3))).toEqual(["Ana", "P0 ", "P1 ", "P2 ", "P3 ", "P4 ", "P5 "]);
  });

  it("does not read a river of spaces in word-by-word text as a gutter", () => {
    // An OCR layer: every word its own run, gaps of 0.8 em that happen to line up at x = 200.
    const runs: TextRun[] = [];
    for (let i = 0; i < 6; i++) {
      const y = 700 - 14 * i;
      runs.push(run("several", 60, y, 11, 40), run("words", 108, y, 11, 35), run("here", 151, y, 11, 40), run("and", 200, y, 11, 20), run("more", 228, y, 11, 30));
    }
    expect(order(runs).columns).toBe(1);
  });

  it("keeps a running header and footer whose right part stands at the page margin whole, above and below the columns", () => {
    const runs = [
      run("Example PDF", 60, 760, 10, 60),
      run("2025-01-11", 474, 760, 10, 50),
      ...column("L", 5, 60, 720, 220),
      ...column("R", 5, 304, 720, 220),
      run("Author", 60, 640, 10, 35),
      run("7", 519, 640, 10, 5),
    ];
    const { lines, columns } = order(runs);
    expect(columns).toBe(2);
    expect(lines.map((l) => l.text.slice(0, 2))).toEqual(["Ex", "L0", "L1", "L2", "L3", "L4", "R0", "R1", "R2", "R3", "R4", "Au"]);
    expect(lines[0]!.text).toBe("Example PDF 2025-01-11");
    expect(lines.at(-1)!.text).toBe("Author 7");
  });

  it("reads a page number standing apart under the columns after them, not as the end of the left column", () => {
    // The number stands under the gutter but reaches into the left column's width.
    const runs = [...column("L", 5, 60, 720, 230), ...column("R", 5, 309, 720, 230), run("2", 288, 640, 10, 5)];
    const { lines, flowBreaks } = order(runs);
    expect(lines.map((l) => l.text.slice(0, 2))).toEqual(["L0", "L1", "L2", "L3", "L4", "R0", "R1", "R2", "R3", "R4", "2"]);
    expect([...flowBreaks]).toEqual([5]);
  });

  it("still reads a heading centred over the right column at its top as part of that column", () => {
    const runs = [...column("L", 5, 60, 720, 220), run("IV. RESULTS", 380, 724, 10, 70), ...column("R", 4, 304, 708, 220)];
    const { lines } = order(runs);
    expect(lines.map((l) => l.text.slice(0, 2))).toEqual(["L0", "L1", "L2", "L3", "L4", "IV", "R0", "R1", "R2", "R3"]);
  });

  it("does not split a monospaced diagram into columns", () => {
    const mono = { monospace: true };
    const runs: TextRun[] = [];
    for (let i = 0; i < 5; i++) {
      runs.push(run(`C->A : step ${i} of the transfer`, 124, 700 - 12 * i, 10, 150, mono), run(`C->B : step ${i} of the transfer`, 326, 700 - 12 * i, 10, 150, mono));
    }
    const { lines, columns } = order(runs);
    expect(columns).toBe(1);
    expect(lines.map((l) => l.text.slice(0, 13))).toEqual(Array.from({ length: 5 }, (_, i) => `C->A : step ${i}`));
  });

  it("reads a column of list items with hanging indents as one column, not as two sections", () => {
    // The right column: prose at its margin (304), items numbered at 313 whose wrapped lines
    // hang at 326, prose at the margin again; the left column is prose.
    const right: TextRun[] = [];
    let y = 720;
    const add = (text: string, x: number) => {
      right.push(run(text, x, y, 10, 524 - x));
      y -= 12;
    };
    // No one x holds half the rows: 10 start at the margin, 3 at the numbers, 9 under them.
    for (let i = 0; i < 5; i++) add(`R${i} prose at the margin of the right column`, 304);
    for (let item = 1; item <= 3; item++) {
      add(`${item}) Item ${item} opens here and runs on`, 313);
      for (let k = 0; k < 3; k++) add(`H${item}${k} continues under the item text`, 326);
    }
    for (let i = 5; i < 10; i++) add(`R${i} prose at the margin of the right column`, 304);
    const left = column("L", 22, 60, 720, 220);
    const { lines, columns } = order([...left, ...right]);
    expect(columns).toBe(2);
    expect(lines.map((l) => l.text.split(" ")[0])).toEqual([
      ...Array.from({ length: 22 }, (_, i) => `L${i}`),
      ...["R0", "R1", "R2", "R3", "R4", "1)", "H10", "H11", "H12", "2)", "H20", "H21", "H22", "3)", "H30", "H31", "H32"],
      ...["R5", "R6", "R7", "R8", "R9"],
    ]);
  });

  it("reads a narrow sidebar of short items on baselines of its own after the column beside it, not interleaved", () => {
    const runs: TextRun[] = [];
    for (let i = 0; i < 6; i++) {
      runs.push(run(`Body line ${i} of ordinary prose set wide`, 60, 700 - 12 * i, 10, 300), run(`k${i}`, 420, 694 - 18 * i, 10, 12));
    }
    const { lines, columns } = order(runs);
    expect(columns).toBe(2);
    expect(lines.map((l) => (l.text.startsWith("Body") ? l.text.split(" ")[2] : l.text))).toEqual(["0", "1", "2", "3", "4", "5", "k0", "k1", "k2", "k3", "k4", "k5"]);
  });

  it("reads two blocks side by side under labels of their own block by block, not row by row", () => {
    const runs = [
      ...["Bill To:", "Ewan Morrison", "ewan@example.org"].map((t, i) => run(t, 48, 700 - 16 * i, 10)),
      ...["Ship To:", "Morrison Boatyard", "yard@example.org"].map((t, i) => run(t, 183, 700 - 16 * i, 10)),
    ];
    expect(order(runs).lines.map((l) => l.text)).toEqual(["Bill To:", "Ewan Morrison", "ewan@example.org", "Ship To:", "Morrison Boatyard", "yard@example.org"]);
  });

  it("reads the regions of a page a band of white apart one after the other, each with its own columns", () => {
    // Addresses beside terms, then an item table further down whose amounts stand under the terms.
    const runs = [
      run("Ewan Morrison", 48, 700, 10),
      run("12 Quay Street", 48, 684, 10),
      run("Port Ellen", 48, 668, 10),
      run("Date:", 400, 706, 10),
      run("Due:", 400, 684, 10),
      run("Terms:", 400, 662, 10),
      run("Hull cleaning", 48, 560, 10),
      run("$120.00", 430, 560, 10),
      run("Anode set", 48, 544, 10),
      run("$7.50", 430, 544, 10),
      run("Paint", 48, 528, 10),
      run("$31.00", 430, 528, 10),
    ];
    expect(order(runs).lines.map((l) => l.text)).toEqual(["Ewan Morrison", "12 Quay Street", "Port Ellen", "Date:", "Due:", "Terms:", "Hull cleaning $120.00", "Anode set $7.50", "Paint $31.00"]);
  });

  it("reads the two halves of a landscape sheet one after the other", () => {
    const rows = (x: number, label: string) => Array.from({ length: 4 }, (_, i) => [run(`${label}${i}`, x, 700 - 12 * i, 7), run("1,200", x + 250, 700 - 12 * i, 7)]).flat();
    const lines = groupLines([...rows(40, "L"), ...rows(635, "R")], options);
    const { lines: ordered } = orderByColumns(lines, options, { width: 1190, height: 842 });
    expect(ordered.map((l) => l.text)).toEqual(["L0 1,200", "L1 1,200", "L2 1,200", "L3 1,200", "R0 1,200", "R1 1,200", "R2 1,200", "R3 1,200"]);
  });

  it("says the layout is uncertain when short items beside prose stand on its baselines, but only on some of them", () => {
    const runs: TextRun[] = [];
    for (let i = 0; i < 6; i++) {
      // Items beside every other line of prose: a label column, or a sidebar set on the body's leading.
      runs.push(run(`Body line ${i} of ordinary prose set wide`, 60, 700 - 12 * i, 10, 300));
      if (i % 2 === 0) runs.push(run(`k${i}`, 420, 700 - 12 * i, 10, 12));
    }
    expect(order(runs).columns).toBe("uncertain");
  });

  describe("beside a table the page draws", () => {
    const topics = ["Consumer rights", "Employment and social affairs", "Travel and transport", "Justice and home affairs", "Education and training", "Public health"];
    // A ruled table of topics and counts (cells 8 pt, rows 16 pt apart) in the grid x 40–250.
    const grid = { x0: 40, x1: 250, y0: 690 - 16 * topics.length, y1: 710 };
    const tableRuns = (): TextRun[] => topics.flatMap((t, i) => [run(t, 43, 700 - 16 * i, 8), run(`${1000 + i}`, 231, 700 - 16 * i, 8, 16)]);

    it("reads what stands beside it on a pitch of its own as a block after it, however it is aligned", () => {
      // A bar chart's labels, set flush right at x 400 on a 17 pt pitch: some fall level with a
      // row, most between two.
      const labels = topics.map((t, i) => run(t, 400 - 4 * t.length, 697 - 17 * i, 8));
      const texts = (grids: { x0: number; x1: number; y0: number; y1: number }[]) => orderByColumns(groupLines([...tableRuns(), ...labels], options), options, undefined, grids).lines.map((l) => l.text);
      expect(texts([grid])).toEqual([...topics.map((t, i) => `${t} ${1000 + i}`), ...topics]);
      // Without the grid, the labels are read between the rows.
      expect(texts([]).slice(0, 2)).not.toEqual([`${topics[0]} 1000`, `${topics[1]} 1001`]);
    });

    it("keeps a label column the rules leave open in the rows its labels stand on", () => {
      // The labels outside the grid, on the baselines of its rows: a table whose label column has no rules.
      const open = topics.flatMap((t, i) => [run(`K${i}`, 10, 700 - 16 * i, 8), run(t, 43, 700 - 16 * i, 8), run(`${1000 + i}`, 231, 700 - 16 * i, 8, 16)]);
      const { lines } = orderByColumns(groupLines(open, options), options, undefined, [grid]);
      expect(lines.map((l) => l.text)).toEqual(topics.map((t, i) => `K${i} ${t} ${1000 + i}`));
    });
  });
});

describe("table detection", () => {
  const cells = (y: number, texts: (string | null)[]) => texts.flatMap((t, i) => (t === null ? [] : [run(t, 60 + i * 110, y, 10, t.length * 5)]));

  it("makes aligned rows one table: a line per row, cells by tab, empty cells kept, wrapped cells joined", () => {
    const runs = [
      ...cells(700, ["Item", "Supplier", "Qty", "Unit price"]),
      ...cells(684, ["Valve", "Nordia", "4", "12.50"]),
      ...cells(668, ["Chair", null, "89", "40.00"]),
      ...cells(652, ["Replacement pump", "Hydra", "1", "310.00"]),
      run("assembly", 60, 643, 10, 40),
      ...cells(627, ["Gasket", "Nordia", "20", "0.80"]),
    ];
    const lines = groupLines(runs, options);
    const [table] = detectTables(lines, options);
    expect(table!.rows.map((r) => r.text)).toEqual([
      "Item\tSupplier\tQty\tUnit price",
      "Valve\tNordia\t4\t12.50",
      "Chair\t\t89\t40.00",
      "Replacement pump assembly\tHydra\t1\t310.00",
      "Gasket\tNordia\t20\t0.80",
    ]);
    expect([table!.start, table!.end]).toEqual([0, 6]);
  });

  it("keeps a header phrase spanning two columns whole, in the first of them, and says it spans them", () => {
    // "Hospital admissions" over the two figure columns: its word space (at 132–136) falls
    // inside the white between them (100–150), its words cover the rest of it.
    const body = (y: number, label: string, a: string, b: string) => [run(label, 20, y, 10, 40), run(a, 70, y, 10, 30), run(b, 150, y, 10, 30), run("kt", 260, y, 10, 10)];
    const runs = [
      run("Hospital", 92, 716, 10, 40),
      run("admissions", 136, 716, 10, 50),
      run("Unit", 260, 716, 10, 20),
      ...body(700, "North", "1,204", "1,377"),
      ...body(684, "South", "802", "911"),
      ...body(668, "East", "412", "455"),
      ...body(652, "West", "96", "104"),
    ];
    const [table] = detectTables(groupLines(runs, options), options);
    expect(table!.rows[0]!.text).toBe("\tHospital admissions\t\tUnit");
    expect(table!.rows[0]!.cellSpans).toEqual([1, 2, 1, 1]);
    expect(table!.rows[1]!.text).toBe("North\t1,204\t1,377\tkt");
    expect(table!.rows[1]!.cellSpans).toBeUndefined();
  });

  it("puts a right-to-left table's spanning header in the first column of its span in reading order", () => {
    const body = (y: number, label: string, a: string, b: string) => [run(a, 70, y, 10, 30), run(b, 150, y, 10, 30), run(label, 260, y, 10, 30)];
    const runs = [
      run("שנים", 92, 716, 10, 50),
      run("אחרונות", 146, 716, 10, 40),
      run("אזור", 260, 716, 10, 20),
      ...body(700, "צפון", "1,204", "1,377"),
      ...body(684, "דרום", "802", "911"),
      ...body(668, "מזרח", "412", "455"),
      ...body(652, "מערב", "96", "104"),
    ];
    const [table] = detectTables(groupLines(runs, options), options);
    expect(table!.rows[0]!.cells).toEqual(["אזור", "אחרונות שנים", ""]);
    expect(table!.rows[0]!.cellSpans).toEqual([1, 2, 1]);
    expect(table!.rows[1]!.cells).toEqual(["צפון", "1,377", "1,204"]);
  });

  it("starts a table under a title line whose parts stand over the gaps between its columns", () => {
    // Columns start at 60, 170, 280 and 390; a title in wide capitals covers the first two gaps,
    // its unit stands over the last column: only one of the three gaps shows through it.
    const runs = [
      run("FISHERY", 60, 716, 10, 109),
      run("EXPORTS", 196, 716, 10, 83),
      run("(EUR)", 390, 716, 10, 25),
      ...cells(700, ["Product", "2021", "2022", "2023"]),
      ...cells(684, ["Salmon", "1,204", "1,377", "1,562"]),
      ...cells(668, ["Cod", "802", "911", "875"]),
      ...cells(652, ["Herring", "412", "455", "470"]),
      ...cells(636, ["Shrimp", "96", "104", "131"]),
    ];
    const tables = detectTables(groupLines(runs, options), options);
    // The title stands alone (a line whose parts stand far apart); the table starts under it.
    expect(tables.map((t) => [t.start, t.end])).toEqual([[0, 1], [1, 6]]);
    expect(tables[1]!.rows.map((r) => r.text)).toEqual(["Product\t2021\t2022\t2023", "Salmon\t1,204\t1,377\t1,562", "Cod\t802\t911\t875", "Herring\t412\t455\t470", "Shrimp\t96\t104\t131"]);
  });

  it("starts a table under a title line with a phrase across most of it, wider than any cell", () => {
    // "Table 2." and its title as two runs 10 pt apart: two pieces, like a row's cells.
    const runs = [
      run("Table 2.", 60, 716, 10, 40),
      run("Landings and exports by quay, in tonnes, 2021 to 2023", 110, 716, 10, 290),
      ...cells(700, ["Quay", "2021", "2022", "2023"]),
      ...cells(684, ["North", "1,204", "1,377", "1,562"]),
      ...cells(668, ["South", "802", "911", "875"]),
      ...cells(652, ["East", "412", "455", "470"]),
    ];
    const tables = detectTables(groupLines(runs, options), options);
    expect(tables.map((t) => [t.start, t.end])).toEqual([[1, 5]]);
    expect(tables[0]!.rows[1]!.text).toBe("North\t1,204\t1,377\t1,562");
  });

  it("reads a box ruled into groups, each set in columns of its own, by its rules and its white", () => {
    // A precinct bulletin's box: a rule at 250 parts two groups, each in columns the white shows
    // (a name, a party and votes; a measure's answer and votes), a contest's title over each.
    // Boxed, the rules would be all the columns: every line, tried first, would hide the white's
    // columns under it as a title does, and the run would be tried from each of its lines.
    const left = [["GOVERNOR"], ["NEEL KASHKARI", "REP", "247"], ["EDMUND BROWN", "DEM", "69"], ["CONTROLLER"], ["BETTY YEE", "DEM", "59"], ["ASHLEY SWEARENGIN", "REP", "249"], ["TREASURER"], ["GREG CONLON", "REP", "240"], ["JOHN CHIANG", "DEM", "69"], ["STEVE FOX", "DEM", "63"]];
    const right = [["MEASURE 48"], ["YES", "96"], ["NO", "216"], ["MEASURE P"], ["YES", "102"], ["NO", "200"], ["MEASURE 1"], ["YES", "104"], ["NO", "214"], ["MEASURE 2"]];
    // Text from the left of each column, votes set flush right (at 240 and 440).
    const place = (texts: string[], starts: number[], end: number, y: number) =>
      texts.map((t, i) => (i === texts.length - 1 && texts.length > 1 ? run(t, end - t.length * 5, y, 10) : run(t, starts[i]!, y, 10)));
    const runs = left.flatMap((l, k) => [...place(l, [60, 170], 240, 700 - 12 * k), ...place(right[k]!, [260], 440, 700 - 12 * k)]);
    // A note set inside the box under the rows, ending in the white between a measure and its
    // votes: a grid holds every line inside it, and the note's end would hide that white.
    const note = run("Counted on election night", 260, 568, 10);
    const rule = (at: number) => ({ at, from: 560, to: 712 });
    const rulings = { regions: [{ x0: 50, y0: 560, x1: 450, y1: 712, vertical: [rule(50), rule(250), rule(450)] }], lone: [], horizontal: [560, 580, 712].map((at) => ({ at, from: 50, to: 450 })) };
    const lines = groupLines([...runs, note], options);
    const tables = detectTables(lines, options, new Set(), rulings);
    expect(tables.map((t) => [t.start, t.end])).toEqual([[0, 10]]);
    expect(tables[0]!.rows.map((r) => r.cells)).toEqual([
      ["GOVERNOR", "", "", "MEASURE 48", ""],
      ["NEEL KASHKARI", "REP", "247", "YES", "96"],
      ["EDMUND BROWN", "DEM", "69", "NO", "216"],
      ["CONTROLLER", "", "", "MEASURE P", ""],
      ["BETTY YEE", "DEM", "59", "YES", "102"],
      ["ASHLEY SWEARENGIN", "REP", "249", "NO", "200"],
      ["TREASURER", "", "", "MEASURE 1", ""],
      ["GREG CONLON", "REP", "240", "YES", "104"],
      ["JOHN CHIANG", "DEM", "69", "NO", "214"],
      ["STEVE FOX", "DEM", "63", "MEASURE 2", ""],
    ]);
  });

  it("joins a wrapped cell that goes on with a word the cell above broke, even at the rows' own pitch", () => {
    const runs = [
      ...cells(700, ["dn", "Linear map of remark 12"]),
      ...cells(688, ["f*", "Map between fundamen-"]),
      run("tal groups", 170, 676, 10, 50),
      ...cells(664, ["A ≅ B", "A is isometric to B"]),
      ...cells(652, ["Sn", "Sphere"]),
    ];
    const [table] = detectTables(groupLines(runs, options), options);
    expect(table!.rows.map((r) => r.text)).toEqual(["dn\tLinear map of remark 12", "f*\tMap between fundamen-tal groups", "A ≅ B\tA is isometric to B", "Sn\tSphere"]);
  });

  it("gives the tables of a page one at a time, top to bottom", () => {
    const runs = [
      ...cells(700, ["Item", "Supplier", "Qty"]),
      ...cells(684, ["Valve", "Nordia", "4"]),
      ...cells(668, ["Chair", "Hydra", "89"]),
      ...column("P", 5, 60, 640, 464),
      ...cells(560, ["Year", "Orders", "Returns"]),
      ...cells(544, ["2024", "1,204", "31"]),
      ...cells(528, ["2025", "1,318", "27"]),
    ];
    const lines = groupLines(runs, options);
    const tables = tablesOf(lines, options);
    const first = tables.next();
    expect(first.done).toBe(false);
    // Asked whether some row passes a test, the table makes its rows in order until one does.
    const seen: string[] = [];
    expect(first.value!.someRow((row) => (seen.push(row.text), row.text.startsWith("Valve")))).toBe(true);
    expect(seen).toEqual(["Item\tSupplier\tQty", "Valve\tNordia\t4"]);
    expect(first.value!.rows.map((r) => r.cells?.[0])).toEqual(["Item", "Valve", "Chair"]);
    expect([...tables].map((t) => t.rows.map((r) => r.cells?.[0]))).toEqual([["Year", "2024", "2025"]]);
    expect(detectTables(lines, options).map((t) => [t.start, t.end])).toEqual([
      [0, 3],
      [8, 11],
    ]);
  });

  it("makes a line whose parts stand far apart a table of one row, standing alone", () => {
    const runs = [run("Mr. Peter Fong, Principal", 40, 700, 10.8, 128), run("Cupertino Union School District", 226, 700, 10.8, 163), run("October 23, 2014", 487, 700, 10.8, 90)];
    const [table] = detectTables(groupLines(runs, options), options);
    expect(table!.rows.map((r) => r.cells)).toEqual([["Mr. Peter Fong, Principal", "Cupertino Union School District", "October 23, 2014"]]);
  });

  it("takes justified prose whose word spaces line up down its lines for no table", () => {
    // An OCR layer: each word a run, word spaces of 0.8 em that pass for cell gaps.
    const line = (y: number, ws: string[]) => words(ws, 75, y, 9, 10);
    const runs = [
      ...line(700, ["to", "attend", "a", "meeting", "of", "the", "tenants,", "or", "to", "help"]),
      ...line(686, ["telephone", "the", "centre", "on", "a", "weekday", "morning", "at", "nine"]),
      ...line(672, ["and", "we", "will", "arrange", "a", "visit", "to", "the", "building"]),
    ];
    expect(detectTables(groupLines(runs, options), options)).toEqual([]);
  });

  it("finds no table in prose", () => {
    expect(detectTables(groupLines(column("P", 6, 60, 700, 464), options), options)).toEqual([]);
  });

  it("does not take two columns of prose for a two-column table", () => {
    expect(detectTables(groupLines([...column("L", 5, 60, 700, 220), ...column("R", 5, 304, 700, 220)], options), options)).toEqual([]);
  });
});
