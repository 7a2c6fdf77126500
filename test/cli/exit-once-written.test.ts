import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

// A process of its own (built code: `npm test` builds first) that writes `bytes` to stdout and a
// line to stderr, then ends through exitOnceWritten with code 5.
function writer(bytes: number) {
  const module = pathToFileURL(resolve("dist/cli/exit-once-written.js")).href;
  const script = `
    const { exitOnceWritten } = await import(${JSON.stringify(module)});
    process.stdout.write("x".repeat(${bytes}));
    process.stderr.write("said\\n");
    exitOnceWritten(5);
    setTimeout(() => process.exit(9), 60_000).unref();`;
  return spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
}

const exited = (child: ReturnType<typeof writer>) => new Promise<number | null>((res) => child.on("close", (code) => res(code)));

describe("exitOnceWritten, how pagestream extract ends", () => {
  it("ends with the code given once all of stdout and stderr is out, to a reader that takes its time", async () => {
    const child = writer(4 << 20);
    const out: Buffer[] = [];
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d));
    child.stdout.pause();
    await new Promise((r) => setTimeout(r, 300));
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stdout.resume();
    expect(await exited(child)).toBe(5);
    expect(Buffer.concat(out).length).toBe(4 << 20);
    expect(err).toBe("said\n");
  });

  it("ends with the code given, quietly, when the reader has closed the pipe early (| head)", async () => {
    const child = writer(4 << 20);
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d));
    child.stdout.once("data", () => child.stdout.destroy());
    expect(await exited(child)).toBe(5);
    expect(err).toBe("said\n");
  });
});
