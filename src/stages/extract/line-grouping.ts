/**
 * Runs → lines. Two runs are on one line when their baselines are closer than
 * `lineTolerance` × the larger font size (docs/extraction.md §3: 0.5), so a superscript footnote marker
 * stays on its line and a 9 pt footnote under 11 pt text gets its own tolerance.
 */
import type { Line, TextRun } from "../../core/records.js";
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
  const left = Math.min(...runs.map((r) => r.x));
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
  reattachStrays(open, levelOf, options);
  return open.filter((l) => l.runs.length > 0).map((l) => buildLine(l.runs, options));
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
  for (let k = 0; k < open.length; k++) {
    const line = open[k]!;
    for (const run of [...line.runs]) {
      if (line.runs.length > 1 && nearestGap(run, line.runs) <= STRAY_GAP_EMS * run.fontSize) continue;
      const home = [open[k - 1], open[k + 1]].find(
        (other) =>
          other &&
          other.runs.length > 0 &&
          Math.abs(other.y - levelOf(run)) <= options.lineTolerance * Math.max(run.fontSize, other.fontSize) &&
          nearestGap(run, other.runs) <= options.spaceRatio * run.fontSize,
      );
      if (!home) continue;
      line.runs.splice(line.runs.indexOf(run), 1);
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

/** Makes a line from runs that share a baseline. */
export function buildLine(runs: readonly TextRun[], options: SpacingOptions): Line {
  const ordered = [...runs].sort((a, b) => a.x - b.x);
  const text = joinRuns(ordered, options);
  const left = Math.min(...ordered.map((r) => r.x));
  const right = Math.max(...ordered.map((r) => r.x + r.width));
  const { fontSize, run } = dominantSize(ordered);
  // For a tilted line, the baseline where the line starts: lines that start together compare.
  const y = run.y + (left - run.x) * (run.skew ?? 0);
  return { text, x: left, y, width: right - left, fontSize, runs: ordered };
}

/** The font size that most of the line's characters are set in, and the first run set in it. */
function dominantSize(runs: readonly TextRun[]): { fontSize: number; run: TextRun } {
  const bySize = new Map<number, { chars: number; run: TextRun }>();
  for (const r of runs) {
    const key = Math.round(r.fontSize * 10) / 10;
    const entry = bySize.get(key) ?? { chars: 0, run: r };
    entry.chars += r.text.trim().length;
    bySize.set(key, entry);
  }
  let best = { fontSize: runs[0]!.fontSize, chars: -1, run: runs[0]! };
  for (const [fontSize, { chars, run }] of bySize) {
    if (chars > best.chars) best = { fontSize, chars, run };
  }
  return { fontSize: best.fontSize, run: best.run };
}
