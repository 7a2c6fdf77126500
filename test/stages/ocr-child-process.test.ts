/**
 * The programs OCR starts never outlive the worker that started them: a worker is killed with
 * SIGKILL when its document runs over its time or memory, and cannot clean up after itself.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { ChildTimeoutError, findExecutable, runChild } from "../../src/stages/ocr/child-process.js";

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

/** Pids and states of `program` processes whose environment holds `marker`. */
function processes(program: string, marker: string): { pid: number; state: string }[] {
  const found: { pid: number; state: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() !== program) continue;
      if (!readFileSync(`/proc/${entry}/environ`, "utf8").split("\0").includes(marker)) continue;
      found.push({ pid: Number(entry), state: /^\d+ \(.*\) (\S)/.exec(readFileSync(`/proc/${entry}/stat`, "utf8"))![1]! });
    } catch {
      // gone
    }
  }
  return found;
}

/** Bytes the process has read so far (/proc/PID/io rchar). */
function bytesRead(pid: number): number {
  try {
    return Number(/^rchar: (\d+)/m.exec(readFileSync(`/proc/${pid}/io`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

const until = async (condition: () => boolean, ms: number) => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 25))) if (condition()) return true;
  return condition();
};

describe("OCR child processes", () => {
  /** Starts `program args` through runChild in a process of its own, and returns that process. */
  function parentOf(executable: string, args: string[], marker: string, input?: Buffer) {
    const [name, value] = [marker.slice(0, marker.indexOf("=")), marker.slice(marker.indexOf("=") + 1)];
    const script = `
      const { runChild } = await import(${JSON.stringify(pathToFileURL(resolve("dist/stages/ocr/child-process.js")).href)});
      const chunks = [];
      for await (const c of process.stdin) chunks.push(c);
      runChild(${JSON.stringify(executable)}, ${JSON.stringify(args)}, { input: Buffer.concat(chunks), timeoutMs: 600000, env: { OMP_THREAD_LIMIT: "1" } }).catch(() => {});
      setInterval(() => {}, 1000);
    `;
    const parent = spawn(process.execPath, ["--input-type=module", "-e", script], { env: { ...process.env, [name]: value }, stdio: ["pipe", "ignore", "inherit"] });
    parent.stdin.end(input ?? Buffer.alloc(0));
    return parent;
  }

  it("a child dies with the process that started it when that process is SIGKILLed (sleep 60)", async () => {
    const marker = `PAGESTREAM_OCR_CHILD_TEST=${randomUUID()}`;
    const parent = parentOf(findExecutable("sleep")!, ["60"], marker);
    expect(await until(() => processes("sleep", marker).length === 1, 10_000), "sleep never started").toBe(true);
    parent.kill("SIGKILL");
    expect(await until(() => processes("sleep", marker).length === 0, 2_000), "sleep outlived its parent").toBe(true);
  });

  it("a Tesseract in the middle of recognising a page dies with the process that started it", async () => {
    const marker = `PAGESTREAM_OCR_CHILD_TEST=${randomUUID()}`;
    const image = longPage();
    const parent = parentOf(tesseract, ["stdin", "stdout", "--dpi", "600", "tsv"], marker, image);
    // It has read its whole input (a parent dying before would end it with a truncated image):
    // many seconds of recognition are ahead of it.
    const readAll = () => processes("tesseract", marker).some((t) => bytesRead(t.pid) >= image.length);
    expect(await until(readAll, 60_000), "tesseract never read its page").toBe(true);
    await new Promise((r) => setTimeout(r, 500));
    expect(processes("tesseract", marker)).toHaveLength(1);
    parent.kill("SIGKILL");
    expect(await until(() => processes("tesseract", marker).length === 0, 2_000), "tesseract outlived its parent").toBe(true);
  });

  it("a child past its time budget is killed and reported as such", async () => {
    await expect(runChild(tesseract, ["stdin", "stdout", "--dpi", "600", "tsv"], { input: bigPage(), timeoutMs: 200 })).rejects.toBeInstanceOf(ChildTimeoutError);
  });

  it("a child that fails says why, with the end of its stderr", async () => {
    await expect(runChild(tesseract, ["stdin", "stdout", "tsv"], { input: Buffer.from("not an image"), timeoutMs: 30_000 })).rejects.toThrow(/^tesseract failed \(exit \d+\): .+/);
  });
});
