/**
 * The stages `pagestream extract` runs, which are the stages of the default pipeline.yaml:
 * what a user sees from one file is what a batch run stores. Scan flags come first, on the text
 * as the PDF has it; furniture goes before dehyphenation, so a word broken over a page break
 * meets its other half (DOMAIN §4). pipeline.yaml starts with the same stages; a test keeps the
 * two in step.
 */
export const DEFAULT_STAGES: readonly { type: string }[] = [
  { type: "extract" },
  { type: "flag-scans" },
  { type: "strip-furniture" },
  { type: "dehyphenate" },
];
