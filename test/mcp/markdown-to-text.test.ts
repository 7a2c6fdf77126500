/**
 * The archive's Markdown read back as text: exactly the markup src/text/markdown.ts puts on is
 * taken off, and nothing the page prints.
 */
import { describe, expect, it } from "vitest";
import { markdownToText } from "../../src/mcp/markdown-to-text.js";

describe("markdownToText", () => {
  it.each([
    ["takes the # off headings of every level", "# Harbour Authority\n\n#### First Quarter", "Harbour Authority\n\nFirst Quarter"],
    ["takes the - off list items and keeps the marker the page prints", "- • Tide tables\n  - a) nested\n1. Numbered", "• Tide tables\n  a) nested\n1. Numbered"],
    ["keeps running text that only looks like markup once unescaped", "\\# not a heading\n1\\. not a list\n\\- not an item", "# not a heading\n1. not a list\n- not an item"],
    ["unescapes emphasis characters a page printed", "a \\*masked\\* number ***-**-0860 and \\_\\_\\_ blanks", "a *masked* number ***-**-0860 and ___ blanks"],
    ["keeps a backslash that escapes nothing (a Windows path)", "C:\\Users\\harbour", "C:\\Users\\harbour"],
    ["drops a code block's fences and keeps its lines as they are", "```\n  \\# kept\nx = 1\n```\nafter", "  \\# kept\nx = 1\nafter"],
    ["ends a fence only at one as long as it", "````\n```\ninside\n````", "```\ninside"],
    ["turns a table's rows into tab-separated cells, without the separator row", "| Item | Cost |\n| --- | --- |\n| Dredging | 1.2 |", "Item\tCost\nDredging\t1.2"],
    ["drops the empty header row of a table without one", "|  |  |\n| --- | --- |\n| a | b |", "a\tb"],
    ["unescapes a pipe and a backslash inside a cell", "| a \\| b | c \\\\ d |", "a | b\tc \\ d"],
  ])("%s", (_name, markdown, text) => {
    expect(markdownToText(markdown)).toBe(text);
  });
});
