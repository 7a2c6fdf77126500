/**
 * Jobs a worker must not take, and documents that fail, against a real redis-server:
 * - a worker whose pipeline differs from the coordinator's (another chunk size) refuses the
 *   run's jobs — whether it meets the coordinator's claim at start or a job first — and puts the
 *   job back; a worker of the right pipeline then does the run, as a local run would;
 * - a document that always times out becomes the local run's `timeout` error record after one
 *   try: a limit failure is final at once (UnrecoverableError), never retried;
 * - a read that fails and may pass (`read_failed`) is tried again with backoff: once it works the
 *   document is ingested; one that keeps failing ends in BullMQ's failed set and as an error
 *   record after queue.attempts tries, and the run goes on.
 */
import { readdirSync, readFileSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyInputs, localReference, gateMarks, INPUTS, outputs, pagestream, reads, stopAll, writePipeline } from "../../helpers/queue-runs.js";
import { waitFor } from "../../helpers/wait-for.js";
import { startRedis, type RedisServer } from "../../helpers/redis-server.js";

const FLAKY_SOURCE = resolve("test/helpers/flaky-folder-source.mjs");

let tmp: string;
let redis: RedisServer;
let local: ReturnType<typeof outputs>;
let open: string;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "pagestream-queue-failures-"));
  await copyInputs(join(tmp, "in"));
  redis = await startRedis();
  local = await localReference(tmp);
  open = join(tmp, "open-gate");
});

afterAll(async () => {
  await stopAll();
  await redis?.stop();
  await rm(tmp, { recursive: true, force: true });
});

describe("a worker with another pipeline", () => {
  it("refuses the run's jobs, naming both identities, and the run goes on with the right worker", async () => {
    // Two documents are enough here: what is tested is who takes them.
    const inputs = join(tmp, "refusal-in");
    await copyInputs(inputs, INPUTS.filter(([, name]) => /^(a|g)-/.test(name)));
    const queue = "{ name: refusals }";
    const right = join(tmp, "refusals");
    const other = join(tmp, "refusals-other");
    await writePipeline(right, { gateDir: open, queue, input: inputs });
    await writePipeline(other, { gateDir: open, queue, input: inputs, chunkTokens: 96 });

    // Started before the coordinator: it meets the run in a job, puts it back and stops.
    const early = pagestream(["worker", "--queue", redis.url, "--concurrency", "1"], { cwd: other });
    const client = redis.client();
    await waitFor("the early worker's heartbeat", async () => early.child.exitCode !== null || (await client.hlen("bull:refusals:pagestream:workers")) > 0);
    client.disconnect();
    expect(early.child.exitCode, early.output().stderr).toBeNull();
    const coordinator = pagestream(["run", "--queue", redis.url, "--progress", "never"], { cwd: right });
    const refusedInJob = await early.exited;
    expect(refusedInJob.code).toBe(2);
    expect(refusedInJob.stderr).toMatch(/refused the jobs of the queue "refusals" at redis:\/\/127\.0\.0\.1:\d+: they are for pagestream \S+, config [0-9a-f]{12} ≠ this worker's pagestream \S+, config [0-9a-f]{12}/);

    // Started while the coordinator holds the queue: refused before it takes anything. The right
    // worker starts meanwhile.
    const late = pagestream(["worker", "--queue", redis.url, "--concurrency", "1"], { cwd: other });
    const worker = pagestream(["worker", "--queue", redis.url, "--concurrency", "1"], { cwd: right });
    const refusedAtStart = await late.exited;
    expect([refusedAtStart.code, refusedAtStart.stderr]).toEqual([2, expect.stringContaining("refused the jobs")]);
    const done = await coordinator.exited;
    worker.child.kill("SIGTERM");
    expect((await worker.exited).code).toBe(0);

    expect(done.code).toBe(3);
    expect(done.stderr).toMatch(/worker \S+ refuses this run's jobs: (refused the jobs|pagestream \S+, config [0-9a-f]{12} ≠ this worker's)/);
    expect(done.stderr).toContain("1 document(s) ingested");
    // Nothing was read by the refusing workers; the right one read each document once.
    expect(reads(other)).toEqual([]);
    expect([...reads(right)].sort()).toEqual(["read a-meeting-minutes.pdf", "read g-notpdf.pdf"]);
    const ids = outputs(right).chunksJsonl.split("\n").filter(Boolean).map((l) => JSON.parse(l).id);
    expect(ids.length).toBeGreaterThan(3);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe("a document that always times out", () => {
  it("ends as the timeout error record after one try, and the run finishes", async () => {
    const dir = join(tmp, "timeout");
    const gate = join(tmp, "closed-gate");
    await mkdir(gate);
    await writePipeline(dir, { gateDir: gate, top: "timeout_seconds: 5\n", queue: "{ name: timeouts, attempts: 3, backoff_seconds: 0.1 }" });
    const worker = pagestream(["worker", "--queue", redis.url, "--concurrency", "2"], { cwd: dir });
    const run = await pagestream(["run", "--queue", redis.url, "--progress", "never"], { cwd: dir }).exited;
    worker.child.kill("SIGTERM");
    await worker.exited;

    expect(run.code).toBe(3);
    const records = readFileSync(join(dir, "out/chunks.documents.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
    const held = records.find((r) => JSON.stringify(r).includes("d-held-service-agreement.pdf"));
    expect(held).toMatchObject({ status: "failed", code: "timeout", message: expect.stringContaining("timeout_seconds (5 s)") });
    // One try only: the gate saw the document once, the source read it once.
    expect(gateMarks(gate).map((m) => m.name)).toEqual(["d-held-service-agreement.pdf"]);
    expect(reads(dir).filter((r) => r.includes("d-held"))).toHaveLength(1);
    // The other documents are the local run's.
    const others = (jsonl: string) => jsonl.split("\n").filter((l) => l && !l.includes("d-held-service-agreement.pdf"));
    expect(others(outputs(dir).chunksJsonl)).toEqual(others(local.chunksJsonl));
    const status = JSON.parse((await pagestream(["status", "--queue", redis.url, "--json"], { cwd: dir }).exited).stdout);
    expect(status.failed.map((f: { reason: string }) => f.reason).sort()).toEqual([expect.stringMatching(/d-held-service-agreement\.pdf: timeout: /), expect.stringMatching(/g-notpdf\.pdf: not_pdf/)]);
  });
});

describe("a read that fails", () => {
  it("is tried again with backoff until it works, or until queue.attempts, and the run goes on", async () => {
    const dir = join(tmp, "flaky");
    const inputs = join(tmp, "flaky-in");
    const counts = join(tmp, "flaky-counts");
    await mkdir(inputs);
    await mkdir(counts);
    await mkdir(dir);
    await copyFile("fixtures/samples/meeting-minutes.pdf", join(inputs, "a-meeting-minutes.pdf"));
    await copyFile("fixtures/samples/quarterly-report.pdf", join(inputs, "b-flaky-quarterly-report.pdf"));
    await copyFile("fixtures/two-pages.pdf", join(inputs, "c-broken-two-pages.pdf"));
    await writeFile(
      join(dir, "pipeline.yaml"),
      "queue: { name: flaky, attempts: 3, backoff_seconds: 0.1 }\n" +
        `source: { type: ${FLAKY_SOURCE}, path: ../flaky-in, fail: { flaky: 1, broken: 1000 }, count_dir: ${counts} }\n` +
        "stages: [{ type: extract }]\nsinks: [{ type: jsonl, path: out/pages.jsonl }]\n",
    );
    const worker = pagestream(["worker", "--queue", redis.url, "--concurrency", "2"], { cwd: dir });
    const run = await pagestream(["run", "--queue", redis.url, "--progress", "never"], { cwd: dir }).exited;
    worker.child.kill("SIGTERM");
    await worker.exited;

    expect([run.code, run.stderr]).toEqual([3, expect.stringMatching(/c-broken-two-pages\.pdf: read_failed: .*the share did not answer \(try 3\)/)]);
    expect(run.stderr).toContain("2 document(s) ingested");
    // The flaky one failed once and was read on its second try; the broken one failed all three.
    expect(readdirSync(counts).sort()).toEqual(["b-flaky-quarterly-report.pdf.1", "c-broken-two-pages.pdf.1", "c-broken-two-pages.pdf.2", "c-broken-two-pages.pdf.3"]);
    const pages = readFileSync(join(dir, "out/pages.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
    expect(new Set(pages.filter((p) => p.type === "page").map((p) => p.uri.split("/").pop()))).toEqual(new Set(["a-meeting-minutes.pdf", "b-flaky-quarterly-report.pdf"]));
    const status = JSON.parse((await pagestream(["status", "--queue", redis.url, "--json"], { cwd: dir }).exited).stdout);
    expect(status.failed.map((f: { reason: string }) => f.reason)).toEqual([expect.stringMatching(/c-broken-two-pages\.pdf: read_failed: .*the share did not answer \(try 3\)$/)]);
    expect(status.jobs).toMatchObject({ waiting: 0, active: 0, delayed: 0, failed: 1 });
  });
});
