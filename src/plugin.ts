/**
 * `pagestream/plugin`: what a source, stage or sink of your own is written against. Import
 * from here, never from pagestream's files: this is the surface that stays stable.
 *
 * ```js
 * import { defineStage, filterPages, z } from "pagestream/plugin";
 * export default defineStage({ type: "my-stage", summary: "…", options: z.strictObject({}), examples: [{}], create: () => ({ apply: (records) => records }) });
 * ```
 * A pipeline names the module by its path: `- type: ./stages/my-stage.js`. `z` is the zod that
 * validates pipelines, so an options schema made with it becomes part of the pipeline's JSON
 * schema and error messages like the built-ins' options.
 */
export { defineSink, defineSource, defineStage } from "./core/plugin.js";
export type {
  DocumentContext,
  DocumentLimits,
  PipelineFacts,
  PreviousDelivery,
  RunContext,
  RunSummary,
  Settled,
  Sink,
  SinkContext,
  RunOrigin,
  SourceOrigin,
  SinkSpec,
  Source,
  SourceSpec,
  Stage,
  StageInput,
  StageSpec,
} from "./core/plugin.js";
export { filterPages, mapPages, pagesOf, pageWindows, wholeDocument, WINDOW_PAGES, windowPagesOf, type PageWindow, type WindowResult } from "./core/stage-operators.js";
export { rerender, withLineTexts, withoutLines } from "./text/page-edit.js";
export { pageFlags, pageLabel } from "./text/page-facts.js";
export { DocumentError } from "./core/document-error.js";
export { ERROR_CODES } from "./core/records.js";
export type * from "./core/records.js";
export { z } from "zod";
