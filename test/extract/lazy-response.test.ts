import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { LazyResponse } from "../../src/stages/extract/lazy-response.js";

describe("LazyResponse, the Response pdf.js is given", () => {
  it("has bytes already, so pdf.js's polyfill leaves it be", () => {
    expect(typeof (LazyResponse.prototype as { bytes?: unknown }).bytes).toBe("function");
  });

  it("makes a real Response, with bytes, when pdf.js asks for one", async () => {
    const made = new (LazyResponse as unknown as typeof Response)("Grüße") as Response & { bytes(): Promise<Uint8Array> };
    expect(made).toBeInstanceOf(globalThis.Response);
    expect(Buffer.from(await made.bytes()).toString("utf8")).toBe("Grüße");
  });

  it("leaves Node's fetch unloaded in a process that has loaded the built pdf.js (the global Response is never read)", () => {
    // A process of its own: vitest's may have read Response already.
    const loader = pathToFileURL(resolve("dist/stages/extract/pdfjs-loader.js")).href;
    const script = `
      const own = Object.getOwnPropertyDescriptor(globalThis, "Response");
      let read = false;
      Object.defineProperty(globalThis, "Response", { configurable: true, get() { read = true; return own.get ? own.get.call(globalThis) : own.value; } });
      const { loadPdfJs } = await import(${JSON.stringify(loader)});
      const pdfjs = await loadPdfJs();
      console.log(JSON.stringify({ pdfjs: typeof pdfjs.getDocument, read }));`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual({ pdfjs: "function", read: false });
  });
});
