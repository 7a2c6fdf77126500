/**
 * Whether the lines of one size mark their paragraphs by gaps: their gaps fall in two groups,
 * the line gap and gaps clearly wider (paragraph spacing), with next to nothing in between.
 * Text set that way often keeps the line breaks it was typed with (a licence or a letter laid
 * out line by line, ragged right): a short line there says nothing about where a paragraph
 * ends, the gap says it all, and the paragraph spacing can be narrower than `paragraphRatio`
 * (LibreOffice's "Text body" at 1.5 line spacing: 1.36 × the line gap).
 *
 * Each kind of line is looked at apart, by its exact size (rounded to 0.1 pt) and whether it is
 * monospaced: a page's 10 pt code listing (1.2 em pitch) beside its 10.9 pt prose (1.5 em,
 * eisvogel's basic example) would otherwise make every prose line gap look like a paragraph gap.
 */
import { maxOf, minOf } from "../../text/text-geometry.js";

export interface GapEvidence {
  /**
   * For lines of this kind that separate paragraphs by gaps: the gap (in ems of the line) above
   * which a paragraph starts. Undefined when the lines of that kind do not tell.
   */
  thresholdFor(kind: LineKind): number | undefined;
}

export interface LineKind {
  fontSize: number;
  monospace: boolean;
}

/** Gaps up to this × the line gap are line gaps (baselines jitter, OCR ones by a point or two). */
const NEAR = 1.1;
/** Gaps from this × the line gap are paragraph gaps: under LibreOffice's 1.36, and clear of NEAR so jitter is neither. */
const WIDE = 1.2;
/** Line gaps and paragraph gaps the lines of one kind need at least to tell (one wide gap may be a figure). */
const MIN_EACH = 2;
/** Share of the gaps that may fall between the two groups; more, and the gaps spread evenly (docs/extraction.md §5.3). */
const MAX_BETWEEN_SHARE = 0.05;

const keyOf = (kind: LineKind) => `${Math.round(kind.fontSize * 10)}:${kind.monospace}`;

/**
 * `gaps`: consecutive lines' gaps in ems, with the kind of both lines (see lineGaps);
 * `lineGapOf` measures the line gap of a set of gaps (typicalLineGap).
 */
export function paragraphGaps(gaps: readonly { gap: number; kind: LineKind }[], paragraphRatio: number, lineGapOf: (gaps: number[]) => number): GapEvidence {
  const byKind = new Map<string, number[]>();
  for (const { gap, kind } of gaps) {
    const key = keyOf(kind);
    byKind.set(key, [...(byKind.get(key) ?? []), gap]);
  }
  const thresholds = new Map([...byKind].map(([key, list]) => [key, thresholdOf(list, lineGapOf(list), paragraphRatio)]));
  return { thresholdFor: (kind) => thresholds.get(keyOf(kind)) };
}

function thresholdOf(gaps: readonly number[], lineGap: number, paragraphRatio: number): number | undefined {
  if (lineGap <= 0) return undefined;
  const relative = gaps.map((g) => g / lineGap);
  const near = relative.filter((r) => r <= NEAR);
  const wide = relative.filter((r) => r >= WIDE);
  const between = relative.length - near.length - wide.length;
  if (near.length < MIN_EACH || wide.length < MIN_EACH || between > MAX_BETWEEN_SHARE * relative.length) return undefined;
  return Math.min(paragraphRatio, (maxOf(near) + minOf(wide)) / 2) * lineGap;
}
