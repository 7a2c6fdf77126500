/**
 * pagestream as a third party gets it: the packed tarball (`npm pack`), unpacked into a
 * project of its own, runs a pipeline with a stage written against `pagestream/plugin` (the
 * example in examples/, copied into the project as a user would), and the package's type
 * declarations type-check that stage.
 *
 * The project's dependencies are linked to this repository's node_modules rather than
 * installed again: installing would rebuild better-sqlite3 from source (~1 min) and prove
 * npm's resolver, not pagestream. What the tarball holds — its files, its exports map, its
 * declarations, its bundled entry points — is exactly what a user installs. It packs the build
 * that `npm test` made (`--ignore-scripts`: a rebuild here would rewrite dist/ under the other
 * test files running beside this one).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO = resolve(".");

describe("the packed package", () => {
  let dir: string;
  let app: string;
  let files: string[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "pagestream-pack-"));
    const packed = JSON.parse(execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", dir], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] })) as { filename: string; files: { path: string }[] }[];
    files = packed[0]!.files.map((f) => f.path);
    app = join(dir, "app");
    const installed = join(app, "node_modules", "pagestream");
    await mkdir(installed, { recursive: true });
    execFileSync("tar", ["-xzf", join(dir, packed[0]!.filename), "-C", installed, "--strip-components=1"]);
    for (const name of await readdir(join(REPO, "node_modules"))) {
      if (name.startsWith(".") || name === "pagestream") continue;
      await symlink(join(REPO, "node_modules", name), join(app, "node_modules", name));
    }
    await mkdir(join(app, "stages"));
    await copyFile("examples/drop-pages.js", join(app, "stages", "drop-pages.js"));
    await mkdir(join(app, "in"));
    await copyFile("fixtures/two-pages.pdf", join(app, "in", "memo.pdf"));
    await writeFile(join(app, "package.json"), JSON.stringify({ name: "my-ingestion", private: true, type: "module" }));
    await writeFile(
      join(app, "pipeline.yaml"),
      "source: { type: folder, path: in }\nstages:\n  - type: extract\n  - type: ./stages/drop-pages.js\n    pattern: closing paragraph\n" +
        "sinks: [{ type: jsonl, path: out/pages.jsonl }]\n",
    );
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("holds the bundled entry points, the declarations and the schema, and none of the sources or tests", () => {
    for (const f of ["dist/cli.js", "dist/run/extraction-worker.cjs", "dist/stages/extract/pdfjs-script.cjs", "dist/index.js", "dist/index.d.ts", "dist/plugin.js", "dist/plugin.d.ts", "pipeline.schema.json", "chunk.schema.json", "README.md"]) {
      expect(files, f).toContain(f);
    }
    expect(files.filter((f) => /^(src|test|fixtures|bench|scripts)\//.test(f))).toEqual([]);
  });

  it("runs a pipeline whose stage comes from the user's project, loaded by its path", async () => {
    const cli = join(app, "node_modules/pagestream/dist/cli.js");
    const validate = spawnSync(process.execPath, [cli, "validate"], { cwd: app, encoding: "utf8" });
    expect([validate.status, validate.stderr]).toEqual([0, ""]);
    expect(validate.stdout).toMatch(/^pipeline\.yaml: ok \(source folder; stages extract → drop-pages; sinks jsonl\)/);
    const run = spawnSync(process.execPath, [cli, "run", "--progress", "never", "--log-level", "warn"], { cwd: app, encoding: "utf8" });
    expect([run.status, run.stderr]).toEqual([0, ""]);
    const pages = (await readFile(join(app, "out/pages.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; page: number; text: string });
    // Page 2 holds "the closing paragraph": the example stage dropped it, page 1 stays.
    expect(pages.filter((r) => r.type === "page").map((r) => r.page)).toEqual([1]);
  });

  it("an invalid option of the user's stage is reported at its line and column, like a built-in's", async () => {
    await writeFile(join(app, "bad.yaml"), "source: { type: folder, path: in }\nstages:\n  - type: extract\n  - type: ./stages/drop-pages.js\n    flags: gx\nsinks: [{ type: jsonl }]\n");
    const r = spawnSync(process.execPath, [join(app, "node_modules/pagestream/dist/cli.js"), "validate", "bad.yaml"], { cwd: app, encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toEqual(["bad.yaml:4:5 stages[1].pattern: is required (string)", "bad.yaml:5:12 stages[1].flags: only the flags i, m, s and u"]);
  });

  it("types the user's stage from the package's declarations (tsc --checkJs passes)", async () => {
    await writeFile(
      join(app, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { module: "nodenext", moduleResolution: "nodenext", target: "es2022", strict: true, allowJs: true, checkJs: true, noEmit: true, skipLibCheck: true }, include: ["stages"] }),
    );
    const tsc = spawnSync(process.execPath, [join(REPO, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: app, encoding: "utf8" });
    expect([tsc.status, tsc.stdout]).toEqual([0, ""]);
    // And the check bites: a misspelt record field is a type error.
    await writeFile(join(app, "stages", "broken.js"), '// @ts-check\nimport { filterPages } from "pagestream/plugin";\nexport const drop = filterPages((page) => page.txet === "");\n');
    const broken = spawnSync(process.execPath, [join(REPO, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: app, encoding: "utf8" });
    expect(broken.status).not.toBe(0);
    expect(broken.stdout).toContain("Property 'txet' does not exist on type 'PageRecord'");
    await rm(join(app, "stages", "broken.js"));
  });
});
