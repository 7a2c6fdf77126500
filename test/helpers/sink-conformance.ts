/**
 * The sink contract (docs/components.md), proved the same way for every sink: one helper
 * replays what a run does to a sink — write, checkpoint, a SIGKILL, reopen at the checkpoint
 * the run state recorded, write again what the state did not know, replace, remove, abort,
 * reopen without a checkpoint — and checks after every step that the sink's live view holds
 * each document exactly once, in its latest version. A new sink passes it before it is done.
 */
import { fork, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import { expect, it } from "vitest";
import type { PreviousDelivery } from "../../src/core/plugin.js";
import type { DocumentResult } from "../../src/core/records.js";
import { emptySummary } from "../../src/run/delivery.js";
import { page, result, text } from "../stages/chunk-fixtures.js";

export interface SinkUnderTest {
  type: string;
  options: Record<string, unknown>;
  /** What the sink's output holds now, read as a consumer would: uri → the document id of its one live version. Throws on a duplicate. */
  live(baseDir: string): Promise<Map<string, string>>;
  /** Deletes the sink's output, as a user might between runs. */
  deleteOutput(baseDir: string): Promise<void>;
}

interface Driven {
  resumed: boolean;
  call(op: string, ...args: unknown[]): Promise<unknown>;
  kill(): Promise<void>;
}

async function start(sink: SinkUnderTest, baseDir: string, checkpoint: unknown): Promise<Driven> {
  const child: ChildProcess = fork(resolve("test/helpers/sink-child.mjs"), [sink.type, JSON.stringify(sink.options), baseDir, JSON.stringify(checkpoint ?? null)], {
    serialization: "advanced",
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  let next = 0;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  const resumed = await new Promise<boolean>((resolveOpen, rejectOpen) => {
    child.once("exit", (code) => rejectOpen(new Error(`the sink process exited (${code}) before it opened`)));
    child.on("message", (m: { op?: string; resumed?: boolean; id?: number; ok?: boolean; value?: unknown; message?: string }) => {
      if (m.op === "opened") return resolveOpen(m.resumed!);
      const w = waiting.get(m.id!);
      waiting.delete(m.id!);
      if (m.ok) w?.resolve(m.value);
      else w?.reject(new Error(m.message));
    });
  });
  return {
    resumed,
    call: (op, ...args) =>
      new Promise((res, rej) => {
        const id = next++;
        waiting.set(id, { resolve: res, reject: rej });
        child.send({ id, op, args });
      }),
    async kill() {
      child.kill("SIGKILL");
      await exited;
    },
  };
}

const summary = { ...emptySummary(), complete: true };
const idOf = (name: string, version = 1) => `${name}${version}`.padEnd(64, "0");

async function doc(name: string, version = 1): Promise<DocumentResult> {
  return result([page(1, [text(`Version ${version} of ${name}: the harbour office opens at nine.`)], { uri: `/in/${name}.pdf`, documentId: idOf(name, version) })], { limits: { maxTokens: 64 } });
}
const previous = (name: string, version = 1): PreviousDelivery => ({ documentId: idOf(name, version) });

/** Registers the conformance tests for one sink; `dir()` gives a fresh folder per test. */
export function describeSinkConformance(sink: SinkUnderTest, dir: () => string): void {
  const expectLive = async (want: Record<string, string>) => expect(Object.fromEntries(await sink.live(dir()))).toEqual(want);

  it("keeps what a checkpoint covers through a SIGKILL, and holds a document written again after it once", async () => {
    const first = await start(sink, dir(), undefined);
    expect(first.resumed).toBe(false);
    await first.call("write", await doc("a"));
    await first.call("write", await doc("b"));
    const t1 = await first.call("checkpoint");
    expect(JSON.parse(JSON.stringify(t1))).toEqual(t1); // tokens are JSON: the run state stores them as text
    await first.call("write", await doc("c"));
    await first.kill();
    // The run state knows a and b; the run writes c again.
    const second = await start(sink, dir(), t1);
    expect(second.resumed).toBe(true);
    await second.call("write", await doc("c"));
    await second.call("checkpoint");
    await second.call("close", summary);
    await expectLive({ "/in/a.pdf": idOf("a"), "/in/b.pdf": idOf("b"), "/in/c.pdf": idOf("c") });
  });

  it("replaces a document's earlier version, removes one that is gone (when it prunes), and drops what an abort left", async () => {
    const first = await start(sink, dir(), undefined);
    for (const n of ["a", "b", "c"]) await first.call("write", await doc(n));
    await first.call("checkpoint");
    await first.call("write", await doc("a", 2), previous("a"));
    await first.call("remove", "/in/b.pdf", previous("b"));
    const t = await first.call("checkpoint");
    await first.call("close", summary);
    await expectLive({ "/in/a.pdf": idOf("a", 2), "/in/c.pdf": idOf("c") });
    const second = await start(sink, dir(), t);
    expect(second.resumed).toBe(true);
    await second.call("write", await doc("d"));
    await second.call("abort");
    await expectLive({ "/in/a.pdf": idOf("a", 2), "/in/c.pdf": idOf("c") });
    const third = await start(sink, dir(), t);
    expect(third.resumed).toBe(true);
    await third.call("close", summary);
    await expectLive({ "/in/a.pdf": idOf("a", 2), "/in/c.pdf": idOf("c") });
  });

  it("does not resume without the run state's checkpoint, or when its output was deleted, and then holds each document once", async () => {
    const first = await start(sink, dir(), undefined);
    for (const n of ["a", "c"]) await first.call("write", await doc(n));
    const t = await first.call("checkpoint");
    await first.call("close", summary);
    // The run state was deleted: the run writes every document again.
    const anew = await start(sink, dir(), undefined);
    expect(anew.resumed).toBe(false);
    for (const n of ["a", "c"]) await anew.call("write", await doc(n));
    await anew.call("checkpoint");
    await anew.call("close", summary);
    await expectLive({ "/in/a.pdf": idOf("a"), "/in/c.pdf": idOf("c") });
    // The output was deleted: the state's token no longer describes it.
    await sink.deleteOutput(dir());
    const fresh = await start(sink, dir(), t);
    expect(fresh.resumed).toBe(false);
    await fresh.call("write", await doc("a"));
    await fresh.call("close", summary);
    await expectLive({ "/in/a.pdf": idOf("a") });
  });
}
