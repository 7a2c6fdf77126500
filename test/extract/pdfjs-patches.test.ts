/**
 * pagestream's pdf.js (scripts/pdfjs-patches.mjs) reads text faster, never differently: the
 * text transform written out in place (patch 3) and the text chunks handed over uncopied (patch
 * 5) must give every page's text content exactly as published pdf.js gives it, every position
 * to the bit. Compared on every PDF committed under fixtures/ and on a page that sets its text's
 * transform every way a content stream can.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { textTransformsPdf } from "../../fixtures/hostile.mjs";

const root = resolve(import.meta.dirname, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "pagestream-pdfjs-patches-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function textContent(build: "built" | "unpatched", files: string[]): Promise<Record<string, string[]>> {
  const { stdout } = await promisify(execFile)(process.execPath, [join(root, "test", "helpers", "text-content-dump.mjs"), build, ...files], { maxBuffer: 64 << 20 });
  return JSON.parse(stdout);
}

describe("the built pdf.js's text content", () => {
  it("is published pdf.js's, to the bit, on every fixture and on text transformed every way", async () => {
    const transforms = join(dir, "text-transforms.pdf");
    writeFileSync(transforms, textTransformsPdf());
    const fixtures = readdirSync(join(root, "fixtures"))
      .filter((name) => name.endsWith(".pdf"))
      .map((name) => join(root, "fixtures", name));
    const files = [transforms, ...fixtures];
    const [built, unpatched] = await Promise.all([textContent("built", files), textContent("unpatched", files)]);
    expect(Object.keys(built)).toHaveLength(files.length);
    // The transforms page: nine lines of text, among them positions only a skewed CTM, a rise and a Type 3 font give.
    expect(built[transforms]![0]).toMatch(/"Turned three quarters"/);
    expect(built[transforms]![0]).toMatch(/"abba"/);
    for (const file of files) expect(built[file], file).toEqual(unpatched[file]);
  }, 120_000);
});
