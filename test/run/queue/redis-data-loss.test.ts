/**
 * Redis that loses a run's data mid-run, with a real redis-server:
 * - restarted empty (no persistence), killed and started again on the same port: the jobs in
 *   flight vanish with it. The coordinator notices (its run's marker is gone), says so, takes its
 *   claim again knowingly and adds the jobs it still waits for under the same ids; the run ends
 *   with every document delivered once — not waiting for ever on jobs nobody will ever take;
 * - one queued job lost alone (a failover that lost the latest writes, the marker kept): it is
 *   added again under its id, and the run ends the same.
 */
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyInputs, gateMarks, INPUTS, localReference, outputs, pagestream, reads, stopAll, writePipeline, type Started } from "../../helpers/queue-runs.js";
import { startRedis, type RedisServer } from "../../helpers/redis-server.js";
import { waitFor } from "../../helpers/wait-for.js";

/** The bound: a run over a Redis that came back empty ends within a minute. */
const RUN_ENDS_WITHIN_SECONDS = 60;

let tmp: string;
let redis: RedisServer;
let local: ReturnType<typeof outputs>;
let run: Awaited<Started["exited"]> | "still running";
let workerRun: Awaited<Started["exited"]>;
let claimAfterLoss: { token?: string; pipeline?: string } | undefined;
const dir = () => join(tmp, "distributed");

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "pagestream-data-loss-"));
  await copyInputs(join(tmp, "in"));
  redis = await startRedis();
  local = await localReference(tmp);
});

afterAll(async () => {
  await stopAll();
  await redis?.stop();
  await rm(tmp, { recursive: true, force: true });
});

/** Waits for a run to end, for RUN_ENDS_WITHIN_SECONDS at most. */
function endOf(started: Started): Promise<Awaited<Started["exited"]> | "still running"> {
  const bound = new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), RUN_ENDS_WITHIN_SECONDS * 1000).unref());
  return Promise.race([started.exited, bound]);
}

describe("Redis restarted empty mid-run", () => {
  beforeAll(async () => {
    const gate = join(tmp, "gate");
    await mkdir(gate);
    await writePipeline(dir(), { gateDir: gate });
    const worker = pagestream(["worker", "--queue", redis.url, "--concurrency", "1"], { cwd: dir() });
    const coordinator = pagestream(["run", "--queue", redis.url, "--progress", "never"], { cwd: dir() });
    // The worker holds the fourth document; the three after it wait in the queue.
    await waitFor("the worker to take the held document", () => gateMarks(gate).length > 0);
    const client = redis.client();
    await waitFor("the documents after the held one to be queued", async () => (await client.llen("bull:pagestream:wait")) === 3);
    const claimBefore = JSON.parse((await client.get("bull:pagestream:pagestream:coordinator")) ?? "{}") as { token?: string };
    client.disconnect();

    await redis.kill();
    await redis.restart(); // empty: nothing was persisted
    await writeFile(join(gate, "release"), "");

    const after = redis.client();
    claimAfterLoss = await waitFor("the coordinator to claim the queue again", async () => {
      const text = await after.get("bull:pagestream:pagestream:coordinator").catch(() => null);
      return text ? (JSON.parse(text) as { token?: string; pipeline?: string }) : undefined;
    });
    after.disconnect();
    expect(claimAfterLoss.token).toBe(claimBefore.token);

    run = await endOf(coordinator);
    worker.child.kill("SIGTERM");
    workerRun = await worker.exited;
  }, 150_000);

  it("ends the run instead of waiting for ever, saying Redis lost its data", () => {
    expect(run).not.toBe("still running");
    if (run === "still running") return;
    expect([run.code, run.stderr]).toEqual([3, expect.stringContaining(`the queue's Redis at redis://127.0.0.1:${redis.port} lost its data`)]);
    expect(run.stderr).toContain("4 job(s) this run waits for are added again under the same ids");
  });

  it("delivers every document once: the local run's JSONL and archive rows", () => {
    const distributed = outputs(dir());
    expect(distributed.chunksJsonl).toBe(local.chunksJsonl);
    expect(distributed.documentsJsonl).toBe(local.documentsJsonl);
    expect(distributed.archive).toEqual(local.archive);
    const summary = JSON.parse(readFileSync(join(dir(), "out/run-summary.json"), "utf8"));
    expect(summary.summary).toMatchObject({ documents: INPUTS.length, skipped: 0 });
  });

  it("processes again only the job a worker held when Redis lost it, whose first outcome that worker dropped", () => {
    expect([...reads(dir())].sort()).toEqual([...INPUTS.map(([, name]) => `read ${name}`), "read d-held-service-agreement.pdf"].sort());
    // Seven documents finished: the dropped outcome counts for nothing.
    expect(workerRun.stderr).toMatch(/worker stopped: 7 document\(s\), \d+ pages/);
    expect(workerRun.stderr).toMatch(/d-held-service-agreement\.pdf: the outcome is dropped, the job is no longer this worker's \(Missing (key|lock) for job d[0-9a-f]+\. moveToFinished\)/);
  });
});

describe("one queued job lost alone", () => {
  it("is added again under its id, and every document is delivered once", async () => {
    const dir = join(tmp, "lost-job");
    const gate = join(tmp, "lost-job-gate");
    await mkdir(gate);
    await writePipeline(dir, { gateDir: gate, queue: "{ name: lost-job }" });
    const worker = pagestream(["worker", "--queue", redis.url, "--concurrency", "1"], { cwd: dir });
    const coordinator = pagestream(["run", "--queue", redis.url, "--progress", "never"], { cwd: dir });
    await waitFor("the worker to take the held document", () => gateMarks(gate).length > 0);
    // As a failover that lost the latest writes would leave it: the job gone, the run's marker kept.
    const queue = new Queue("lost-job", { connection: { host: "127.0.0.1", port: redis.port }, prefix: "bull" });
    const lost = await waitFor("the job of e-hyphenated-lines.pdf to be queued", async () =>
      (await queue.getWaiting()).find((job) => (job.data as { item: { uri: string } }).item.uri.endsWith("e-hyphenated-lines.pdf")),
    );
    await queue.remove(lost.id!);
    await queue.close();
    await writeFile(join(gate, "release"), "");

    const ended = await endOf(coordinator);
    worker.child.kill("SIGTERM");
    await worker.exited;
    expect(ended).not.toBe("still running");
    if (ended === "still running") return;
    expect([ended.code, ended.stderr]).toEqual([3, expect.stringMatching(/\/e-hyphenated-lines\.pdf vanished from the queue's Redis at redis:\/\/127\.0\.0\.1:\d+ \(a failover that lost writes\?\): added again under the same id/)]);
    expect(ended.stderr).not.toContain("lost its data");
    expect(outputs(dir).chunksJsonl).toBe(local.chunksJsonl);
    expect(outputs(dir).archive).toEqual(local.archive);
    expect([...reads(dir)].sort()).toEqual(INPUTS.map(([, name]) => `read ${name}`).sort());
  }, 90_000);
});
