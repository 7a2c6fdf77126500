/**
 * An archive opened from anywhere: `serve`, `search` and `export` find the same archive by the
 * same rule (--db, else the pipeline's sqlite sink, else ./out/archive.sqlite), read its
 * originals through the source the archive recorded, and offer "Add to the archive" only when
 * the archive's own pipeline is known — never through a pipeline.yaml that merely lies in the
 * folder they were started in.
 */
import Database from "better-sqlite3";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ArchiveInfo, DocumentResponse } from "../../src/serve/api-types.js";
import { NO_SOURCE } from "../../src/serve/originals.js";
import { launchBrowser } from "./browser.js";
import { archiveFolder, CLI, serve } from "./serve-fixture.js";
import { fromWireKeys } from "../../src/core/wire-keys.js";

let built: string;
let elsewhere: string;
let archive: string;
const cli = (cwd: string, args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8" });

beforeAll(async () => {
  built = await archiveFolder();
  archive = join(built, "out/archive.sqlite");
  // Another folder, with a pipeline of its own (and its own source folder, empty) beside it.
  elsewhere = await mkdtemp(join(tmpdir(), "pagestream-elsewhere-"));
  await copyFile("pipeline.yaml", join(elsewhere, "pipeline.yaml"));
  await mkdir(join(elsewhere, "fixtures/samples"), { recursive: true });
});
afterAll(async () => {
  await rm(built, { recursive: true, force: true });
  await rm(elsewhere, { recursive: true, force: true });
});

/** The archive's info and its first document as `serve --db` shows them from `cwd`, and what serve said at start. */
async function served(cwd: string, args: string[]): Promise<{ info: ArchiveInfo; document: DocumentResponse; original: Buffer; stderr: string }> {
  const server = await serve(cwd, args);
  try {
    const get = (path: string) => fetch(new URL(path, server.url), { headers: { authorization: `Bearer ${server.token}` } });
    const info = fromWireKeys<ArchiveInfo>(await (await get("/api/archive")).json());
    const { groups: hits } = fromWireKeys<{ groups: { documentId: string }[] }>(await (await get("/api/search?q=harbour")).json());
    const document = fromWireKeys<DocumentResponse>(await (await get(`/api/documents/${hits[0]!.documentId}`)).json());
    const original = Buffer.from(await (await get(`/api/documents/${hits[0]!.documentId}/original`)).arrayBuffer());
    return { info, document, original, stderr: server.stderr() };
  } finally {
    expect(await server.stop()).toBe(0);
  }
}

describe("an archive opened from another folder", () => {
  it("is served with its originals from the source it recorded, and takes dropped files into its own pipeline", async () => {
    const { info, document, original, stderr } = await served(elsewhere, ["--db", archive]);
    expect(stderr).toContain(`pagestream: archive ${archive}, written by ${join(built, "pipeline.yaml")}; originals from folder ${join(built, "fixtures/samples")}\n`);
    expect(document.original).toEqual({ available: true });
    expect(createHash("sha256").update(original).digest("hex")).toBe(document.documentId);
    expect(info.canAdd).toBe(true);
  });

  it("shows its original pages in the browser, drawn by pdf.js", async () => {
    const server = await serve(elsewhere, ["--db", archive]);
    const browser = await launchBrowser();
    try {
      const page = await browser.context.newPage();
      await page.goto(`${server.url}&q=harbour`);
      await page.waitForSelector("body[data-ready]");
      await page.click(".hit a");
      await page.waitForSelector("canvas[data-rendered=true]", { timeout: 20_000 });
      // Drawn: the canvas has ink on it; and no sentence says the originals are missing.
      const ink = await page.$eval("canvas[data-rendered=true]", (canvas) => {
        const { data } = (canvas as HTMLCanvasElement).getContext("2d")!.getImageData(0, 0, (canvas as HTMLCanvasElement).width, (canvas as HTMLCanvasElement).height);
        let dark = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i]! < 128) dark++;
        return dark;
      });
      expect(ink).toBeGreaterThan(100);
      expect(await page.textContent("body")).not.toContain("Text only");
    } finally {
      await browser.close();
      expect(await server.stop()).toBe(0);
    }
  });

  it("still shows its originals when its pipeline is gone, but takes no dropped file", async () => {
    await rename(join(built, "pipeline.yaml"), join(built, "moved.yaml"));
    try {
      const { info, document, stderr } = await served(elsewhere, ["--db", archive]);
      expect(stderr).toContain(`the pipeline that wrote it, ${join(built, "pipeline.yaml")}, is gone: a dropped PDF cannot be added to this archive`);
      expect(document.original).toEqual({ available: true });
      expect(info.canAdd).toBe(false);
    } finally {
      await rename(join(built, "moved.yaml"), join(built, "pipeline.yaml"));
    }
  });

  it("says so for an archive written before it recorded its source; --pipeline names its pipeline, and only its own", async () => {
    const old = join(elsewhere, "old.sqlite");
    await writeFile(old, await readFile(archive));
    const db = new Database(old);
    db.prepare("DELETE FROM archive_meta WHERE key IN ('pipeline', 'source')").run();
    db.close();
    const { info, document } = await served(elsewhere, ["--db", old]);
    expect(document.original).toEqual({ available: false, reason: NO_SOURCE });
    expect(info.canAdd).toBe(false);

    const refused = cli(elsewhere, ["serve", "--db", old, "--pipeline", join(built, "pipeline.yaml")]);
    expect([refused.status, refused.stderr]).toEqual([2, `pagestream: ${join(built, "pipeline.yaml")} writes the archive ${archive}, not ${old}: give one of --db and --pipeline\n`]);

    const own = new Database(archive);
    const meta = own.prepare("SELECT key, value FROM archive_meta WHERE key IN ('pipeline', 'source')").all() as { key: string; value: string }[];
    own.prepare("DELETE FROM archive_meta WHERE key IN ('pipeline', 'source')").run();
    try {
      const named = await served(elsewhere, ["--pipeline", join(built, "pipeline.yaml")]);
      expect(named.document.original).toEqual({ available: true });
      expect(named.info.canAdd).toBe(true);
    } finally {
      for (const { key, value } of meta) own.prepare("INSERT INTO archive_meta (key, value) VALUES (?, ?)").run(key, value);
      own.close();
    }
  });

  it("is searched and exported by the same rule: --db, or the sqlite sink of --pipeline", async () => {
    const byDb = cli(elsewhere, ["search", "harbour", "--db", archive, "--json"]);
    const byPipeline = cli(elsewhere, ["search", "harbour", "--pipeline", join(built, "pipeline.yaml"), "--json"]);
    expect(byDb.status).toBe(0);
    expect(JSON.parse(byDb.stdout).archive).toBe(archive);
    expect(JSON.parse(byPipeline.stdout)).toEqual(JSON.parse(byDb.stdout));
    // Here, ./pipeline.yaml's own archive does not exist yet: that is said, not another archive searched.
    expect(cli(elsewhere, ["search", "harbour"]).stderr).toBe("pagestream: no archive at out/archive.sqlite (run a pipeline with a sqlite sink first, or give --db)\n");
  });

  it("exports from the archive the chunk lines the jsonl sink wrote, less the tokenizer it does not keep", async () => {
    const exported = cli(elsewhere, ["export", "--db", archive, "--records", "chunks"]);
    expect([exported.status, exported.stderr]).toEqual([0, ""]);
    const fromSink = cli(built, ["export", "--records", "chunks"]);
    const withoutTokenizer = (line: string) => {
      const chunk = JSON.parse(line) as { metadata: Record<string, unknown> };
      delete chunk.metadata.tokenizer;
      delete chunk.metadata.encoding;
      return chunk;
    };
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    const sinkLines = fromSink.stdout.trim().split("\n").map(withoutTokenizer) as { id: string }[];
    const archiveLines = exported.stdout.trim().split("\n").map((l) => JSON.parse(l) as { id: string });
    expect(archiveLines.length).toBeGreaterThan(3);
    expect(archiveLines.sort(byId)).toEqual(sinkLines.sort(byId));

    const documents = cli(elsewhere, ["export", "--db", archive, "--records", "documents"]).stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; status: string });
    expect(documents.map((d) => [d.type, d.status])).toEqual([["document", "ok"], ["document", "ok"], ["document", "ok"]]);
  });
});
