/**
 * A document a stage fails says which stage: the engine's own messages ("Maximum call stack
 * size exceeded") name none, and a 4,000-page document that failed after all its pages were
 * read left nothing to go on.
 */
import { resolve } from "node:path";
import { throwError } from "rxjs";
import { describe, expect, it } from "vitest";
import { DocumentError } from "../../src/core/document-error.js";
import type { Stage } from "../../src/core/plugin.js";
import type { DocumentResult } from "../../src/core/records.js";
import { DEFAULT_LIMITS } from "../../src/pipeline/limits.js";
import { processFile } from "../../src/run/process-document.js";
import { namedStage } from "../../src/run/stage-failure.js";
import { buildWorkerComponents } from "../../src/run/worker-components.js";

const PDF = resolve("fixtures/samples/meeting-minutes.pdf");

/** The stages a worker builds from these stage types, as a run's worker does. */
async function workerStages(...types: string[]): Promise<Stage[]> {
  const setup = {
    baseDir: process.cwd(),
    source: { type: "folder", options: { path: "fixtures/samples" } },
    stages: types.map((type) => ({ type, options: {} })),
    limits: { maxPages: DEFAULT_LIMITS.max_pages, maxFileBytes: DEFAULT_LIMITS.max_file_bytes },
    needs: { lines: true },
  };
  return (await buildWorkerComponents(setup, () => {})).stages;
}

const failure = (result: DocumentResult) => (result.status === "failed" ? { code: result.error.code, message: result.error.message } : result.status);

/** A stage that fails the way the furniture pass failed on a long document. */
const overflowing: Stage = { apply: () => throwError(() => new RangeError("Maximum call stack size exceeded")) };

describe("stage_failed names the stage", () => {
  it("names a custom stage by its type in the pipeline, and the later stages do not take the blame", async () => {
    const stages = await workerStages("extract", "./test/helpers/throwing-stage.ts", "strip-furniture", "dehyphenate", "chunk");
    expect(failure(await processFile(PDF, stages))).toEqual({
      code: "stage_failed",
      message: "./test/helpers/throwing-stage.ts: Cannot read properties of undefined (reading 'text')",
    });
  });

  it("names a built-in stage that overflows the stack (strip-furniture: Maximum call stack size exceeded)", async () => {
    const [extract] = await workerStages("extract");
    expect(failure(await processFile(PDF, [extract!, namedStage("strip-furniture", overflowing)]))).toEqual({
      code: "stage_failed",
      message: "strip-furniture: Maximum call stack size exceeded",
    });
  });

  it("names a stage that throws while it is being put together, before any record flows", async () => {
    const [extract] = await workerStages("extract");
    const broken: Stage = {
      apply: () => {
        throw new Error("no tokenizer for cl200k");
      },
    };
    expect(failure(await processFile(PDF, [extract!, namedStage("chunk", broken)]))).toEqual({ code: "stage_failed", message: "chunk: no tokenizer for cl200k" });
  });

  it("leaves a stage's DocumentError its own code and sentence", async () => {
    const refusing: Stage = { apply: () => throwError(() => new DocumentError("resource_limit", "the page holds more than 1,000,000 glyphs")) };
    const [extract] = await workerStages("extract");
    expect(failure(await processFile(PDF, [extract!, namedStage("redact", refusing)]))).toEqual({ code: "resource_limit", message: "the page holds more than 1,000,000 glyphs" });
    expect(failure(await processFile(resolve("fixtures/bad/truncated.pdf"), await workerStages("extract", "strip-furniture")))).toMatchObject({ code: "damaged" });
  });
});
