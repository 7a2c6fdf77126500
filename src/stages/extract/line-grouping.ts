/**
 * Runs → lines. Two runs are on one line when their baselines are closer than
 * `lineTolerance` × the larger font size (DOMAIN §2: 0.5), so a superscript footnote marker
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
  /** Baseline of the line's main text (its largest run by characters so far). */
  y: number;
  fontSize: number;
  mainChars: number;
}

/** Groups runs into lines, top to bottom; each line's runs left to right. */
export function groupLines(runs: readonly TextRun[], options: LineGroupingOptions): Line[] {
  // Highest baseline first; a run joins the line just above it when the baselines are close.
  const sorted = [...runs].sort((a, b) => b.y - a.y || a.x - b.x);
  const open: OpenLine[] = [];
  for (const run of sorted) {
    const current = open[open.length - 1];
    const tolerance = options.lineTolerance * Math.max(run.fontSize, current?.fontSize ?? 0);
    if (current && Math.abs(current.y - run.y) <= tolerance) {
      current.runs.push(run);
      const chars = run.text.trim().length;
      // The line's baseline follows its main text, not a raised marker that came first.
      if (chars > current.mainChars) {
        current.y = run.y;
        current.fontSize = run.fontSize;
        current.mainChars = chars;
      }
    } else {
      open.push({ runs: [run], y: run.y, fontSize: run.fontSize, mainChars: run.text.trim().length });
    }
  }
  return open.map((l) => buildLine(l.runs, options));
}

/** Makes a line from runs that share a baseline. */
export function buildLine(runs: readonly TextRun[], options: SpacingOptions): Line {
  const ordered = [...runs].sort((a, b) => a.x - b.x);
  const text = joinRuns(ordered, options);
  const left = Math.min(...ordered.map((r) => r.x));
  const right = Math.max(...ordered.map((r) => r.x + r.width));
  const { fontSize, y } = dominantSize(ordered);
  return { text, x: left, y, width: right - left, fontSize, runs: ordered };
}

/** The font size (and its baseline) that most of the line's characters are set in. */
function dominantSize(runs: readonly TextRun[]): { fontSize: number; y: number } {
  const bySize = new Map<number, { chars: number; y: number }>();
  for (const r of runs) {
    const key = Math.round(r.fontSize * 10) / 10;
    const entry = bySize.get(key) ?? { chars: 0, y: r.y };
    entry.chars += r.text.trim().length;
    bySize.set(key, entry);
  }
  let best = { fontSize: runs[0]!.fontSize, chars: -1, y: runs[0]!.y };
  for (const [fontSize, { chars, y }] of bySize) {
    if (chars > best.chars) best = { fontSize, chars, y };
  }
  return { fontSize: best.fontSize, y: best.y };
}
