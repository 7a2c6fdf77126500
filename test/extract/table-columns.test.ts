import { describe, expect, it } from "vitest";
import type { TextRun } from "../../src/core/records.js";
import { columnBoundaries, columnOf, columnsAmongRules, isNumber, whiteColumns } from "../../src/stages/extract/table-columns.js";
import { run } from "../helpers/runs.js";

const options = { gutterRatio: 0.7, spaceRatio: 0.25 };

/** Each row's words in the columns the boundaries give them, joined by a space within a column. */
function cells(rows: TextRun[][]): string[][] {
  const boundaries = columnBoundaries(rows, options);
  return rows.map((row) => {
    const out: string[][] = Array.from({ length: boundaries.length + 1 }, () => []);
    for (const w of row) out[columnOf(boundaries, w)]!.push(w.text);
    return out.map((c) => c.join(" "));
  });
}

/** A right-aligned number ending at x (7 pt, 3.9 pt a digit). */
const num = (text: string, right: number, y: number) => run(text, right - text.length * 3.9, y, 7, text.length * 3.9);

describe("table columns", () => {
  it("splits dense numbers set a word space apart into columns of their own", () => {
    // Two right-aligned columns ending at 180 and 210: the widest value starts 2.7 pt after the first column ends.
    const rows = [
      [run("Live fish", 40, 700, 7), num("1", 180, 700), num("25", 210, 700)],
      [run("Crustaceans", 40, 690, 7), num("61.691", 180, 690), num("375.798", 210, 690)],
      [run("Molluscs", 40, 680, 7), num("162.027", 180, 680), num("174.507", 210, 680)],
    ];
    expect(cells(rows)).toEqual([
      ["Live fish", "1", "25"],
      ["Crustaceans", "61.691", "375.798"],
      ["Molluscs", "162.027", "174.507"],
    ]);
  });

  it("parts a column of codes from its descriptions by a strip narrower than a gutter that six rows keep free", () => {
    // 7 pt: the widest code ends 4.5 pt (0.64 em) before the descriptions, under the 0.7 em gutter.
    const codes = ["0301.11", "0302.13.00", "0303.89", "1603.00.00", "1604.14", "0306.17"];
    const descriptions = ["Ornamental fish", "Pacific salmon", "Other fish frozen", "Extracts and juices", "Tunas prepared", "Shrimps frozen"];
    const rows = codes.map((code, i) => [run(code, 40, 700 - 10 * i, 7, code.length * 3.5), ...descriptions[i]!.split(" ").map((w, k, all) => run(w, 79.5 + all.slice(0, k).join(" ").length * 3.5 + (k ? 3.5 : 0), 700 - 10 * i, 7, w.length * 3.5))]);
    expect(cells(rows).map((r) => r.length)).toEqual([2, 2, 2, 2, 2, 2]);
    expect(cells(rows)[3]).toEqual(["1603.00.00", "Extracts and juices"]);
    // Five rows are not enough for a strip that narrow: word spaces may line up by chance.
    expect(columnBoundaries(rows.slice(0, 5), options)).toEqual([]);
  });

  it("keeps a date's words in one cell although their gaps line up down the column", () => {
    const rows = [
      [run("Date:", 40, 700), run("Mar", 120, 700), run("4,", 140, 700), run("2026", 152, 700)],
      [run("Due:", 40, 686), run("Apr", 120, 686), run("3,", 140, 686), run("2026", 152, 686)],
      [run("Paid:", 40, 672), run("May", 120, 672), run("9,", 140, 672), run("2026", 152, 672)],
    ];
    expect(cells(rows).map((r) => r[1])).toEqual(["Mar 4, 2026", "Apr 3, 2026", "May 9, 2026"]);
  });

  it("keeps a boundary that a header centred over two columns covers", () => {
    const rows = [
      [run("2021", 170, 710, 7, 16)],
      [run("Live fish", 40, 700, 7), num("1", 180, 700), num("25", 210, 700)],
      [run("Fresh fish", 40, 690, 7), num("7.704", 180, 690), num("7.175", 210, 690)],
      [run("Crustaceans", 40, 680, 7), num("61.691", 180, 680), num("375.798", 210, 680)],
    ];
    expect(cells(rows).slice(1)).toEqual([
      ["Live fish", "1", "25"],
      ["Fresh fish", "7.704", "7.175"],
      ["Crustaceans", "61.691", "375.798"],
    ]);
  });

  it("merges a column that the words of one row alone stand in with the cell beside it", () => {
    const rows = [
      [run("Total assets", 40, 700), num("298,608", 300, 700), num("-2.49%", 400, 700)],
      [run("Return on equity", 40, 686), num("-2.34%", 300, 686), run("up", 330, 686, 10, 10), run("5.72", 350, 686, 10, 20), run("points", 380, 686, 10, 20)],
      [run("Net assets", 40, 672), num("-200,136", 300, 672), num("-0.76%", 400, 672)],
    ];
    expect(cells(rows)[1]).toEqual(["Return on equity", "-2.34%", "up 5.72 points"]);
  });

  it("merges lone columns one after another as counting every word again after each merge would", () => {
    // Rows of cells at random places, many columns of one row's words among them: the merges add
    // up what two columns held; the oracle counts every word again, as the first version did.
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    let merged = 0;
    for (let table = 0; table < 300; table++) {
      const columns = Array.from({ length: 3 + Math.floor(random() * 8) }, (_, c) => 40 + c * 60 + random() * 20);
      const rows = Array.from({ length: 3 + Math.floor(random() * 6) }, (_, r) =>
        columns.flatMap((x, c) => (random() < 0.6 ? [run(random() < 0.2 ? "wide cell text" : String(100 + r * c), x + random() * 25, 700 - 12 * r, 7, 14 + random() * 30)] : [])).filter((w, k, all) => k === 0 || w.x > all[k - 1]!.x + all[k - 1]!.width),
      );
      const white = whiteColumns(rows, options);
      if (!white) continue;
      const expected = mergedByRecounting(white.strips, white.rows);
      merged += white.strips.length - expected.length;
      expect(columnBoundaries(rows, options), `table ${table}`).toEqual(expected);
    }
    expect(merged).toBeGreaterThan(100);
  });

  it("parts a currency sign set a gutter before its amounts into a column, and keeps one a word space before its amount with it", () => {
    // 7 pt: "¥" 10 pt (1.4 em) before the amounts of its column; "€" 1.75 pt (a word space) before each amount.
    const yen = [0, 1, 2].map((i) => [run("Net profit", 40, 700 - 10 * i, 7, 35), run("¥", 120, 700 - 10 * i, 7, 4), num("233,512", 160, 700 - 10 * i)]);
    expect(cells(yen)[0]).toEqual(["Net profit", "¥", "233,512"]);
    const euro = [0, 1, 2].map((i) => [run("21%", 40, 700 - 10 * i, 7, 12), run("€", 100, 700 - 10 * i, 7, 4), run("156,20", 105.75, 700 - 10 * i, 7, 23.4), run("€", 150, 700 - 10 * i, 7, 4), run("32,80", 155.75, 700 - 10 * i, 7, 19.5)]);
    expect(cells(euro)[0]).toEqual(["21%", "€ 156,20", "€ 32,80"]);
  });

  it("reads numbers as tables print them, and a currency sign alone", () => {
    for (const n of ["1,248,804", "(77,283)", "△669", "0.9%", "―", "¥", "-4,648,986.52"]) expect(isNumber(n), n).toBe(true);
    for (const n of ["4,", "days", "Q3", "2026-"]) expect(isNumber(n), n).toBe(false);
  });

  it("parts left-aligned labels from right-aligned numbers where each row leaves a gutter, though the strip free in every row is narrow", () => {
    // 9 pt: "District of Columbia" ends at 122, "2,753,438" starts at 125: 3 pt free in every row, 18 pt and more in each.
    const rows = [
      [run("United States", 45, 700, 9, 62), num("2,753,438", 160, 700)],
      [run("Maine", 45, 689, 9, 24), num("13,278", 160, 689)],
      [run("District of", 45, 678, 9, 45), run("Columbia", 92, 678, 9, 30), num("3,031", 160, 678)],
      [run("Vermont", 45, 667, 9, 33), num("7,100", 160, 667)],
    ];
    expect(cells(rows).map((r) => r[0])).toEqual(["United States", "Maine", "District of Columbia", "Vermont"]);
  });

  it("parts cells at a drawn rule however narrow the white beside it, and in a boxed grid at its rules only", () => {
    // Words 3 pt apart across the rule at 150; inside the first cells, white from 82 to 90 in every row.
    const rule = (at: number) => ({ at, from: 640, to: 720 });
    const rows = [
      [run("Carbon", 52, 700, 9, 30), run("dioxide", 90, 700, 9, 58.5), run("100", 151.5, 700, 9, 15)],
      [run("Copper", 52, 688, 9, 30), run("and", 90, 688, 9, 13), run("more", 106, 688, 9, 42.5), run("50", 151.5, 688, 9, 10)],
      [run("Lead", 52, 676, 9, 20), run("it", 90, 676, 9, 8), run("1", 151.5, 676, 9, 5)],
    ];
    const boundaries = (rules: ReturnType<typeof rule>[]) => columnBoundaries(rows, options, rules).map((b) => [b.x0, b.x1]);
    expect(boundaries([])).toEqual([[82, 90]]);
    expect(boundaries([rule(150)])).toEqual([[82, 90], [150, 150]]);
    // Boxed: the rules at 50 and 200 run down both sides; the white inside the first cells parts nothing.
    expect(boundaries([rule(50), rule(150), rule(200)])).toEqual([[150, 150]]);
  });

  it("gives a kept white the columns of each set of rules, its columns without rules unchanged by the others", () => {
    // A run of lines that is no table is tried from each of its lines with the page's rules and
    // without (table-detection.ts): one white serves every call, so no call may change it.
    const rule = (at: number) => ({ at, from: 640, to: 720 });
    const rows = [
      [run("Carbon", 52, 700, 9, 30), run("dioxide", 90, 700, 9, 58.5), run("100", 151.5, 700, 9, 15)],
      [run("Copper", 52, 688, 9, 30), run("and", 90, 688, 9, 13), run("more", 106, 688, 9, 42.5), run("50", 151.5, 688, 9, 10)],
      [run("Lead", 52, 676, 9, 20), run("it", 90, 676, 9, 8), run("1", 151.5, 676, 9, 5)],
    ];
    const white = whiteColumns(rows, options)!;
    const asked = [[], [rule(150)], [rule(50), rule(150), rule(200)], [], [rule(150)]].map((rules) => columnsAmongRules(white, rules).map((b) => [b.x0, b.x1]));
    expect(asked).toEqual([[[82, 90]], [[82, 90], [150, 150]], [[150, 150]], [[82, 90]], [[82, 90], [150, 150]]]);
    // Read as rules that do not box the rows (a box ruled into groups), the white parts cells beside them.
    expect(columnsAmongRules(white, [rule(50), rule(150), rule(200)], false).map((b) => [b.x0, b.x1])).toEqual([[82, 90], [150, 150]]);
    expect(whiteColumns([[], []], options)).toBeUndefined();
  });
});

/** withoutLoneColumns as first written, with nothing drawn: every word counted again after each merge. */
function mergedByRecounting(strips: readonly { x0: number; x1: number }[], rows: readonly (readonly TextRun[])[]): { x0: number; x1: number }[] {
  const out = [...strips];
  if (rows.length < 3) return out;
  for (;;) {
    const held = Array.from({ length: out.length + 1 }, () => new Set<number>());
    rows.forEach((row, r) => row.forEach((w) => held[columnOf(out, w)]!.add(r)));
    const lone = held.findIndex((rowsIn) => rowsIn.size < 2);
    if (lone < 0 || out.length === 0) return out;
    if (held[lone]!.size === 0) {
      out.splice(lone > 0 ? lone - 1 : 0, 1);
      continue;
    }
    const row = rows[[...held[lone]!][0]!]!;
    const words = row.filter((w) => columnOf(out, w) === lone);
    const x0 = Math.min(...words.map((w) => w.x));
    const x1 = Math.max(...words.map((w) => w.x + w.width));
    const before = Math.max(-Infinity, ...row.filter((w) => w.x + w.width <= x0).map((w) => w.x + w.width));
    const after = Math.min(Infinity, ...row.filter((w) => w.x >= x1).map((w) => w.x));
    const left = lone === out.length || (lone > 0 && x0 - before <= after - x1);
    out.splice(left ? lone - 1 : lone, 1);
  }
}
