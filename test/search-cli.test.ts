/** `pagestream search` as a user runs it, on the archive the default pipeline writes from fixtures/samples. */
import { spawnSync } from "node:child_process";
import { copyFile, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { tracedCli } from "./helpers/loaded-modules.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const CLI = resolve("dist/cli.js");
let dir: string;
function cli(args: string[], nodeArgs: string[] = []) {
  const r = spawnSync(process.execPath, [...nodeArgs, CLI, ...args], { cwd: dir, encoding: "utf8", env: { ...process.env, FORCE_COLOR: "0" } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
interface JsonHit {
  uri: string;
  match_pages: [number, number];
  page_start: number;
  page_end: number;
  snippet: string;
  highlights: [number, number][];
  title?: string;
}
const json = (args: string[]) => JSON.parse(cli(["search", ...args, "--json"]).stdout) as { match: string; hits: JsonHit[] };
const marked = (h: JsonHit) => h.highlights.map(([s, e]) => h.snippet.slice(s, e).toLowerCase());

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "pagestream-search-cli-"));
  await copyFile("pipeline.yaml", join(dir, "pipeline.yaml"));
  await symlink(resolve("fixtures"), join(dir, "fixtures"));
  const r = cli(["run"]);
  if (r.code !== 0) throw new Error(`the default pipeline failed: ${r.stderr}`);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("pagestream search", () => {
  it("finds a phrase that crosses a line break in the PDF (service-agreement.pdf, page 2: written / notice)", () => {
    const { match, hits } = json(['"written notice"']);
    expect(match).toBe('"written notice"');
    expect(hits.length).toBeGreaterThan(0);
    for (const h of hits) {
      expect(h.uri).toBe(join(dir, "fixtures/samples/service-agreement.pdf"));
      expect(h.match_pages).toEqual([2, 2]);
      expect(marked(h)).toContain("written notice");
    }
  });

  it("finds the phrases that run over the page breaks of quarterly-report.pdf (2 → 3, 3 → 4), with both pages", () => {
    // The running header and the "Page N of 4" footer stand between the halves in the PDF.
    for (const [phrase, pages] of [
      ["will be watched closely", [2, 3]],
      ["argued that the increase", [3, 4]],
    ] as const) {
      const { hits } = json([`"${phrase}"`]);
      expect(hits.length, phrase).toBeGreaterThan(0);
      for (const h of hits) {
        expect(h.uri).toBe(join(dir, "fixtures/samples/quarterly-report.pdf"));
        expect(h.match_pages).toEqual(pages);
        expect(marked(h)).toEqual([phrase]);
      }
    }
  });

  it("prints each hit as the file, the pages of the match with their printed labels, the title and a snippet with the matches marked", () => {
    const r = cli(["search", '"written notice"', "--limit", "1"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/^1\. fixtures\/samples\/service-agreement\.pdf {2}p\. 2 \(printed 2\) {2}Service Agreement\n {3}\S.*\[written notice\].*\n$/);
  });

  it("says there is no match instead of printing nothing", () => {
    const r = cli(["search", "zeppelin"]);
    expect([r.code, r.stdout]).toEqual([0, 'No matches for "zeppelin".\n']);
    expect(json(["zeppelin"]).hits).toEqual([]);
  });

  it("filters by path prefix and by document", () => {
    const all = json(["harbour", "--limit", "50"]).hits;
    expect(new Set(all.map((h) => h.uri.split("/").pop()))).toEqual(new Set(["meeting-minutes.pdf", "quarterly-report.pdf", "service-agreement.pdf"]));
    expect(new Set(json(["harbour", "--limit", "50", "--path", "fixtures/samples/meeting"]).hits.map((h) => h.uri.split("/").pop()))).toEqual(new Set(["meeting-minutes.pdf"]));
    const report = join(dir, "fixtures/samples/quarterly-report.pdf");
    for (const document of [report, "fixtures/samples/quarterly-report.pdf"]) {
      expect(new Set(json(["harbour", "--limit", "50", "--document", document]).hits.map((h) => h.uri)), document).toEqual(new Set([report]));
    }
  });

  it("refuses a --document it cannot find, instead of saying there are no matches (issue 14 §7)", () => {
    const [hit] = json(["harbour", "--limit", "1"]).hits as (JsonHit & { document_id: string; path: string })[];
    expect(hit!.path).toBe(hit!.uri.split("/").pop());
    expect(json(["harbour", "--document", hit!.document_id.slice(0, 8)]).hits.length).toBeGreaterThan(0);
    for (const [document, message] of [
      ["220e08e", "--document 220e08e: too short for a document id: give its first 8 hex digits or more (the sha256 of the file, as search --json and the documents table show it), or the document's path"],
      ["0000000000", "--document 0000000000: no document in the archive has an id starting with 0000000000"],
      ["fixtures/samples/annual-report.pdf", `--document fixtures/samples/annual-report.pdf: the archive holds no document at ${join(dir, "fixtures/samples/annual-report.pdf")}; give its path as the run stored it, or its id`],
    ]) {
      expect(cli(["search", "harbour", "--document", document!]), document).toEqual({ code: 2, stdout: "", stderr: `pagestream: ${message}\n` });
    }
  });

  it("hands the query to FTS5 with --fts (NEAR, column filters), and explains a malformed one (issue 14 §7)", () => {
    const near = json(['NEAR("written" "notice", 2)', "--fts", "--limit", "50"]).hits;
    expect(new Set(near.map((h) => h.uri.split("/").pop()))).toEqual(new Set(["service-agreement.pdf"]));
    expect(json(["title : minutes", "--fts", "--limit", "50"]).hits.every((h) => h.title?.startsWith("Minutes"))).toBe(true);
    // Without --fts the same words are searched as words.
    expect(cli(["search", "title : minutes"]).code).toBe(0);
    const bad = cli(["search", "NEAR(written", "--fts"]);
    expect([bad.code, bad.stdout]).toEqual([2, ""]);
    expect(bad.stderr).toMatch(/^pagestream: FTS5 cannot read this query \(.+\): see its syntax at https:\/\/www\.sqlite\.org\/fts5\.html#full_text_query_syntax/);
  });

  it("turns a query it cannot search into a sentence and exit 2, never a crash", () => {
    const r = cli(["search", '" * "']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe('pagestream: nothing to search for in "\\" * \\"": give a word, a "phrase in quotes" or a prefix*\n');
    for (const hostile of ["NEAR(", "title:", "^x", '"unclosed', "(harbour", "*xyz", "harbour)"]) {
      const h = cli(["search", hostile]);
      expect([h.code, h.stderr], hostile).toEqual([0, ""]);
    }
    for (const [malformed, message] of [
      ["AND", 'AND needs a word, a "phrase" or a (group) on each side'],
      ["harbour OR", 'OR needs a word, a "phrase" or a (group) on each side'],
      ["NOT harbour", "NOT needs something to search for before it"],
      ["ha*", '"ha*" is too short a prefix'],
      ["harbour ".repeat(130), "the query is 1,040 characters long; at most 1,000 are searched"],
    ]) {
      const h = cli(["search", malformed!]);
      expect([h.code, h.stdout], malformed).toEqual([2, ""]);
      expect(h.stderr, malformed).toContain(`pagestream: ${message}`);
    }
  });

  it("answers OR and NOT as operators", () => {
    const files = (q: string) => new Set(json([q, "--limit", "50"]).hits.map((h) => h.uri.split("/").pop()));
    expect(files("harbour NOT dredging")).not.toContain("quarterly-report.pdf");
    expect(files('"written notice" OR "seabird"')).toEqual(new Set([...files('"written notice"'), ...files("seabird")]));
  });

  it("exits 2 with a sentence when the archive is missing, a bad file, or has no trigram index", async () => {
    expect(cli(["search", "x", "--db", "nowhere.sqlite"])).toEqual({ code: 2, stdout: "", stderr: "pagestream: no archive at nowhere.sqlite (run a pipeline with a sqlite sink first, or give --db)\n" });
    await writeFile(join(dir, "notes.sqlite"), "not a database at all, just text that is long enough to look like a file");
    expect(cli(["search", "x", "--db", "notes.sqlite"])).toEqual({ code: 2, stdout: "", stderr: "pagestream: notes.sqlite: file is not a database\n" });
    const sub = cli(["search", "arbour", "--substring"]);
    expect([sub.code, sub.stderr]).toEqual([2, "pagestream: the archive has no trigram index for substring search: set `trigram: true` on its sqlite sink and run the pipeline again\n"]);
  });

  it("loads neither better-sqlite3 nor gpt-tokenizer (nor pdf.js itself) for --help or validate", () => {
    for (const args of [["--help"], ["search", "--help"], ["validate"]]) {
      const r = tracedCli(args, dir);
      expect(r.code, args.join(" ")).toBe(0);
      expect(r.sources.some((s) => s.endsWith("src/cli.ts"))).toBe(true);
      expect(r.sources.filter((s) => /node_modules\/(better-sqlite3|gpt-tokenizer|pdfjs-dist)\//.test(s)), args.join(" ")).toEqual([]);
    }
  });
});
