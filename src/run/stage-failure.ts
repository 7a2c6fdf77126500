/**
 * Which stage failed a document. Every stage the run builds is wrapped under the name the
 * pipeline gives it, so an exception that escapes it becomes `stage_failed` with that name in
 * front ("strip-furniture: Maximum call stack size exceeded"): the engine's own message never
 * says where it came from, and a custom stage's is no clearer.
 */
import type { Observable } from "rxjs";
import { catchError } from "rxjs";
import { describeError } from "../core/document-error.js";
import type { DocumentContext, Stage } from "../core/plugin.js";
import type { DocRecord } from "../core/records.js";

/** An exception that escaped the stage `stage`; `error` is what it threw. */
export class StageFailure extends Error {
  constructor(
    readonly stage: string,
    readonly error: unknown,
  ) {
    super(`${stage}: ${describeError(error)}`, { cause: error });
    this.name = "StageFailure";
  }
}

/**
 * The stage under `name` (its `type` in the pipeline: "chunk", "./my-stage.js"). A failure of a
 * stage before it passes through already named: records flow through every later stage, and
 * so do their errors.
 */
export function namedStage(name: string, stage: Stage): Stage {
  const named = (err: unknown) => (err instanceof StageFailure ? err : new StageFailure(name, err));
  return {
    apply(records: Observable<DocRecord>, context: DocumentContext): Observable<DocRecord> {
      let out: Observable<DocRecord>;
      try {
        out = stage.apply(records, context);
      } catch (err) {
        throw named(err);
      }
      return out.pipe(
        catchError((err: unknown) => {
          throw named(err);
        }),
      );
    },
  };
}
