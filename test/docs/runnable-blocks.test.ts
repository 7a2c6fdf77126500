/**
 * The commands of the README and of docs/, run as written, so none can rot. Every ```sh runnable
 * block is run with `bash -e` in a copy of this repository — a fresh clone as the README's
 * install leaves it — in the order the README gives them: the global install of the packed
 * package, the quick start on the samples, then "Your own folder" with the installed
 * `pagestream` from a folder outside the clone, export and search; then the runnable blocks of
 * docs/.
 *
 * What stands in for the README's two network steps, and why:
 * - `git clone … && npm install`: the repository's files (tracked and new, not ignored) are
 *   copied, node_modules is linked to this checkout's (installing again would rebuild
 *   better-sqlite3 and prove npm's resolver, not pagestream), and `npm run build` does what
 *   `npm install` runs after fetching (the prepare script);
 * - `npm install -g`: runs as written, into a prefix of the test's own (npm_config_prefix, its
 *   bin/ first on PATH), never the machine's; the global copy fetches its dependencies from
 *   the registry into npm's usual cache.
 * `~` is a home folder of the test's own, whose `papers/` holds the three sample PDFs.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, lstatSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, symlink } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO = resolve(".");
const RUNNABLE = /^```sh runnable\n([\s\S]*?)^```$/gm;

function runnableBlocks(markdown: string): string[] {
  return [...markdown.matchAll(RUNNABLE)].map((m) => m[1]!);
}

let tmp: string;
let clone: string;
let home: string;
let env: NodeJS.ProcessEnv;

/** Runs one block as a reader would paste it into a shell, in the clone. */
function run(block: string) {
  const r = spawnSync("bash", ["-e", "-c", block], { cwd: clone, env, encoding: "utf8", timeout: 900_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), "pagestream-docs-"));
  clone = join(tmp, "pagestream");
  home = join(tmp, "home");
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { encoding: "utf8" }).split("\0").filter((f) => f && existsSync(f) && lstatSync(f).isFile());
  for (const file of files) {
    await mkdir(dirname(join(clone, file)), { recursive: true });
    await copyFile(file, join(clone, file));
  }
  await symlink(join(REPO, "node_modules"), join(clone, "node_modules"));
  await mkdir(join(home, "papers"), { recursive: true });
  for (const pdf of await readdir("fixtures/samples")) await copyFile(join("fixtures/samples", pdf), join(home, "papers", pdf));
  const prefix = join(tmp, "global");
  env = {
    ...process.env,
    HOME: home,
    npm_config_prefix: prefix,
    // The global install's downloads go through npm's usual cache, not a new empty one under the test's home.
    npm_config_cache: process.env.npm_config_cache ?? join(homedir(), ".npm"),
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
    PATH: `${join(prefix, "bin")}:${process.env.PATH}`,
    CI: "true",
  };
  const build = spawnSync("npm", ["run", "build"], { cwd: clone, env, encoding: "utf8" });
  expect([build.status, build.stderr]).toEqual([0, ""]);
}, 600_000);
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe("the README, as written", () => {
  it("marks every command block runnable, except the clone's install and the servers that run until stopped", async () => {
    const readme = await readFile("README.md", "utf8");
    const blocks = [...readme.matchAll(/^```sh(.*)\n([\s\S]*?)^```$/gm)];
    const notRun = blocks.filter((m) => m[1] !== " runnable").map((m) => m[2]!.split("\n")[0]);
    expect(notRun).toEqual([
      "git clone <repository URL> pagestream && cd pagestream",
      "pagestream serve                        # a web page: search, read each page beside the original",
      "sudo apt-get install -y redis-server openssl tesseract-ocr tesseract-ocr-deu poppler-utils chromium",
    ]);
    expect(readme.split("\n").length).toBeLessThanOrEqual(250);
  });

  it("installs, runs the quick start and ingests your own folder with the installed command", async () => {
    const [install, quickStart, ownFolder, load, search, ...rest] = runnableBlocks(await readFile("README.md", "utf8"));
    expect(rest).toEqual([]);

    const installed = run(install!);
    expect(installed.code, installed.stderr).toBe(0);
    const version = JSON.parse(await readFile("package.json", "utf8")).version as string;
    expect(installed.stdout.trim().split("\n").at(-1)).toBe(version);

    const quick = run(quickStart!);
    expect(quick.code, quick.stderr).toBe(0);
    expect(quick.stdout).toMatch(/^1\. fixtures\/samples\/service-agreement\.pdf .*\n.*\[written notice\]/m);
    expect(quick.stdout).toMatch(/^# Harbour Authority/m);

    const own = run(ownFolder!);
    expect(own.code, own.stderr).toBe(0);
    expect(own.stdout).toContain(`wrote pipeline.yaml: the PDFs under ${join(home, "papers")} → out/chunks.jsonl and out/archive.sqlite`);
    expect(own.stdout).toMatch(/^1\. .*\.pdf/m);
    // Written outside the clone, by the global command: the schema it names is the installed package's.
    const written = await readFile(join(home, "pdf-search", "pipeline.yaml"), "utf8");
    const schema = /\$schema=file:\/\/(\S+)/.exec(written)?.[1];
    expect(schema?.startsWith(join(tmp, "global"))).toBe(true);
    expect(existsSync(schema!)).toBe(true);

    const loaded = run(load!);
    expect(loaded.code, loaded.stderr).toBe(0);
    const first = JSON.parse((await readFile(join(home, "pdf-search", "chunks.langchain.jsonl"), "utf8")).split("\n")[0]!) as { pageContent: string; metadata: object; id: string };
    expect(Object.keys(first)).toEqual(["pageContent", "metadata", "id"]);

    const searched = run(search!);
    expect(searched.code, searched.stderr).toBe(0);
    expect(searched.stdout).toMatch(/^1\. .*\.pdf/m);
    expect(searched.stdout).toMatch(/"hits": \[\n\s+\{/);
  }, 2_400_000);
});

describe("the runnable blocks of docs/", () => {
  it("run as written", async () => {
    const pages = (await readdir("docs")).filter((f) => f.endsWith(".md")).sort();
    let ran = 0;
    for (const page of pages) {
      for (const block of runnableBlocks(await readFile(join("docs", page), "utf8"))) {
        const r = run(block);
        expect(r.code, `${page}: ${block}\n${r.stderr}`).toBe(0);
        expect(r.stdout, `${page}: ${block}`).not.toBe("");
        ran++;
      }
    }
    expect(ran).toBeGreaterThan(0);
  }, 900_000);
});
