/**
 * Where a YAML syntax error is reported. The yaml library places the errors of a stray indent
 * (`type: folder` followed by a line indented further, `    path: in`) at the start of the value
 * on the line above — BLOCK_AS_IMPLICIT_KEY and MULTILINE_IMPLICIT_KEY, both at `2:9` — while the
 * line to fix is the indented one. Those two become one issue on that line; every other error
 * keeps the library's place and first line of message.
 */
import type { LineCounter, YAMLError } from "yaml";

export interface SyntaxIssue {
  line: number;
  col: number;
  message: string;
}

const STRAY_INDENT_CODES = new Set(["BLOCK_AS_IMPLICIT_KEY", "MULTILINE_IMPLICIT_KEY"]);

export function yamlSyntaxIssues(errors: readonly YAMLError[], text: string, lineCounter: LineCounter): SyntaxIssue[] {
  const issues: SyntaxIssue[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const issue = STRAY_INDENT_CODES.has(e.code) ? strayIndent(e, text, lineCounter) : undefined;
    const { line, col } = issue ?? lineCounter.linePos(e.pos[0]);
    const message = issue?.message ?? e.message.split("\n")[0]!;
    const key = `${line}:${col} ${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ line, col, message });
  }
  return issues;
}

/** The next line holding something, when it is indented further than the line the error starts on. */
function strayIndent(e: YAMLError, text: string, lineCounter: LineCounter): SyntaxIssue | undefined {
  const starts = lineCounter.lineStarts;
  const first = lineCounter.linePos(e.pos[0]).line;
  const lineText = (line: number) => text.slice(starts[line - 1], starts[line] ?? text.length);
  const indentOf = (line: number) => /^ */.exec(lineText(line))![0].length;
  for (let line = first + 1; line <= starts.length; line++) {
    if (/^\s*(#.*)?$/.test(lineText(line))) continue;
    if (indentOf(line) <= indentOf(first)) return undefined;
    return {
      line,
      col: indentOf(line) + 1,
      message: `indented further than line ${first} above it: line it up with the keys it belongs with (or end line ${first} with a key and ":")`,
    };
  }
  return undefined;
}
