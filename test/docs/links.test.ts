/**
 * Every relative link of the README and of docs/ reaches a file that exists and, when it names
 * a heading (#anchor), a heading of that file, as GitHub makes the anchors: the pages were cut
 * out of one README, and a link left pointing into the old one would be dead.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { expect, it } from "vitest";

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, "")
    .replaceAll(" ", "-");
}

function anchors(file: string): Set<string> {
  const text = readFileSync(file, "utf8").replace(/^```[\s\S]*?^```$/gm, "");
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1]!)));
}

it("reaches files and headings that exist from the README and every page of docs/", () => {
  const pages = ["README.md", ...readdirSync("docs").filter((f) => f.endsWith(".md")).map((f) => join("docs", f))];
  const dead: string[] = [];
  for (const page of pages) {
    const text = readFileSync(page, "utf8").replace(/^```[\s\S]*?^```$/gm, "");
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:)/.test(target!)) continue;
      const [path, anchor] = target!.split("#") as [string, string | undefined];
      const file = path ? normalize(join(dirname(page), path)) : page;
      if (!existsSync(file)) dead.push(`${page}: ${target} (no file ${file})`);
      else if (anchor && file.endsWith(".md") && !anchors(file).has(anchor)) dead.push(`${page}: ${target} (no heading #${anchor} in ${file})`);
    }
  }
  expect(dead).toEqual([]);
});
