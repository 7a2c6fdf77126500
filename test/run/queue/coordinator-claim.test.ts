/**
 * The coordinator's claim and its run marker, against a real redis-server: a claim that expired
 * while its coordinator was out of touch is renewed; a claim gone with the rest of Redis's data
 * is not recreated as if nothing had happened — the renewal says the data was lost, and only a
 * deliberate reclaim takes the queue again, unless another coordinator has meanwhile.
 */
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coordinatorKey, CoordinatorClaim, runKey } from "../../../src/run/queue/fleet.js";
import type { QueueIdentity } from "../../../src/run/queue/queue-job.js";
import { startRedis, type RedisServer } from "../../helpers/redis-server.js";

const IDENTITY: QueueIdentity = { version: "0.0.0-test", configHash: "c".repeat(64), limitsHash: "l".repeat(64), lines: false };

let redis: RedisServer;
let client: Redis;

beforeAll(async () => {
  redis = await startRedis();
  client = redis.client();
});

afterAll(async () => {
  client?.disconnect();
  await redis?.stop();
});

const take = (queue: string) => CoordinatorClaim.take(client, queue, "pipeline.yaml", IDENTITY, redis.url);
const tokenIn = async (queue: string) => JSON.parse((await client.get(coordinatorKey(queue))) ?? "null")?.token as string | undefined;

describe("the coordinator's claim", () => {
  it("marks the run with the claim's token, and renews", async () => {
    const claim = await take("marked");
    const token = await tokenIn("marked");
    expect(token).toMatch(/^[0-9a-f-]{36}$/);
    expect(await client.get(runKey("marked"))).toBe(token);
    expect(await client.ttl(runKey("marked"))).toBe(-1); // no time to live: it goes only with the data
    expect(await claim.renew()).toBe("renewed");
  });

  it("renews a claim that only expired (the run's marker is still there)", async () => {
    const claim = await take("expired");
    const token = await tokenIn("expired");
    await client.del(coordinatorKey("expired"));
    expect(await claim.renew()).toBe("renewed");
    expect(await tokenIn("expired")).toBe(token);
  });

  it("does not recreate a claim lost with Redis's data: the renewal says so, and a reclaim takes the queue again", async () => {
    const claim = await take("emptied");
    const token = await tokenIn("emptied");
    await client.flushall();
    expect(await claim.renew()).toBe("data_lost");
    expect(await client.exists(coordinatorKey("emptied"), runKey("emptied"))).toBe(0);
    expect(await claim.reclaim()).toBe(true);
    expect([await tokenIn("emptied"), await client.get(runKey("emptied"))]).toEqual([token, token]);
    expect(await claim.renew()).toBe("renewed");
  });

  it("is not taken again after a loss of data when another coordinator claimed the queue first", async () => {
    const claim = await take("raced");
    await client.flushall();
    const other = await take("raced");
    expect(await claim.renew()).toBe("taken");
    expect(await claim.reclaim()).toBe(false);
    expect(await other.renew()).toBe("renewed");
  });

  it("leaves neither claim nor marker when released", async () => {
    const claim = await take("released");
    await claim.release();
    expect(await client.exists(coordinatorKey("released"), runKey("released"))).toBe(0);
  });
});
