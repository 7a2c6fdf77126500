/** How sure the engine was of a page: the mean of its words' confidences, and the doubtful words. */
import type { OcrWord } from "./tsv.js";

export interface Confidence {
  words: number;
  /** 0–100, one decimal; 0 for a page without words. */
  meanConfidence: number;
  lowConfidenceWords: number;
}

export function confidenceOf(words: readonly OcrWord[], lowBelow: number): Confidence {
  const total = words.reduce((s, w) => s + w.confidence, 0);
  return {
    words: words.length,
    meanConfidence: words.length ? Math.round((total / words.length) * 10) / 10 : 0,
    lowConfidenceWords: words.filter((w) => w.confidence < lowBelow).length,
  };
}
