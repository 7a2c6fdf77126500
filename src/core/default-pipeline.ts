/**
 * The stages `pagestream extract` runs, which are the stages of the default pipeline.yaml:
 * what a user sees from one file is what a batch run stores. Later stages (cleaning, scan
 * flags) are added here and in pipeline.yaml together; a test keeps the two in step.
 */
export const DEFAULT_STAGES: readonly { type: string }[] = [{ type: "extract" }];
