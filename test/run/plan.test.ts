/** The skip/process decision, from data alone: no source, worker or sink involved. */
import { describe, expect, it } from "vitest";
import type { SourceItem } from "../../src/core/records.js";
import { planItem, settleOutcome, type Plan } from "../../src/run/plan.js";
import type { KnownDocument } from "../../src/run/run-state.js";

const identity = { configHash: "config-1", limitsHash: "limits-1" };
const context = { identity, sinks: ["jsonl:a", "sqlite:b"], maxFileBytes: 1000 };
const item = (fingerprint = "size:10 mtime:1", size = 10): SourceItem => ({ uri: "/in/a.pdf", path: "a.pdf", size, mtimeMs: 1, fingerprint });
const known = (over: Partial<KnownDocument> = {}): KnownDocument => ({
  fingerprint: "size:10 mtime:1",
  documentId: "d1",
  configHash: "config-1",
  errorCode: null,
  attempts: 0,
  sinks: new Set(["jsonl:a", "sqlite:b"]),
  ...over,
});
const processPlan = (p: Plan) => {
  if (p.action !== "process") throw new Error(`expected a process plan, got ${p.action}`);
  return p;
};

describe("planning an item", () => {
  it("skips an unchanged item that every sink holds under the same config, before reading it", () => {
    expect(planItem(item(), known(), context)).toEqual({ action: "skip" });
  });

  it("processes a new item, one with a new fingerprint (asking to skip the same bytes), and one a sink lacks", () => {
    expect(processPlan(planItem(item(), undefined, context))).toMatchObject({ job: { item: item() }, current: false, missing: context.sinks });
    expect(processPlan(planItem(item("size:10 mtime:2"), known(), context)).job).toEqual({ item: item("size:10 mtime:2"), skipIfDocumentId: "d1" });
    const lacking = processPlan(planItem(item(), known({ sinks: new Set(["jsonl:a"]) }), context));
    expect([lacking.missing, lacking.job.skipIfDocumentId]).toEqual([["sqlite:b"], undefined]);
  });

  it("processes everything again with --reprocess: stages run on the same bytes, and every sink gets the new version", () => {
    const plan = processPlan(planItem(item(), known(), { ...context, reprocess: true }));
    expect([plan.current, plan.job.skipIfDocumentId, plan.missing]).toEqual([false, undefined, context.sinks]);
    expect(settleOutcome(plan, { kind: "processed", documentId: "d1", result: { status: "ok" } as never }, context.sinks)).toEqual({ kind: "deliver", targets: context.sinks, replace: true });
    const permanent = known({ errorCode: "damaged", attempts: 1, documentId: "d1" });
    expect(planItem(item(), permanent, context)).toEqual({ action: "skip" });
    expect(planItem(item(), permanent, { ...context, reprocess: true }).action).toBe("process");
  });

  it("processes again under a changed config; a limit failure only when the limits change", () => {
    expect(planItem(item(), known({ configHash: "config-0" }), context).action).toBe("process");
    const timedOutTwice = known({ configHash: "limits-1", errorCode: "timeout", attempts: 2, documentId: null });
    expect(planItem(item(), timedOutTwice, context)).toEqual({ action: "skip" });
    expect(planItem(item(), timedOutTwice, { ...context, identity: { ...identity, limitsHash: "limits-2" } }).action).toBe("process");
  });

  it("tries transient failures again on every run, whatever the count", () => {
    for (const code of ["read_failed", "not_found", "access_denied"] as const) {
      expect(planItem(item(), known({ errorCode: code, attempts: 7, documentId: null }), context).action, code).toBe("process");
    }
  });

  it("tries a timeout or a lost worker once more on the next run, then leaves it", () => {
    for (const code of ["timeout", "worker_lost"] as const) {
      const configHash = code === "timeout" ? "limits-1" : "config-1";
      expect(planItem(item(), known({ errorCode: code, attempts: 1, configHash }), context).action, code).toBe("process");
      expect(planItem(item(), known({ errorCode: code, attempts: 2, configHash }), context).action, code).toBe("skip");
    }
  });

  it("counts the failures already recorded in a retry's job, so a queue never answers it with the kept failure", () => {
    const retried = processPlan(planItem(item(), known({ errorCode: "read_failed", attempts: 2, documentId: null }), context));
    expect(retried.job).toEqual({ item: item(), failedBefore: 2 });
    // New bytes are a new job anyway: the failures were of the old ones.
    expect(processPlan(planItem(item("size:10 mtime:9"), known({ errorCode: "read_failed", attempts: 2, documentId: null }), context)).job).toEqual({ item: item("size:10 mtime:9") });
  });

  it("leaves a permanent failure until the bytes or the config change", () => {
    const damaged = known({ errorCode: "damaged", attempts: 1 });
    expect(planItem(item(), damaged, context)).toEqual({ action: "skip" });
    expect(planItem(item("size:11 mtime:3"), damaged, context).action).toBe("process");
    expect(planItem(item(), damaged, { ...context, identity: { ...identity, configHash: "config-2" } }).action).toBe("process");
  });

  it("refuses a file larger than max_file_bytes without reading it", () => {
    const plan = planItem(item("f", 5000), undefined, context);
    expect(plan.action === "fail" && [plan.error.code, plan.error.message]).toEqual(["too_large", "the file has 5000 bytes, more than max_file_bytes (1000)"]);
  });
});

describe("settling what the processor found", () => {
  const result = { status: "failed" as const, uri: "/in/a.pdf", error: { type: "error" as const, uri: "/in/a.pdf", code: "damaged" as const, message: "x" }, warnings: [] };

  it("only remembers the new fingerprint when the bytes are the ones the sinks hold", () => {
    const plan = processPlan(planItem(item("size:10 mtime:2"), known(), context));
    expect(settleOutcome(plan, { kind: "unchanged", documentId: "d1" }, context.sinks)).toEqual({ kind: "refingerprint" });
  });

  it("writes the same bytes only to the sinks that lack them, without replacing the others", () => {
    const plan = processPlan(planItem(item(), known({ sinks: new Set(["jsonl:a"]) }), context));
    expect(settleOutcome(plan, { kind: "processed", documentId: "d1", result }, context.sinks)).toEqual({ kind: "deliver", targets: ["sqlite:b"], replace: false });
  });

  it("writes new bytes to every sink, as a new version", () => {
    const plan = processPlan(planItem(item("size:11 mtime:2"), known(), context));
    expect(settleOutcome(plan, { kind: "processed", documentId: "d2", result }, context.sinks)).toEqual({ kind: "deliver", targets: context.sinks, replace: true });
    const unread = processPlan(planItem(item(), undefined, context));
    expect(settleOutcome(unread, { kind: "processed", documentId: null, result }, context.sinks)).toEqual({ kind: "deliver", targets: context.sinks, replace: true });
  });
});
