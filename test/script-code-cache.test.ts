/**
 * Node 20's code cache for pdf.js (src/script-code-cache.ts): a start compiles from the code an
 * earlier one saved, and a cache that is damaged, refused or cannot be written never stops the
 * script from running.
 */
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runScriptWithCodeCache, saveCodeCaches } from "../src/script-code-cache.js";

let dir: string;
const saved = { ...process.env };
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pagestream-code-cache-"));
  process.env.NODE_COMPILE_CACHE = dir;
  delete process.env.NODE_DISABLE_COMPILE_CACHE;
});
afterEach(async () => {
  process.env = { ...saved };
  await rm(dir, { recursive: true, force: true });
});

// A source of its own per test: V8 keeps scripts it compiled in memory, and would answer from there.
let n = 0;
const source = () => `let total = ${++n}; for (let i = 0; i < 10; i++) total += twice(i); function twice(x) { return 2 * x; } return total + bonus;`;
const run = (src: string) => runScriptWithCodeCache("test-script.js", src, ["bonus"], [1000]);

describe("script code cache", () => {
  it("compiles from the code the first run saved, with the same result", async () => {
    const src = source();
    const first = run(src);
    expect([first.result, first.fromCache]).toEqual([1000 + n + 90, false]);
    saveCodeCaches();
    expect(await readdir(dir)).toHaveLength(1);
    const second = run(src);
    expect([second.result, second.fromCache]).toEqual([1000 + n + 90, true]);
  });

  it("removes, when it writes one, the cache files no start has read for 30 days, and only those", async () => {
    const old = new Date(Date.now() - 31 * 24 * 3600 * 1000);
    const files = {
      unused: "script-0123456789abcdef-nodev18.0.0-x64.v8cache",
      partial: "script-0123456789abcdef-nodev18.0.0-x64.v8cache.4242.partial",
      recent: "script-fedcba9876543210-nodev20.0.0-x64.v8cache",
      notOurs: "v22.0.0-x64-compile-cache.bin",
    };
    for (const name of Object.values(files)) await writeFile(join(dir, name), "x");
    for (const name of [files.unused, files.partial, files.notOurs]) await utimes(join(dir, name), old, old);
    const src = source();
    run(src);
    saveCodeCaches();
    const left = await readdir(dir);
    expect(left).toEqual(expect.arrayContaining([files.recent, files.notOurs]));
    expect(left).not.toContain(files.unused);
    expect(left).not.toContain(files.partial);
    expect(left).toHaveLength(3);
  });

  it("marks a cache file used when it is read, so that it is not removed while in use", async () => {
    const src = source();
    run(src);
    saveCodeCaches();
    const [name] = await readdir(dir);
    const old = new Date(Date.now() - 31 * 24 * 3600 * 1000);
    await utimes(join(dir, name!), old, old);
    expect(run(src).fromCache).toBe(true);
    run(source());
    saveCodeCaches(); // writes another file, and prunes
    expect(await readdir(dir)).toContain(name);
  });

  it("runs from source when the cache file is damaged (a flipped byte, cut short, empty)", async () => {
    const src = source();
    run(src);
    saveCodeCaches();
    const [name] = await readdir(dir);
    const file = join(dir, name!);
    const good = await readFile(file);
    const flipped = Buffer.from(good);
    flipped[flipped.length >> 1]! ^= 0xff;
    for (const bad of [flipped, good.subarray(0, good.length >> 1), Buffer.alloc(0)]) {
      await writeFile(file, bad);
      const again = run(src);
      expect([again.result, again.fromCache]).toEqual([1000 + n + 90, false]);
    }
  });

  it("runs, and writes nothing, when the cache folder cannot be made (its parent is a file)", async () => {
    await writeFile(join(dir, "not-a-folder"), "");
    process.env.NODE_COMPILE_CACHE = join(dir, "not-a-folder", "cache");
    const r = run(source());
    expect(r.result).toBe(1000 + n + 90);
    expect(() => saveCodeCaches()).not.toThrow();
    expect(await readdir(dir)).toEqual(["not-a-folder"]);
  });

  it("writes nothing with NODE_DISABLE_COMPILE_CACHE, as Node's own cache", async () => {
    process.env.NODE_DISABLE_COMPILE_CACHE = "1";
    run(source());
    saveCodeCaches();
    expect(await readdir(dir)).toEqual([]);
  });
});
