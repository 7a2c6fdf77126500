/**
 * `pagestream search` prints paths, titles, page labels and text that come from the files: their
 * control characters reach the screen escaped — on a terminal and in a pipe alike — never as a
 * raw ESC (a colour, a window title, a cleared screen) or a newline that forges a hit of its own.
 * `--json` keeps them exact.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptySummary } from "../src/run/delivery.js";
import sqlite from "../src/sinks/sqlite/sink.js";
import { page, result, text } from "./stages/chunk-fixtures.js";

const CLI = resolve("dist/cli.js");
const URI = "/in/\u001b[2Jminutes\nforged.pdf";
const TITLE = "Minutes\u001b]0;owned\u0007";
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "pagestream-search-escapes-"));
  const sink = await sqlite.create(sqlite.options.parse({ path: "archive.sqlite" }), { baseDir: dir, warn: () => {} });
  const pages = [page(1, [text("The harbour \u001b[31mberth\u001b[0m closes in May \u202eevil")], { uri: URI, furniture: { pageLabel: "i\u001b[5m" } })];
  await sink.write(await result(pages, { title: TITLE }));
  await sink.checkpoint();
  await sink.close({ ...emptySummary(), complete: true });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const search = (args: string[]) => spawnSync(process.execPath, [CLI, "search", "--db", join(dir, "archive.sqlite"), ...args], { cwd: dir, encoding: "utf8" });

describe("search output with control characters from the files", () => {
  it("escapes them in a pipe", () => {
    const r = search(["harbour"]);
    expect([r.status, r.stderr]).toEqual([0, ""]);
    expect(r.stdout).toBe(
      "1. /in/\\x1b[2Jminutes\\nforged.pdf  p. 1 (printed i\\x1b[5m)  Minutes\\x1b]0;owned\\x07\n" +
        "   The [harbour] \\x1b[31mberth\\x1b[0m closes in May \\u{202e}evil\n",
    );
  });

  it("escapes them on a terminal, where only its own bold marks are escape sequences", () => {
    // `script` runs the search on a pseudo-terminal, as a person would.
    const command = [process.execPath, CLI, "search", "--db", join(dir, "archive.sqlite"), "harbour"].map((a) => `'${a}'`).join(" ") + " 2>/dev/null"; // the archive named on stderr
    const r = spawnSync("script", ["-qec", command, "/dev/null"], { cwd: dir, encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stdout.replaceAll("\r\n", "\n")).toBe(
      "1. /in/\\x1b[2Jminutes\\nforged.pdf  p. 1 (printed i\\x1b[5m)  Minutes\\x1b]0;owned\\x07\n" +
        "   The \u001b[1mharbour\u001b[22m \\x1b[31mberth\\x1b[0m closes in May \\u{202e}evil\n",
    );
  });

  it("keeps them exact in --json", () => {
    const hit = (JSON.parse(search(["harbour", "--json"]).stdout) as { hits: { uri: string; title: string }[] }).hits[0]!;
    expect([hit.uri, hit.title]).toEqual([URI, TITLE]);
  });
});
