/**
 * A distributed run end to end, against a real redis-server: a coordinator and three workers as
 * separate processes, one worker killed with SIGKILL while it holds a document (the gate stage
 * keeps that document busy until the test lets it go). BullMQ's stalled-job check gives the job
 * to another worker, and the run's output — JSONL bytes, archive rows — is the output of a local
 * run of the same pipeline, with every document once.
 */
import { readFile, rm, writeFile, mkdtemp, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyInputs, gateMarks, INPUTS, outputs, pagestream, reads, stopAll, writePipeline, type Started } from "../../helpers/queue-runs.js";
import { waitFor } from "../../helpers/wait-for.js";
import { startRedis, type RedisServer } from "../../helpers/redis-server.js";

/** Short BullMQ intervals, so a lost worker's job comes back in seconds (not so short that a worker starved of CPU on a loaded machine loses its lock). */
const QUEUE = "{ lock_duration_seconds: 5, stalled_interval_seconds: 1, backoff_seconds: 0.2 }";

let tmp: string;
let redis: RedisServer;
let local: ReturnType<typeof outputs>;
let distributed: ReturnType<typeof outputs>;
let coordinator: Awaited<Started["exited"]>;
let killedWorker: number;
let workerExits: Awaited<Started["exited"]>[];
let status: { jobs: Record<string, number>; failed: { reason: string }[]; workers: { pid: number }[]; coordinator?: unknown };
let gate: string;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "pagestream-distributed-"));
  gate = join(tmp, "gate");
  await mkdir(gate);
  await copyInputs(join(tmp, "in"));
  redis = await startRedis();

  // The reference: a local run of the same stages, the gate open.
  await writeFile(join(gate, "release"), "");
  await writePipeline(join(tmp, "local"), { gateDir: gate });
  const localRun = await pagestream(["run", "--progress", "never", "--log-level", "warn"], { cwd: join(tmp, "local") }).exited;
  expect([localRun.code, localRun.stderr]).toEqual([3, expect.stringContaining("not_pdf")]);
  local = outputs(join(tmp, "local"));
  await rm(join(gate, "release"));
  for (const mark of gateMarks(gate)) await rm(join(gate, `started-${mark.name}-${mark.pid}`));

  const dir = join(tmp, "distributed");
  await writePipeline(dir, { gateDir: gate, queue: QUEUE });
  const run = pagestream(["run", "--queue", redis.url, "--progress", "never"], { cwd: dir });
  const workers = [1, 2, 3].map(() => pagestream(["worker", "--queue", redis.url, "--concurrency", "1"], { cwd: dir }));
  // The held document is in a worker's hands: that worker goes, as a machine would.
  const held = await waitFor("a worker to take the held document", () => gateMarks(gate).find((m) => m.ppid > 0));
  killedWorker = held.ppid;
  const victim = workers.find((w) => w.child.pid === killedWorker);
  expect(victim, "the held document is in one of the three workers").toBeDefined();
  victim!.child.kill("SIGKILL");
  await victim!.exited;
  await writeFile(join(gate, "release"), "");
  coordinator = await run.exited;
  for (const w of workers) if (w !== victim) w.child.kill("SIGTERM");
  workerExits = await Promise.all(workers.filter((w) => w !== victim).map((w) => w.exited));
  status = JSON.parse((await pagestream(["status", "--queue", redis.url, "--json"], { cwd: dir }).exited).stdout);
  distributed = outputs(dir);
});

afterAll(async () => {
  await stopAll();
  await redis?.stop();
  await rm(tmp, { recursive: true, force: true });
});

describe("a coordinator and three workers over Redis", () => {
  it("finishes like a local run: the bad file as an error record, exit 3", () => {
    expect([coordinator.code, coordinator.stderr]).toEqual([3, expect.stringContaining("g-notpdf.pdf: not_pdf")]);
    expect(coordinator.stderr).toContain("6 document(s) ingested");
  });

  it("gives the document of the killed worker to another worker", () => {
    const starts = gateMarks(gate).filter((m) => m.name === "d-held-service-agreement.pdf");
    expect(starts).toHaveLength(2);
    expect(starts.map((s) => s.ppid)).toContain(killedWorker);
    expect(starts.find((s) => s.ppid !== killedWorker)!.ppid).not.toBe(killedWorker);
  });

  it("writes the JSONL of the local run, byte for byte, every chunk once", () => {
    expect(distributed.chunksJsonl).toBe(local.chunksJsonl);
    expect(distributed.documentsJsonl).toBe(local.documentsJsonl);
    const ids = distributed.chunksJsonl.split("\n").filter(Boolean).map((l) => JSON.parse(l).id);
    expect(ids.length).toBeGreaterThan(20);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("holds the archive rows of the local run", () => {
    expect(distributed.archive).toEqual(local.archive);
    expect(distributed.archive.documents).toHaveLength(INPUTS.length);
  });

  it("reads the documents in the workers only, each once but the one whose worker was lost", async () => {
    const read = reads(join(tmp, "distributed"));
    expect(read.filter((r) => r.startsWith("run "))).toEqual([]);
    expect([...read].sort()).toEqual([...INPUTS.map(([, name]) => `read ${name}`), "read d-held-service-agreement.pdf"].sort());
    const summary = JSON.parse(await readFile(join(tmp, "distributed/out/run-summary.json"), "utf8"));
    expect(summary).toMatchObject({ exit_code: 3, workers_started: 3 });
  });

  it("lets the other workers finish and stop on SIGTERM (exit 0)", () => {
    for (const w of workerExits) expect([w.code, w.stderr]).toEqual([0, expect.stringContaining("worker stopped:")]);
  });

  it("shows the fleet afterwards: no job left, the failed one with its reason, the killed worker's last heartbeat", () => {
    expect(status.jobs).toMatchObject({ waiting: 0, active: 0, delayed: 0, completed: 0, failed: 1 });
    expect(status.failed.map((f) => f.reason)).toEqual([expect.stringMatching(/g-notpdf\.pdf: not_pdf: not a PDF/)]);
    expect(status.coordinator).toBeUndefined();
    expect(status.workers.map((w) => w.pid)).toEqual([killedWorker]);
  });
});
