/**
 * Runs → lines. Two runs are on one line when their baselines are closer than
 * `lineTolerance` × the larger font size (docs/extraction.md §3: 0.5), so a superscript footnote marker
 * stays on its line and a 9 pt footnote under 11 pt text gets its own tolerance.
 */
import { textLine, type Line, type TextRun } from "../../core/records.js";
import { maxOf, minOf, sortedByX } from "../../text/text-geometry.js";
import { joinRuns, type SpacingOptions } from "./word-spacing.js";

export interface LineGroupingOptions extends SpacingOptions {
  /** Baselines closer than this × font size are one line. */
  lineTolerance: number;
}

interface OpenLine {
  runs: TextRun[];
  /** Level of the line's main text (its largest run by characters so far). */
  y: number;
  fontSize: number;
  mainChars: number;
}

/** Groups runs into lines, top to bottom; each line's runs left to right. */
export function groupLines(runs: readonly TextRun[], options: LineGroupingOptions): Line[] {
  if (runs.length === 0) return [];
  // A tilted run is compared by where its baseline crosses the left edge of the text, so the
  // words of one skewed OCR line share a level even when the line drops several points.
  const left = minOf(runs, (r) => r.x);
  const levelOf = (r: TextRun) => r.y + (left - r.x) * (r.skew ?? 0);
  const sorted = runs.map((run) => ({ run, level: levelOf(run) })).sort((a, b) => b.level - a.level || a.run.x - b.run.x);
  const open: OpenLine[] = [];
  for (const { run, level } of sorted) {
    const current = open[open.length - 1];
    const tolerance = options.lineTolerance * Math.max(run.fontSize, current?.fontSize ?? 0);
    if (current && Math.abs(current.y - level) <= tolerance) {
      current.runs.push(run);
      const chars = run.text.trim().length;
      // The line's level follows its main text, not a raised marker that came first.
      if (chars > current.mainChars) {
        current.y = level;
        current.fontSize = run.fontSize;
        current.mainChars = chars;
      }
    } else {
      open.push({ runs: [run], y: level, fontSize: run.fontSize, mainChars: run.text.trim().length });
    }
  }
  // Pieces of one line split apart are still close to it: a stable sort keeps everything else in place.
  const lines: OpenLine[] = open
    .flatMap((l) => splitAtGaps(l.runs, levelOf))
    .sort((a, b) => b.level - a.level)
    .map((p) => ({ runs: p.runs, y: p.level, fontSize: p.size, mainChars: 0 }));
  reattachStrays(lines, levelOf, options);
  return lines.filter((l) => l.runs.length > 0).map((l) => buildLine(l.runs, options));
}

/**
 * A gap this many times the font size inside a line is wider than a word space (the column gap
 * ratio's default): what stands on either side of it may belong to different blocks (two
 * columns, a box beside a column, a reference's key beside the column to its left, 1.25 em
 * away).
 */
const BLOCK_GAP_EMS = 0.7;
/**
 * Parts of a line on either side of such a gap whose baselines differ by more than this × font
 * size are two lines. Typeset on one line, they share a baseline to a fraction of a point (a
 * table's values set 0.4 pt under their label at 10 pt); lines of two blocks that only happen
 * to fall within the line tolerance do not (a box beside a column of a car manual, 4.1 pt
 * apart at 9 pt: 0.46 em).
 */
const SPLIT_BASELINE_EMS = 0.25;
/** A part of at most this many characters is a mark (a footnote number, a bullet) that stays with its neighbour. */
const MARK_CHARS = 3;

/**
 * A grouped line's runs cut into levels (each baseline within SPLIT_BASELINE_EMS of the next)
 * when two runs of words on different levels stand one over the other across most of the
 * narrower: text never overprints itself, so they are two lines that a line of another block
 * between their baselines drew into one (a column's 9.5 pt line beside two rows of an 8.7 pt
 * table). Undefined when no runs are so stacked.
 */
function stackedLevels(runs: readonly TextRun[], levelOf: (r: TextRun) => number): TextRun[][] | undefined {
  if (runs.length < 2) return undefined;
  // Most lines stand on one level (no two baselines apart by the smallest run's threshold): nothing to sort.
  let low = Infinity;
  let high = -Infinity;
  let size = Infinity;
  for (const r of runs) {
    const level = levelOf(r);
    low = Math.min(low, level);
    high = Math.max(high, level);
    size = Math.min(size, r.fontSize);
  }
  if (high - low <= SPLIT_BASELINE_EMS * size) return undefined;
  const byLevel = [...runs].sort((a, b) => levelOf(b) - levelOf(a));
  const levels: TextRun[][] = [[byLevel[0]!]];
  for (let k = 1; k < byLevel.length; k++) {
    const run = byLevel[k]!;
    const above = byLevel[k - 1]!;
    if (levelOf(above) - levelOf(run) > SPLIT_BASELINE_EMS * Math.max(run.fontSize, above.fontSize)) levels.push([]);
    levels[levels.length - 1]!.push(run);
  }
  if (levels.length < 2) return undefined;
  const words = (r: TextRun) => r.text.trim().length > MARK_CHARS;
  const over = (a: TextRun, b: TextRun) => Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > STACKED_OVERLAP * Math.min(a.width, b.width);
  const stacked = levels.some((level, i) => levels.slice(i + 1).some((lower) => level.some((a) => words(a) && lower.some((b) => words(b) && over(a, b)))));
  return stacked ? levels : undefined;
}

/** Share of the narrower of two runs that the other must stand over for them to be stacked. */
const STACKED_OVERLAP = 0.5;

/**
 * Cuts a grouped line where its parts, far apart, stand on different baselines. The line
 * tolerance (half the font size) is right for a superscript beside its word, but too loose for
 * text a column's width away.
 */
function splitAtGaps(runs: readonly TextRun[], levelOf: (r: TextRun) => number): { runs: TextRun[]; level: number; size: number }[] {
  const stacked = stackedLevels(runs, levelOf);
  if (stacked) return stacked.flatMap((level) => splitAtGaps(level, levelOf));
  const sorted = sortedByX(runs);
  const main = mainRun(sorted);
  const whole = [{ runs: sorted, level: levelOf(main), size: main.fontSize }];
  // Tilted runs (an OCR layer of a skewed scan) are left as grouped: their levels are
  // estimates, a point or two apart along one line.
  if (sorted.some((r) => r.skew)) return whole;
  const parts: { runs: TextRun[]; level: number; chars: number; size: number; x1: number }[] = [];
  for (const run of sorted) {
    const last = parts[parts.length - 1];
    const chars = run.text.trim().length;
    if (last && run.x - last.x1 <= BLOCK_GAP_EMS * Math.max(run.fontSize, last.size)) {
      last.runs.push(run);
      last.x1 = Math.max(last.x1, run.x + run.width);
      // A part's level is that of its main text, not of a raised marker.
      if (chars > last.chars) {
        last.level = levelOf(run);
        last.chars = chars;
        last.size = run.fontSize;
      }
    } else {
      parts.push({ runs: [run], level: levelOf(run), chars, size: run.fontSize, x1: run.x + run.width });
    }
  }
  if (parts.length < 2) return whole;
  const close = (a: { level: number; size: number }, b: { level: number; size: number }) => Math.abs(a.level - b.level) <= SPLIT_BASELINE_EMS * Math.max(a.size, b.size);
  // Steps between neighbours: a line whose words drift down one after the other (a tilted OCR
  // layer) steps a little at a time and stays whole; a box beside a column steps at once.
  // Marks (a footnote number raised before its note, a bullet) go with the part after them.
  const groups: { runs: TextRun[]; level: number; size: number; chars: number }[] = [];
  let pending: TextRun[] = [];
  for (const part of parts) {
    if (part.chars <= MARK_CHARS) {
      pending.push(...part.runs);
      continue;
    }
    const last = groups[groups.length - 1];
    if (last && close(last, part)) {
      last.runs.push(...pending, ...part.runs);
      if (part.chars > last.chars) Object.assign(last, { level: part.level, size: part.size, chars: part.chars });
    } else {
      groups.push({ runs: [...pending, ...part.runs], level: part.level, size: part.size, chars: part.chars });
    }
    pending = [];
  }
  if (groups.length === 0) return whole;
  groups[groups.length - 1]!.runs.push(...pending);
  // Groups on one level (the first and third columns beside a box in the second) are one line.
  const lines: { runs: TextRun[]; level: number; size: number }[] = [];
  for (const group of groups) {
    const line = lines.find((l) => close(l, group));
    if (line) line.runs.push(...group.runs);
    else lines.push({ runs: group.runs, level: group.level, size: group.size });
  }
  return lines;
}

/**
 * A run stands apart from the rest of its line (more than this × its size from any of them; words
 * of a line are a space apart, well under an em)…
 * Baselines of two columns are often close enough to be one "line" here; column detection
 * separates them later.
 */
const STRAY_GAP_EMS = 1;

/**
 * …and touches a run of a neighbouring line that is also within tolerance: it belongs there.
 * Taking lines top to bottom, a raised letter (the A of the LaTeX logo, a superscript) can be
 * met first by the line of the other column that stands a little higher, and would be cut off
 * its word when the columns are separated.
 */
function reattachStrays(open: OpenLine[], levelOf: (r: TextRun) => number, options: LineGroupingOptions): void {
  const within = (run: TextRun, other: OpenLine) => Math.abs(other.y - levelOf(run)) <= options.lineTolerance * Math.max(run.fontSize, other.fontSize);
  const touches = (run: TextRun, other: OpenLine) => nearestGap(run, other.runs) <= options.spaceRatio * run.fontSize;
  // First, a line that is no more than a mark set in pieces (the "1" and ",p" of "B1,p", a
  // subscript whose "B" stands on the line above) goes whole to the line it touches.
  open.forEach((line, k) => {
    const chars = line.runs.reduce((n, r) => n + r.text.trim().length, 0);
    if (line.runs.length < 2 || chars > MARK_CHARS) return;
    const home = [open[k - 1], open[k + 1]].find((other) => other && other.runs.length > 0 && line.runs.every((run) => within(run, other)) && line.runs.some((run) => touches(run, other)));
    if (home) home.runs.push(...line.runs.splice(0));
  });
  const takes = (other: OpenLine | undefined, run: TextRun): other is OpenLine => other !== undefined && other.runs.length > 0 && within(run, other) && touches(run, other);
  for (let k = 0; k < open.length; k++) {
    const runs = open[k]!.runs;
    // Each run in turn, as the line had them: a run that leaves is the one at `at`, and only it.
    for (let i = 0, at = 0, count = runs.length; i < count; i++) {
      const run = runs[at]!;
      if (runs.length > 1 && nearestGap(run, runs) <= STRAY_GAP_EMS * run.fontSize) {
        at++;
        continue;
      }
      const home = takes(open[k - 1], run) ? open[k - 1]! : takes(open[k + 1], run) ? open[k + 1]! : undefined;
      if (!home) {
        at++;
        continue;
      }
      runs.splice(at, 1);
      home.runs.push(run);
    }
  }
}

/** Horizontal distance from a run to the closest of the others (0 when they overlap). */
function nearestGap(run: TextRun, others: readonly TextRun[]): number {
  let best = Infinity;
  for (const o of others) {
    if (o === run) continue;
    best = Math.min(best, Math.max(0, o.x - (run.x + run.width), run.x - (o.x + o.width)));
  }
  return best;
}

/** The run of the most characters: its baseline is the line's, not a raised mark's beside it. */
export function mainRun(runs: readonly TextRun[]): TextRun {
  return runs.reduce((a, b) => (b.text.trim().length > a.text.trim().length ? b : a));
}

/** Makes a line from runs that share a baseline. */
export function buildLine(runs: readonly TextRun[], options: SpacingOptions): Line {
  const ordered = sortedByX(runs);
  const text = joinRuns(ordered, options);
  const left = minOf(ordered, (r) => r.x);
  const right = maxOf(ordered, (r) => r.x + r.width);
  const { fontSize, run } = dominantSize(ordered);
  // For a tilted line, the baseline where the line starts: lines that start together compare.
  const y = run.y + (left - run.x) * (run.skew ?? 0);
  return textLine({ text, x: left, y, width: right - left, fontSize, runs: ordered });
}

/** The font size that most of the line's characters are set in, and the first run set in it. */
function dominantSize(runs: readonly TextRun[]): { fontSize: number; run: TextRun } {
  // Keyed by tenths of a point: small integers hash faster than the sizes themselves.
  const bySize = new Map<number, { chars: number; run: TextRun }>();
  for (const r of runs) {
    const key = Math.round(r.fontSize * 10);
    const entry = bySize.get(key) ?? { chars: 0, run: r };
    entry.chars += r.text.trim().length;
    bySize.set(key, entry);
  }
  let best = { fontSize: runs[0]!.fontSize, chars: -1, run: runs[0]! };
  for (const [tenths, { chars, run }] of bySize) {
    if (chars > best.chars) best = { fontSize: tenths / 10, chars, run };
  }
  return { fontSize: best.fontSize, run: best.run };
}
