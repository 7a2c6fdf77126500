/**
 * Include and exclude mean the same for a folder and for a bucket: the folder source walks and
 * skips excluded folders; the s3 source sees flat keys and tests the folders above each one.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import folder from "../../src/sources/folder.js";
import { pathFilter } from "../../src/sources/path-filter.js";

const FILES = [
  "a.pdf",
  "B.PDF",
  "notes.txt",
  ".hidden/h.pdf",
  "drafts/d.pdf",
  "keep/drafts/c.pdf",
  "keep/k.pdf",
  "keep/deep/er/x.pdf",
  "scans/2024/s.tif",
  "scans/2024-old/t.pdf",
];
const GLOBS: { include?: string[]; exclude?: string[] }[] = [
  {},
  { exclude: ["**/drafts/**"] },
  { exclude: ["drafts"] },
  { exclude: ["drafts/"] },
  { exclude: ["keep/deep"] },
  { include: ["**/*"], exclude: ["scans/2024/**"] },
  { include: ["keep/**/*.pdf", "*.pdf"] },
  { include: ["**/*"], exclude: ["**/*.txt", ".hidden"] },
  { exclude: ["**/er"] },
];

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "pagestream-globs-"));
  for (const file of FILES) {
    await mkdir(join(root, file, ".."), { recursive: true });
    await writeFile(join(root, file), "%PDF-1.4\n");
  }
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function folderListing(globs: { include?: string[]; exclude?: string[] }): Promise<string[]> {
  const source = await folder.create(folder.options.parse({ path: root, ...globs }), { baseDir: root, warn: () => {} });
  const out: string[] = [];
  for await (const item of source.list()) out.push(item.uri.slice(root.length + 1));
  return out.sort();
}

describe("include and exclude globs", () => {
  it.each(GLOBS.map((g) => [JSON.stringify(g), g] as const))("take the same files from a folder walk and from flat keys: %s", async (_, globs) => {
    const filter = pathFilter({ include: globs.include ?? ["**/*.pdf"], exclude: globs.exclude ?? [] });
    expect(FILES.filter((f) => filter.takesPath(f)).sort()).toEqual(await folderListing(globs));
  });

  it("exclude a folder and everything under it, by name or by pattern", () => {
    const filter = pathFilter({ include: ["**/*.pdf"], exclude: ["keep/deep"] });
    expect(FILES.filter((f) => filter.takesPath(f)).sort()).toEqual(["B.PDF", "a.pdf", "drafts/d.pdf", "keep/drafts/c.pdf", "keep/k.pdf", "scans/2024-old/t.pdf"]);
  });
});
