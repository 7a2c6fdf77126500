import { describe, expect, it } from "vitest";
import { formatIssue, parsePipeline } from "../../src/pipeline/config.js";

const PIPELINE = (source: string, extra = "") =>
  `source:\n${source}\nstages:\n  - type: extract\n${extra}sinks:\n  - type: jsonl\n    path: \${OUT_DIR:-out}/pages.jsonl\n`;

async function parse(text: string, env: Record<string, string>) {
  return parsePipeline(text, { file: "pipeline.yaml", baseDir: process.cwd(), env });
}

describe("environment references in pipeline.yaml", () => {
  it("replace ${NAME} in any string value, with a fallback for unset or empty variables", async () => {
    const text = PIPELINE("  type: folder\n  path: ${INTAKE}/${YEAR}\n  exclude: ['${SKIP:-drafts}']", "    password: ${PDF_PASSWORD}\n");
    const r = await parse(text, { INTAKE: "/srv/intake", YEAR: "2026", SKIP: "", PDF_PASSWORD: "s3cret" });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.config.source.options).toMatchObject({ path: "/srv/intake/2026", exclude: ["drafts"] });
    expect(r.config.stages[0]!.options.password).toBe("s3cret");
    expect(r.config.sinks[0]!.options.path).toBe("out/pages.jsonl");
  });

  it("keep an empty variable empty when there is no fallback, and write $${ as a literal ${", async () => {
    const r = await parse(PIPELINE("  type: folder\n  path: ./$${literal}${EMPTY}"), { EMPTY: "" });
    expect(r.ok && r.config.source.options.path).toBe("./${literal}");
  });

  it("report every unset variable at its line and column, with the option's path", async () => {
    const text = PIPELINE("  type: folder\n  path: ${INTAKE}", "    password: ${PDF_PASSWORD}-${YEAR}\n");
    const r = await parse(text, { YEAR: "2026" });
    expect(r.ok ? [] : r.issues.map(formatIssue)).toEqual([
      "pipeline.yaml:3:9 source.path: environment variable INTAKE is not set (write ${INTAKE:-fallback} for a default)",
      "pipeline.yaml:6:15 stages[0].password: environment variable PDF_PASSWORD is not set (write ${PDF_PASSWORD:-fallback} for a default)",
    ]);
  });

  it("report a ${ that starts no reference", async () => {
    const r = await parse(PIPELINE("  type: folder\n  path: ${not closed"), {});
    expect(r.ok ? [] : r.issues.map(formatIssue)).toEqual([
      'pipeline.yaml:3:9 source.path: "${" starts no environment reference: write ${NAME} (letters, digits and _), or $${ for a literal "${"',
    ]);
  });

  it("point into lists and leave keys, numbers and booleans alone", async () => {
    const text = "concurrency: 3\nsource: { type: folder, path: in, exclude: ['a/**', '${EXCLUDED}'] }\nstages: [{ type: extract, collapse_letter_spacing: false }]\nsinks: [{ type: jsonl }]\n";
    const r = await parse(text, {});
    expect(r.ok ? [] : r.issues.map(formatIssue)).toEqual([
      "pipeline.yaml:2:53 source.exclude[1]: environment variable EXCLUDED is not set (write ${EXCLUDED:-fallback} for a default)",
    ]);
    const ok = await parse(text, { EXCLUDED: "drafts" });
    expect(ok.ok && [ok.config.settings.concurrency, ok.config.source.options.exclude, ok.config.stages[0]!.options.collapse_letter_spacing]).toEqual([3, ["a/**", "drafts"], false]);
  });
});
