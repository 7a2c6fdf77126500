/**
 * The stages `pagestream extract` runs, which are the stages of the default pipeline.yaml:
 * what a user sees from one file is what a batch run stores. Scan flags come first, on the text
 * as the PDF has it; furniture goes before dehyphenation, so a word broken over a page break
 * meets its other half (docs/extraction.md §10). pipeline.yaml starts with the same stages; a test keeps the
 * two in step.
 */
export const DEFAULT_STAGES: readonly { type: string }[] = [
  { type: "extract" },
  { type: "flag-scans" },
  { type: "strip-furniture" },
  { type: "dehyphenate" },
];

/**
 * The default stages with OCR (`pagestream extract --ocr`): after flag-scans, which says which
 * pages are scans, and before strip-furniture, which must see the running headers and page
 * numbers of OCR pages too.
 */
export function withOcr(stages: readonly { type: string }[]): { type: string }[] {
  const at = stages.findIndex((s) => s.type === "flag-scans");
  return at < 0 ? [...stages, { type: "ocr" }] : [...stages.slice(0, at + 1), { type: "ocr" }, ...stages.slice(at + 1)];
}
