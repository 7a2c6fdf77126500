/**
 * The programs OCR starts never outlive the worker that started them: a worker is killed with
 * SIGKILL when its document runs over its time or memory, and cannot clean up after itself.
 */
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { ChildTimeoutError, findExecutable, runChild, startChild } from "../../src/stages/ocr/child-process.js";
import { markedProcesses, markerEnv, newMarker } from "../helpers/marked-processes.js";
import { waitFor } from "../helpers/wait-for.js";

vi.setConfig({ testTimeout: 120_000 });

const tesseract = findExecutable("tesseract")!;
const pdftoppm = findExecutable("pdftoppm")!;

/** A page image Tesseract takes seconds over: the two-page scan's first page at 600 dpi. */
function bigPage(): Buffer {
  const r = spawnSync(pdftoppm, ["-r", "600", "-gray", "-f", "1", "-l", "1", "fixtures/ocr-scan-two-pages.pdf"], { maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`pdftoppm failed: ${r.stderr}`);
  return r.stdout;
}

/** Four copies of it one under the other: recognition for tens of seconds. */
function longPage(): Buffer {
  const page = bigPage();
  const [, w, h] = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(page.subarray(0, 32).toString("latin1"))!;
  const pixels = page.subarray(page.length - Number(w) * Number(h));
  return Buffer.concat([Buffer.from(`P5\n${w} ${Number(h) * 4}\n255\n`), pixels, pixels, pixels, pixels]);
}

/** Bytes the process has read so far (/proc/PID/io rchar). */
function bytesRead(pid: number): number {
  try {
    return Number(/^rchar: (\d+)/m.exec(readFileSync(`/proc/${pid}/io`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

describe("OCR child processes", () => {
  /** Starts `program args` through runChild in a process of its own, and returns that process. */
  function parentOf(executable: string, args: string[], marker: string, input?: Buffer) {
    const script = `
      const { runChild } = await import(${JSON.stringify(pathToFileURL(resolve("dist/stages/ocr/child-process.js")).href)});
      const chunks = [];
      for await (const c of process.stdin) chunks.push(c);
      runChild(${JSON.stringify(executable)}, ${JSON.stringify(args)}, { input: Buffer.concat(chunks), timeoutMs: 600000, env: { OMP_THREAD_LIMIT: "1" } }).catch(() => {});
      setInterval(() => {}, 1000);
    `;
    const parent = spawn(process.execPath, ["--input-type=module", "-e", script], { env: { ...process.env, ...markerEnv(marker) }, stdio: ["pipe", "ignore", "inherit"] });
    parent.stdin.end(input ?? Buffer.alloc(0));
    return parent;
  }

  it("a child dies with the process that started it when that process is SIGKILLed (sleep 60)", async () => {
    const marker = newMarker("PAGESTREAM_OCR_CHILD_TEST");
    const parent = parentOf(findExecutable("sleep")!, ["60"], marker);
    await waitFor("sleep to start", () => markedProcesses("sleep", marker).length === 1, 10);
    parent.kill("SIGKILL");
    await waitFor("sleep to die with its parent", () => markedProcesses("sleep", marker).length === 0, 2);
  });

  it("a Tesseract in the middle of recognising a page dies with the process that started it", async () => {
    const marker = newMarker("PAGESTREAM_OCR_CHILD_TEST");
    const image = longPage();
    const parent = parentOf(tesseract, ["stdin", "stdout", "--dpi", "600", "tsv"], marker, image);
    // It has read its whole input (a parent dying before would end it with a truncated image):
    // many seconds of recognition are ahead of it.
    const readAll = () => markedProcesses("tesseract", marker).some((t) => bytesRead(t.pid) >= image.length);
    await waitFor("tesseract to read its whole page", readAll, 60);
    await new Promise((r) => setTimeout(r, 500));
    expect(markedProcesses("tesseract", marker)).toHaveLength(1);
    parent.kill("SIGKILL");
    await waitFor("tesseract to die with its parent", () => markedProcesses("tesseract", marker).length === 0, 2);
  });

  it("a child past its time budget is killed and reported as such", async () => {
    await expect(runChild(tesseract, ["stdin", "stdout", "--dpi", "600", "tsv"], { input: bigPage(), timeoutMs: 200 })).rejects.toBeInstanceOf(ChildTimeoutError);
  });

  it("a child that fails says why, with the end of its stderr", async () => {
    await expect(runChild(tesseract, ["stdin", "stdout", "tsv"], { input: Buffer.from("not an image"), timeoutMs: 30_000 })).rejects.toThrow(/^tesseract failed \(exit \d+\): .+/);
  });

  it("a child started ahead of its input waits for it, and its time budget starts when the input is given", async () => {
    const child = startChild(findExecutable("cat")!, []);
    await new Promise((r) => setTimeout(r, 500));
    const { stdout } = await child.run(Buffer.from("the page"), 400);
    expect(stdout.toString()).toBe("the page");
  });

  it("a Tesseract started for a page that never comes is stopped by cancel, and nothing is left running", async () => {
    const marker = newMarker("PAGESTREAM_OCR_CHILD_TEST");
    const child = startChild(tesseract, ["stdin", "stdout", "tsv"], { env: markerEnv(marker) });
    await waitFor("tesseract to start", () => markedProcesses("tesseract", marker).length === 1, 10);
    await new Promise((r) => setTimeout(r, 300));
    expect(markedProcesses("tesseract", marker)).toHaveLength(1);
    child.cancel();
    await waitFor("tesseract to stop on cancel", () => markedProcesses("tesseract", marker).length === 0, 2);
  });
});
