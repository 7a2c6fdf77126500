import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { withNativeBuiltins } from "../../src/stages/extract/native-builtins.js";

describe("withNativeBuiltins", () => {
  it("puts back the builtins a load replaced and keeps what it added", async () => {
    const push = Array.prototype.push;
    const stringify = JSON.stringify;
    const added = Symbol("added");
    const result = await withNativeBuiltins(async () => {
      Array.prototype.push = function slowPush(this: unknown[], ...items: unknown[]) {
        return push.apply(this, items);
      };
      JSON.stringify = (() => "polyfilled") as typeof JSON.stringify;
      (Map.prototype as unknown as Record<symbol, unknown>)[added] = () => "kept";
      return "loaded";
    });
    try {
      expect(result).toBe("loaded");
      expect(Array.prototype.push).toBe(push);
      expect(JSON.stringify).toBe(stringify);
      expect(typeof (Map.prototype as unknown as Record<symbol, unknown>)[added]).toBe("function");
    } finally {
      delete (Map.prototype as unknown as Record<symbol, unknown>)[added];
    }
  });

  it("puts them back when the load fails too", async () => {
    const parse = JSON.parse;
    await expect(
      withNativeBuiltins(async () => {
        JSON.parse = (() => null) as typeof JSON.parse;
        throw new Error("no pdf.js here");
      }),
    ).rejects.toThrow("no pdf.js here");
    expect(JSON.parse).toBe(parse);
  });

  it("leaves V8's own push and JSON in a process that has loaded the built pdf.js (core-js in its legacy build replaces them)", () => {
    // A process of its own: vitest's may have loaded pdf.js already, or not through the build.
    const loader = pathToFileURL(resolve("dist/stages/extract/pdfjs-loader.js")).href;
    const script = `
      const before = [Array.prototype.push, JSON.stringify, JSON.parse];
      const { loadPdfJs } = await import(${JSON.stringify(loader)});
      const pdfjs = await loadPdfJs();
      const after = [Array.prototype.push, JSON.stringify, JSON.parse];
      console.log(JSON.stringify({ same: before.map((f, i) => f === after[i]), pdfjs: typeof pdfjs.getDocument, withResolvers: typeof Promise.withResolvers }));`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual({ same: [true, true, true], pdfjs: "function", withResolvers: "function" });
  });
});
