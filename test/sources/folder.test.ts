import { spawnSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SourceItem } from "../../src/core/records.js";
import { ALL_NEEDS, processJob } from "../../src/run/process-document.js";
import folder from "../../src/sources/folder.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "pagestream-folder-"));
});
afterEach(() => rm(root, { recursive: true, force: true }));

async function list(options: Record<string, unknown>): Promise<string[]> {
  const source = await folder.create(folder.options.parse({ path: root, ...options }), { baseDir: root, warn: () => {}, purpose: "run" });
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

  it("lists items as plain data that a source built elsewhere reads, under its own folder", async () => {
    await touch("sub/a.pdf", "%PDF-1.7 body");
    const source = await folder.create(folder.options.parse({ path: root }), { baseDir: root, warn: () => {}, purpose: "run" });
    const items: SourceItem[] = [];
    for await (const item of source.list()) items.push(item);
    // JSON round trip: nothing in an item is a function, a Date or a Buffer.
    const sent = JSON.parse(JSON.stringify(items)) as SourceItem[];
    expect(sent).toEqual(items);
    expect(sent.map((i) => [i.path, i.size, i.mtimeMs > 0])).toEqual([["sub/a.pdf", 13, true]]);
    // The same folder seen from another place (a worker on a machine that mounts it elsewhere).
    const mirror = await mkdtemp(join(tmpdir(), "pagestream-mirror-"));
    try {
      await mkdir(join(mirror, "sub"));
      await writeFile(join(mirror, "sub/a.pdf"), "%PDF-1.7 mirrored");
      const reader = await folder.create(folder.options.parse({ path: mirror, stable_seconds: 0 }), { baseDir: mirror, warn: () => {}, purpose: "read" });
      expect(Buffer.from(await reader.read(sent[0]!)).toString()).toBe("%PDF-1.7 mirrored");
      // An item whose path climbs out of the folder is refused, never read.
      await expect(reader.read({ ...sent[0]!, path: "../../etc/passwd" })).rejects.toThrow(/not an item of this folder source/);
    } finally {
      await rm(mirror, { recursive: true, force: true });
    }
  });

  it("reports a file removed after it was listed as not_found, with its own sentence", async () => {
    await touch("gone.pdf", "%PDF-1.7 body");
    const source = await folder.create(folder.options.parse({ path: root }), { baseDir: root, warn: () => {}, purpose: "run" });
    const items: SourceItem[] = [];
    for await (const item of source.list()) items.push(item);
    await rm(join(root, "gone.pdf"));
    const outcomes = await Promise.all(items.map((item) => processJob({ item }, source, [], { maxPages: Infinity, maxFileBytes: Infinity }, ALL_NEEDS)));
    expect(outcomes.map((o) => o.kind === "processed" && o.result.status === "failed" && o.result.error)).toEqual([
      { type: "error", uri: join(root, "gone.pdf"), code: "not_found", message: "the file was removed after it was listed" },
    ]);
  });

  it("says clearly when the folder does not exist", async () => {
    await expect(list({ path: join(root, "missing") })).rejects.toThrow(/source folder .*missing cannot be read: it does not exist/);
  });
});

describe("folder source: names and folders it cannot take as they are", () => {
  it("lists a file whose name is not valid UTF-8 under an escaped name, and reads it by its bytes", async () => {
    const name = Buffer.concat([Buffer.from("report-"), Buffer.from([0xff, 0xfe]), Buffer.from("-März.pdf")]);
    await writeFile(Buffer.concat([Buffer.from(root + "/"), name]), "%PDF-1.7 bytes");
    const source = await folder.create(folder.options.parse({ path: root, stable_seconds: 0 }), { baseDir: root, warn: () => {}, purpose: "run" });
    const items: SourceItem[] = [];
    for await (const item of source.list()) items.push(item);
    expect(items.map((i) => [i.path, i.uri])).toEqual([["report-\\xff\\xfe-März.pdf", join(root, "report-\\xff\\xfe-März.pdf")]]);
    const sent = JSON.parse(JSON.stringify(items[0])) as SourceItem;
    expect(Buffer.from(await source.read(sent)).toString()).toBe("%PDF-1.7 bytes");
    await expect(source.read({ ...sent, path_bytes: Buffer.from("../x.pdf").toString("base64") })).rejects.toThrow(/not an item of this folder source/);
  });

  it("lists caf<0xE9>.pdf and a file literally named caf\\xe9.pdf under two uris, and reads each by its own name", async () => {
    await writeFile(Buffer.concat([Buffer.from(root + "/caf"), Buffer.from([0xe9]), Buffer.from(".pdf")]), "%PDF-1.7 latin-1 name");
    await writeFile(join(root, "caf\\xe9.pdf"), "%PDF-1.7 literal name");
    const source = await folder.create(folder.options.parse({ path: root, stable_seconds: 0 }), { baseDir: root, warn: () => {}, purpose: "run" });
    const items: SourceItem[] = [];
    for await (const item of source.list()) items.push(JSON.parse(JSON.stringify(item)) as SourceItem);
    expect(items.map((i) => i.uri.slice(root.length + 1))).toEqual(["caf\\x5cxe9.pdf", "caf\\xe9.pdf"]);
    expect(await Promise.all(items.map(async (i) => Buffer.from(await source.read(i)).toString()))).toEqual(["%PDF-1.7 literal name", "%PDF-1.7 latin-1 name"]);
  });

  it("tells the run about every entry it passes over, and why", async () => {
    for (const f of ["a.pdf", ".hidden.pdf", ".cache/b.pdf", "notes.txt", "drafts/c.pdf"]) await touch(f);
    const skipped: string[] = [];
    const source = await folder.create(folder.options.parse({ path: root, exclude: ["drafts"] }), { baseDir: root, warn: () => {}, purpose: "run", skipped: (e) => skipped.push(`${e.uri.slice(root.length + 1)}: ${e.reason}`) });
    const listed: string[] = [];
    for await (const item of source.list()) listed.push(item.path as string);
    expect(listed).toEqual(["a.pdf"]);
    expect(skipped).toEqual([".cache/b.pdf: hidden", ".hidden.pdf: hidden", "drafts: excluded", "notes.txt: not included"]);
  });

  it("gives a subfolder it may not list as an item with a problem, and lists the rest (run as an unprivileged user)", async () => {
    for (const f of ["a/one.pdf", "locked/two.pdf", "z/three.pdf"]) await touch(f);
    await chmod(join(root, "locked"), 0o000);
    await chmod(root, 0o755);
    // Root reads any folder: the listing runs as nobody, the way a nightly job's user meets a folder it may not read.
    // The module is loaded first, as root: the clone may sit where nobody cannot reach (a mktemp folder).
    const script = `const { default: folder } = await import(${JSON.stringify(pathToFileURL(resolve("dist/sources/folder.js")).href)});
      process.setgroups([]); process.setgid(65534); process.setuid(65534);
      const source = await folder.create(folder.options.parse({ path: ${JSON.stringify(root)} }), { baseDir: "/", warn: () => {}, purpose: "run" });
      const out = []; for await (const item of source.list()) out.push({ path: item.path, problem: item.problem });
      console.log(JSON.stringify(out));`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    await chmod(join(root, "locked"), 0o755);
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual([
      { path: "a/one.pdf" },
      {
        path: "locked",
        problem: { code: "access_denied", message: "this folder cannot be listed (permission denied): the files in it were not read; the run lists it again next time" },
      },
      { path: "z/three.pdf" },
    ]);
  });
});
