/**
 * The coordinator killed with SIGKILL mid-run and started again, against a real redis-server:
 * the worker goes on with the jobs already queued meanwhile, and the new coordinator resumes from
 * the run state and the queue — it takes over the run folder's lock and the queue's claim left by
 * the dead one, collects the outcomes that finished while no coordinator was there, and
 * processes nothing twice. The output is a local run's, every document once.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyInputs, localReference, gateMarks, INPUTS, outputs, pagestream, reads, stopAll, writePipeline, type Started } from "../../helpers/queue-runs.js";
import { waitFor } from "../../helpers/wait-for.js";
import { startRedis, type RedisServer } from "../../helpers/redis-server.js";

const QUEUE = "{ max_jobs_in_flight: 16 }";

let tmp: string;
let redis: RedisServer;
let local: ReturnType<typeof outputs>;
let first: Awaited<Started["exited"]>;
let second: Awaited<Started["exited"]>;
let worker: Awaited<Started["exited"]>;
const dir = () => join(tmp, "distributed");

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "pagestream-restart-"));
  await copyInputs(join(tmp, "in"));
  redis = await startRedis();
  local = await localReference(tmp);

  const gate = join(tmp, "gate");
  await mkdir(gate);
  await writePipeline(dir(), { gateDir: gate, queue: QUEUE });
  const running = pagestream(["worker", "--queue", redis.url, "--concurrency", "1"], { cwd: dir() });
  const coordinator = pagestream(["run", "--queue", redis.url, "--progress", "never"], { cwd: dir() });
  // The worker holds the fourth document: the three before it are done, the rest queued.
  await waitFor("the worker to take the held document", () => gateMarks(gate).length > 0);
  coordinator.child.kill("SIGKILL");
  first = await coordinator.exited;
  await writeFile(join(gate, "release"), "");
  // No coordinator now: the worker empties the queue on its own.
  const client = redis.client();
  await waitFor("the worker to finish every queued job", async () => (await client.llen("bull:pagestream:wait")) + (await client.llen("bull:pagestream:active")) === 0 && reads(dir()).length === INPUTS.length);
  client.disconnect();
  second = await pagestream(["run", "--queue", redis.url, "--progress", "never"], { cwd: dir() }).exited;
  running.child.kill("SIGTERM");
  worker = await running.exited;
});

afterAll(async () => {
  await stopAll();
  await redis?.stop();
  await rm(tmp, { recursive: true, force: true });
});

describe("a coordinator killed and started again", () => {
  it("was killed mid-run, and the second run finishes it (exit 3 for the bad file)", () => {
    expect(first.signal).toBe("SIGKILL");
    expect([second.code, second.stderr]).toEqual([3, expect.stringContaining("g-notpdf.pdf: not_pdf")]);
    expect(second.stderr).not.toMatch(/another (run|coordinator)/);
  });

  it("has every document read once: nothing finished is processed again", () => {
    expect([...reads(dir())].sort()).toEqual(INPUTS.map(([, name]) => `read ${name}`).sort());
  });

  it("writes the local run's JSONL and archive rows, every document once", () => {
    const distributed = outputs(dir());
    expect(distributed.chunksJsonl).toBe(local.chunksJsonl);
    expect(distributed.documentsJsonl).toBe(local.documentsJsonl);
    expect(distributed.archive).toEqual(local.archive);
  });

  it("delivers in the second run what the first had not committed", async () => {
    const summary = JSON.parse(await readFile(join(dir(), "out/run-summary.json"), "utf8"));
    expect(summary.summary.documents + summary.summary.skipped).toBe(INPUTS.length);
    expect(summary.summary.documents).toBeGreaterThan(0);
    expect(worker.code).toBe(0);
  });
});
