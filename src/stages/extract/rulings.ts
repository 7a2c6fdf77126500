/**
 * The lines a page draws, as evidence of table cells (docs/extraction.md §4.4.1). A ruled table
 * separates its cells by drawn lines, and the white between two cells' words may be no wider
 * than a word space: only the rule says they are two cells.
 *
 * Read from pdf.js's operator list: every stroked straight segment (a line, a rectangle's
 * sides) and every filled rectangle thin enough to be a rule, placed by the transformation
 * matrix in force (`cm`, form XObjects, saved and restored with the graphics state), in the
 * page's user space, where the text runs are. Curves, clipping paths and paths that are only
 * ended are no rules. Then, in the frame the text is read in (a page printed sideways reads
 * rotated), the rules that run along an axis are kept, and pieces of one rule (a table drawn
 * cell by cell, a line drawn in dashes) are merged into one.
 *
 * Pure: the operator list and pdf.js's operator codes come in, so tests feed it synthetic lists.
 * How the rules stand against the lines of text is ruled-lines.ts's.
 */
import { maxOf, minOf } from "../../text/text-geometry.js";

/** A drawn straight segment, from (x0, y0) to (x1, y1). */
export interface Segment {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A horizontal rule at `y` from `from` to `to` (from < to), or a vertical one at `x`. */
export interface Rule {
  /** The coordinate the rule stands at: y of a horizontal rule, x of a vertical one. */
  at: number;
  from: number;
  to: number;
}

/** A page's rules in the frame its text is read in (x right, y up, as the text runs). */
export interface PageRulings {
  horizontal: Rule[];
  vertical: Rule[];
}

/** The operator codes drawing is read from: pdf.js's `OPS`, which tests pass as it is. */
export interface DrawingOps {
  save: number;
  restore: number;
  transform: number;
  constructPath: number;
  paintFormXObjectBegin: number;
  paintFormXObjectEnd: number;
  stroke: number;
  closeStroke: number;
  fill: number;
  eoFill: number;
  fillStroke: number;
  eoFillStroke: number;
  closeFillStroke: number;
  closeEOFillStroke: number;
}

/** pdf.js's path encoding inside `constructPath` (its `DrawOPS`). */
const MOVE_TO = 0;
const LINE_TO = 1;
const CURVE_TO = 2;
const QUADRATIC_CURVE_TO = 3;
const CLOSE_PATH = 4;

/**
 * A filled rectangle this thin (points) is a rule: tables drawn by office programs and
 * LaTeX's booktabs fill rules 0.4–1.5 pt thick; a shaded cell or a bar of a chart is thicker.
 */
const MAX_RULE_THICKNESS = 3;

type Matrix = [number, number, number, number, number, number];

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** `m` applied first, then `ctm`: the matrix a `cm` with `m` leaves in force. */
function multiply(ctm: Matrix, m: readonly number[]): Matrix {
  const [a, b, c, d, e, f] = ctm;
  const [ma = 1, mb = 0, mc = 0, md = 1, me = 0, mf = 0] = m;
  return [a * ma + c * mb, b * ma + d * mb, a * mc + c * md, b * mc + d * md, a * me + c * mf + e, b * me + d * mf + f];
}

/** The straight segments a page draws (and thin filled rectangles, as their middle line), in user space. */
export function drawnSegments(fnArray: ArrayLike<number>, argsArray: ArrayLike<unknown>, ops: DrawingOps): Segment[] {
  const paints = paintKinds(ops);
  const out: Segment[] = [];
  const saved: Matrix[] = [];
  let ctm: Matrix = IDENTITY;
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    const args = argsArray[i] as unknown[] | null;
    if (fn === ops.save) saved.push(ctm);
    else if (fn === ops.restore) ctm = saved.pop() ?? IDENTITY;
    else if (fn === ops.transform && args) ctm = multiply(ctm, args as number[]);
    else if (fn === ops.paintFormXObjectBegin) {
      saved.push(ctm);
      const matrix = args?.[0];
      if (Array.isArray(matrix) || ArrayBuffer.isView(matrix)) ctm = multiply(ctm, Array.from(matrix as ArrayLike<number>));
    } else if (fn === ops.paintFormXObjectEnd) ctm = saved.pop() ?? IDENTITY;
    else if (fn === ops.constructPath && args) {
      const data = (args[1] as ArrayLike<unknown> | undefined)?.[0] as ArrayLike<number> | null | undefined;
      if (data) pathSegments(args[0] as number, data, ctm, paints, out);
    }
  }
  return out;
}

/**
 * A path a page paints, as pagestream's pdf.js records it while it reads the page's text
 * (scripts/pdfjs-patches.mjs, patch 6): the painting operator, the path in pdf.js's encoding and
 * the transformation matrix in force. The same paths `drawnSegments` reads from the operator list.
 */
export interface PaintedPath {
  paint: number;
  path: ArrayLike<number>;
  ctm: readonly number[];
}

/** `drawnSegments` of the paths recorded in the text pass: the same segments, without a second parse. */
export function paintedSegments(paths: readonly PaintedPath[], ops: DrawingOps): Segment[] {
  const paints = paintKinds(ops);
  const out: Segment[] = [];
  for (const { paint, path, ctm } of paths) pathSegments(paint, path, ctm as Matrix, paints, out);
  return out;
}

interface PaintKinds {
  strokes: Set<number>;
  fills: Set<number>;
}

function paintKinds(ops: DrawingOps): PaintKinds {
  return {
    strokes: new Set([ops.stroke, ops.closeStroke, ops.fillStroke, ops.eoFillStroke, ops.closeFillStroke, ops.closeEOFillStroke]),
    fills: new Set([ops.fill, ops.eoFill]),
  };
}

/** One painted path's segments: a stroked path's straight pieces, a filled path's thin upright rectangles. */
function pathSegments(paint: number, data: ArrayLike<number>, ctm: Matrix, { strokes, fills }: PaintKinds, out: Segment[]): void {
  if (strokes.has(paint)) strokedSegments(data, ctm, out);
  else if (fills.has(paint)) thinRectangles(data, ctm, out);
}

function apply(ctm: Matrix, x: number, y: number): [number, number] {
  return [ctm[0] * x + ctm[2] * y + ctm[4], ctm[1] * x + ctm[3] * y + ctm[5]];
}

/** Each subpath's points, in device order, and whether it was closed; curves break a subpath's straight run. */
function subpaths(data: ArrayLike<number>, ctm: Matrix): { points: [number, number][]; closed: boolean; curved: boolean }[] {
  const out: { points: [number, number][]; closed: boolean; curved: boolean }[] = [];
  let current: (typeof out)[number] | undefined;
  for (let i = 0; i < data.length; ) {
    const op = data[i++];
    if (op === MOVE_TO) {
      current = { points: [apply(ctm, data[i]!, data[i + 1]!)], closed: false, curved: false };
      out.push(current);
      i += 2;
    } else if (op === LINE_TO) {
      const point = apply(ctm, data[i]!, data[i + 1]!);
      if (current) current.points.push(point);
      else out.push((current = { points: [point], closed: false, curved: false }));
      i += 2;
    } else if (op === CURVE_TO || op === QUADRATIC_CURVE_TO) {
      const n = op === CURVE_TO ? 6 : 4;
      const end = apply(ctm, data[i + n - 2]!, data[i + n - 1]!);
      // The curve is no rule: what follows starts a new straight run from its end.
      current = { points: [end], closed: false, curved: true };
      out.push(current);
      i += n;
    } else if (op === CLOSE_PATH) {
      if (current) current.closed = true;
      current = undefined;
    } else {
      return out; // An encoding this reader does not know: what came before stands.
    }
  }
  return out;
}

function strokedSegments(data: ArrayLike<number>, ctm: Matrix, out: Segment[]): void {
  for (const { points, closed } of subpaths(data, ctm)) {
    for (let k = 1; k < points.length; k++) out.push(segment(points[k - 1]!, points[k]!));
    if (closed && points.length > 2) out.push(segment(points[points.length - 1]!, points[0]!));
  }
}

/** A filled subpath that is an upright rectangle thin in one direction: its middle line. */
function thinRectangles(data: ArrayLike<number>, ctm: Matrix, out: Segment[]): void {
  for (const { points, curved } of subpaths(data, ctm)) {
    if (curved || points.length < 4 || points.length > 5) continue;
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    const x0 = Math.min(...xs);
    const x1 = Math.max(...xs);
    const y0 = Math.min(...ys);
    const y1 = Math.max(...ys);
    // Upright: every corner on the box's edges.
    if (!points.every(([x, y]) => (near(x, x0) || near(x, x1)) && (near(y, y0) || near(y, y1)))) continue;
    const width = x1 - x0;
    const height = y1 - y0;
    if (height <= MAX_RULE_THICKNESS && width > height) out.push({ x0, y0: (y0 + y1) / 2, x1, y1: (y0 + y1) / 2 });
    else if (width <= MAX_RULE_THICKNESS && height > width) out.push({ x0: (x0 + x1) / 2, y0, x1: (x0 + x1) / 2, y1 });
  }
}

function segment(a: [number, number], b: [number, number]): Segment {
  return { x0: a[0], y0: a[1], x1: b[0], y1: b[1] };
}

function near(a: number, b: number): boolean {
  return Math.abs(a - b) < 0.01;
}

/** A segment this far off level or plumb (points over its length) still runs along the axis: rules drawn at fractional coordinates. */
const AXIS_TOLERANCE = 0.5;
/** Rules shorter than this (points) are marks (a tick, a bullet's dash, a dot of a dotted line), not rules. */
const MIN_RULE_LENGTH = 4;
/**
 * Pieces of one rule: at one coordinate to this much (points), and this close end to end: a
 * table drawn as shaded cells with white gaps of 2–3 points between them, a rule drawn in dashes.
 */
const SAME_RULE_OFFSET = 1;
const SAME_RULE_GAP = 3;

/**
 * The segments that run along the axes of the frame the text is read in (`angle`, degrees
 * counter-clockwise, as the text runs are turned: text-runs.ts), merged into rules.
 */
export function axisRulings(segments: readonly Segment[], angle = 0): PageRulings {
  const rad = (angle * Math.PI) / 180;
  const cos = Math.cos(rad);
  const sin = Math.sin(rad);
  const turn = (x: number, y: number): [number, number] => [x * cos + y * sin, -x * sin + y * cos];
  const horizontal: Rule[] = [];
  const vertical: Rule[] = [];
  for (const s of segments) {
    const [x0, y0] = turn(s.x0, s.y0);
    const [x1, y1] = turn(s.x1, s.y1);
    const dx = Math.abs(x1 - x0);
    const dy = Math.abs(y1 - y0);
    if (dy <= AXIS_TOLERANCE && dx >= MIN_RULE_LENGTH) horizontal.push({ at: (y0 + y1) / 2, from: Math.min(x0, x1), to: Math.max(x0, x1) });
    else if (dx <= AXIS_TOLERANCE && dy >= MIN_RULE_LENGTH) vertical.push({ at: (x0 + x1) / 2, from: Math.min(y0, y1), to: Math.max(y0, y1) });
  }
  return { horizontal: mergeRules(horizontal), vertical: mergeRules(vertical) };
}

/** Rules at one coordinate whose extents touch or overlap, merged; sorted by coordinate, then extent. */
function mergeRules(rules: Rule[]): Rule[] {
  const sorted = [...rules].sort((a, b) => a.at - b.at || a.from - b.from);
  const out: Rule[] = [];
  // Rules at one coordinate (within SAME_RULE_OFFSET of the first) form a group, merged by extent.
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j < sorted.length && sorted[j]!.at - sorted[i]!.at <= SAME_RULE_OFFSET) j++;
    const group = sorted.slice(i, j).sort((a, b) => a.from - b.from);
    const at = group.reduce((n, r) => n + r.at, 0) / group.length;
    let open: Rule | undefined;
    for (const r of group) {
      if (open && r.from <= open.to + SAME_RULE_GAP) open.to = Math.max(open.to, r.to);
      else out.push((open = { at, from: r.from, to: r.to }));
    }
    i = j;
  }
  return out.sort((a, b) => a.at - b.at || a.from - b.from);
}

/** A ruled table's grid: the box its rules enclose, and its vertical rules. */
export interface RuledRegion {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  vertical: Rule[];
}

/** What the rules of a page say of its tables. */
export interface TableRulings {
  /** The grids: ruled tables. */
  regions: RuledRegion[];
  /** Long vertical rules that meet no other rule: columns parted by rules alone. */
  lone: Rule[];
  /** Every horizontal rule: one drawn between two lines parts them into two rows. */
  horizontal: Rule[];
}

/** A page that draws no rules. */
export const NO_TABLE_RULINGS: TableRulings = { regions: [], lone: [], horizontal: [] };

/** Rules meet when one ends this close (points) to the other: grids drawn cell by cell leave hairline gaps. */
const MEET_SLACK = 2;
/** A grid has this many rules across this share of its width, and down this share of its height, or more. */
const GRID_SPANNING_RULES = 2;
const GRID_WIDTH_SHARE = 0.8;
const GRID_HEIGHT_SHARE = 0.6;
/** A vertical rule that meets no other rule parts cells only if this long (points): three lines of text. */
const MIN_LONE_RULE_LENGTH = 30;

/**
 * The rules that speak for tables. Rules that meet or cross are one group; a group is a table's
 * grid when two of its horizontal rules run across most of the span of its vertical rules, and
 * two of its vertical rules down most of the span of its horizontal ones (a boxed table, or one open at its sides with rules between its
 * columns). A box around a paragraph, the boxes and arrows of a diagram (each box apart, joined
 * by arrows no rule runs across) are no grid, and their rules part nothing.
 */
export function tableRulings(rulings: PageRulings): TableRulings {
  const { horizontal: hs, vertical: vs } = rulings;
  const parent = Array.from({ length: hs.length + vs.length }, (_, k) => k);
  // A loop, not recursion: one rule with thousands of ticks on it (an axis) chains the ticks
  // that deep, and a recursive find overflowed the stack past about 10,000 of them.
  const find = (k: number): number => {
    let root = k;
    while (parent[root] !== root) root = parent[root]!;
    for (let at = k; parent[at] !== root; ) {
      const next = parent[at]!;
      parent[at] = root;
      at = next;
    }
    return root;
  };
  hs.forEach((h, i) =>
    vs.forEach((v, j) => {
      const meet = v.at >= h.from - MEET_SLACK && v.at <= h.to + MEET_SLACK && h.at >= v.from - MEET_SLACK && h.at <= v.to + MEET_SLACK;
      if (meet) parent[find(i)] = find(hs.length + j);
    }),
  );
  const groups = new Map<number, { h: Rule[]; v: Rule[] }>();
  const group = (k: number) => {
    const root = find(k);
    const g = groups.get(root) ?? { h: [], v: [] };
    groups.set(root, g);
    return g;
  };
  hs.forEach((h, i) => group(i).h.push(h));
  vs.forEach((v, j) => group(hs.length + j).v.push(v));
  const regions: RuledRegion[] = [];
  const lone: Rule[] = [];
  for (const g of groups.values()) {
    if (g.h.length === 0 && g.v.length === 1) {
      if (g.v[0]!.to - g.v[0]!.from >= MIN_LONE_RULE_LENGTH) lone.push(g.v[0]!);
      continue;
    }
    if (g.v.length === 0) continue;
    const x0 = Math.min(minOf(g.h, (r) => r.from), minOf(g.v, (r) => r.at));
    const x1 = Math.max(maxOf(g.h, (r) => r.to), maxOf(g.v, (r) => r.at));
    const y0 = Math.min(minOf(g.v, (r) => r.from), minOf(g.h, (r) => r.at));
    const y1 = Math.max(maxOf(g.v, (r) => r.to), maxOf(g.h, (r) => r.at));
    // Across the span of its vertical rules, down the span of its horizontal ones: a rule drawn
    // on past the grid (under a label column left open) does not widen it.
    const left = minOf(g.v, (r) => r.at);
    const right = maxOf(g.v, (r) => r.at);
    const bottom = minOf(g.h, (r) => r.at);
    const top = maxOf(g.h, (r) => r.at);
    const across = g.h.filter((r) => Math.min(r.to, right) - Math.max(r.from, left) >= GRID_WIDTH_SHARE * (right - left)).length;
    const down = g.v.filter((r) => Math.min(r.to, top) - Math.max(r.from, bottom) >= GRID_HEIGHT_SHARE * (top - bottom)).length;
    // Two rules each way make a box; a grid has a third one way or the other, or it holds one cell only.
    if (across < GRID_SPANNING_RULES || down < GRID_SPANNING_RULES || Math.max(across, down) <= GRID_SPANNING_RULES) continue;
    regions.push({ x0, y0, x1, y1, vertical: g.v.sort((a, b) => a.at - b.at || a.from - b.from) });
  }
  return { regions, lone: lone.sort((a, b) => a.at - b.at || a.from - b.from), horizontal: rulings.horizontal };
}
