/**
 * Watching a folder whose file names are not UTF-8. chokidar reports them lossily (U+FFFD for
 * the bad bytes), so two such names arrive as one; the folder source must report each file under
 * the uri its listing gives it, readable by its bytes, and a removal of one of them as that one.
 */
import { mkdtemp, rm, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import type { SourceChange, SourceItem } from "../../src/core/records.js";
import folder from "../../src/sources/folder.js";
import { waitFor } from "../helpers/wait-for.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "pagestream-watch-names-"));
});
afterEach(() => rm(root, { recursive: true, force: true }));

/** A path under the root whose name is written in latin1 bytes (é = 0xE9, è = 0xE8: not UTF-8). */
const latin1 = (name: string) => Buffer.from(`${root}/${name}`, "latin1");

it("reports files with names that are not UTF-8 under their listing's uris, and a removal as the file removed", { timeout: 30_000 }, async () => {
  await writeFile(latin1("old\xe9.pdf"), "%PDF-1.4 old\n");
  await writeFile(latin1("old\xe8.pdf"), "%PDF-1.4 older\n");
  const source = await folder.create(folder.options.parse({ path: root, stable_seconds: 0 }), { baseDir: root, warn: (m) => expect.fail(m), purpose: "run" });
  const stop = new AbortController();
  const watch = source.watch!(stop.signal);
  await watch.ready;
  const listed: SourceItem[] = [];
  for await (const item of source.list()) listed.push(item);
  expect(listed.map((i) => i.uri)).toEqual([join(root, "old\\xe8.pdf"), join(root, "old\\xe9.pdf")]);

  const changes: SourceChange[] = [];
  const collecting = (async () => {
    for await (const change of watch) changes.push(change);
  })();
  try {
    // A new file: reported once, under its escaped uri, and readable by its bytes.
    await writeFile(latin1("new\xe9.pdf"), "%PDF-1.4 new\n");
    const added = await waitFor("the new file reported", () => changes.find((c) => c.type === "upsert"));
    expect(added.type === "upsert" && added.item.uri).toBe(join(root, "new\\xe9.pdf"));
    expect(added.type === "upsert" && Buffer.from(await source.read(added.item)).toString()).toBe("%PDF-1.4 new\n");

    // One of the two listed files whose names read alike is removed: that one, not its sibling.
    await unlink(latin1("old\xe9.pdf"));
    const removed = await waitFor("the removal reported", () => changes.find((c) => c.type === "remove"));
    expect(removed).toEqual({ type: "remove", uri: join(root, "old\\xe9.pdf") });
    expect(changes.filter((c) => c.type === "remove")).toHaveLength(1);
    // Nothing was reported under a lossy name.
    expect(changes.map((c) => (c.type === "remove" ? c.uri : c.item.uri)).join()).not.toContain("\u{FFFD}");
  } finally {
    stop.abort();
    await collecting;
  }
});
