import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SourceItem } from "../../src/core/records.js";
import { processDocument } from "../../src/run/process-document.js";
import folder from "../../src/sources/folder.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "pagestream-folder-"));
});
afterEach(() => rm(root, { recursive: true, force: true }));

async function list(options: Record<string, unknown>): Promise<string[]> {
  const source = await folder.create(folder.options.parse({ path: root, ...options }), { baseDir: root, warn: () => {} });
  const out: SourceItem[] = [];
  for await (const item of source.list()) out.push(item);
  return out.map((i) => i.uri.slice(root.length + 1));
}

async function touch(rel: string, content = "%PDF-1.4\n") {
  await mkdir(join(root, rel, ".."), { recursive: true });
  await writeFile(join(root, rel), content);
}

describe("folder source", () => {
  it("lists PDFs recursively in sorted order, matching the extension case-insensitively", async () => {
    for (const f of ["b.pdf", "a.PDF", "notes.txt", "sub/z.pdf", "sub/deeper/c.pdf", "aa/x.pdf"]) await touch(f);
    expect(await list({})).toEqual(["a.PDF", "aa/x.pdf", "b.pdf", "sub/deeper/c.pdf", "sub/z.pdf"]);
  });

  it("applies include and exclude globs relative to the folder", async () => {
    for (const f of ["keep/a.pdf", "drafts/b.pdf", "keep/drafts/c.pdf", "scan.tif"]) await touch(f);
    expect(await list({ exclude: ["**/drafts/**"] })).toEqual(["keep/a.pdf"]);
    expect(await list({ include: ["**/*"], exclude: ["drafts/**"] })).toEqual(["keep/a.pdf", "keep/drafts/c.pdf", "scan.tif"]);
  });

  it("survives a symbolic link loop and lists each file once, under its real name", async () => {
    await touch("docs/a.pdf");
    await symlink(root, join(root, "docs", "loop"));
    await symlink(join(root, "docs"), join(root, "again"));
    await symlink(join(root, "docs", "a.pdf"), join(root, "alias.pdf"));
    expect(await list({})).toEqual(["docs/a.pdf"]);
  });

  it("follows links to folders and files outside the folder, and skips links when told to", async () => {
    const outside = await mkdtemp(join(tmpdir(), "pagestream-outside-"));
    try {
      await writeFile(join(outside, "b.pdf"), "%PDF-1.4\n");
      await symlink(outside, join(root, "mounted"));
      await symlink(join(outside, "b.pdf"), join(root, "linked.pdf"));
      await symlink(root, join(outside, "back")); // a loop through the outside folder
      await touch("real/a.pdf");
      expect(await list({})).toEqual(["linked.pdf", "mounted/b.pdf", "real/a.pdf"]);
      expect(await list({ follow_symlinks: false })).toEqual(["real/a.pdf"]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("reads bytes only when asked, and gives size and mtime from the listing", async () => {
    await touch("a.pdf", "%PDF-1.7 body");
    const source = await folder.create(folder.options.parse({ path: root }), { baseDir: root, warn: () => {} });
    for await (const item of source.list()) {
      expect(item.size).toBe(13);
      expect(item.mtimeMs).toBeGreaterThan(0);
      expect(Buffer.from(await item.read()).toString()).toBe("%PDF-1.7 body");
    }
  });

  it("reports a file removed after it was listed as not_found, with its own sentence", async () => {
    await touch("gone.pdf", "%PDF-1.7 body");
    const source = await folder.create(folder.options.parse({ path: root }), { baseDir: root, warn: () => {} });
    const items: SourceItem[] = [];
    for await (const item of source.list()) items.push(item);
    await rm(join(root, "gone.pdf"));
    const results = await Promise.all(items.map((item) => processDocument(item, [])));
    expect(results.map((r) => r.status === "failed" && r.error)).toEqual([
      { type: "error", uri: join(root, "gone.pdf"), code: "not_found", message: "the file was removed after it was listed" },
    ]);
  });

  it("says clearly when the folder does not exist", async () => {
    await expect(list({ path: join(root, "missing") })).rejects.toThrow(/source folder .*missing cannot be read: it does not exist/);
  });
});
