/**
 * The archive's Markdown view of a page as text: the markup src/text/markdown.ts adds taken off
 * again, so a client that asks for text gets the words the page prints. The archive stores a
 * document in one view only (the one its chunks were cut from), not the model it was rendered
 * from, so this reads the Markdown back rather than rendering the plain view anew; what it takes
 * off is exactly what that renderer puts on:
 * - `#` to `######` before a heading;
 * - `- ` before a list item (the marker the page prints, a bullet or `a)`, stays after it;
 *   a numbered item's `1.` is what the page prints and stays);
 * - a code block's fences (its lines are kept as they are);
 * - a table's pipes: cells separated by a tab, as in the plain view; the separator row, and the
 *   empty header row of a table without one, dropped;
 * - backslash escapes before punctuation (`\#`, `1\.`, `\*`, `\|`), read as CommonMark reads them.
 */

/** A fence line: three or more backquotes, alone on it. */
const FENCE = /^(`{3,})\s*$/u;
const HEADING = /^#{1,6} /u;
const LIST_ITEM = /^(\s*)- /u;
const TABLE_ROW = /^\|.*\|$/u;
const SEPARATOR_ROW = /^\|(?: --- \|)+$/u;
/** CommonMark's backslash escape: a backslash before ASCII punctuation. */
const ESCAPE = /\\([!-/:-@[-`{-~])/gu;

export function markdownToText(markdown: string): string {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split("\n")) {
    const fenceMatch = FENCE.exec(line);
    if (fence !== undefined) {
      if (fenceMatch && fenceMatch[1]!.length >= fence.length) fence = undefined;
      else lines.push(line);
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1]!;
      continue;
    }
    if (TABLE_ROW.test(line)) {
      if (SEPARATOR_ROW.test(line)) continue;
      const cells = tableCells(line);
      if (cells.every((c) => c === "")) continue;
      lines.push(cells.join("\t"));
      continue;
    }
    lines.push(line.replace(HEADING, "").replace(LIST_ITEM, "$1").replace(ESCAPE, "$1"));
  }
  return lines.join("\n");
}

/** A pipe table row's cells, unescaped (`\|` is a pipe in a cell, `\\` a backslash). */
function tableCells(row: string): string[] {
  const cells: string[] = [];
  let cell = "";
  for (let i = 1; i < row.length - 1; i++) {
    const ch = row[i]!;
    if (ch === "\\" && i + 1 < row.length - 1) {
      cell += row[++i]!;
    } else if (ch === "|") {
      cells.push(cell.trim());
      cell = "";
    } else {
      cell += ch;
    }
  }
  cells.push(cell.trim());
  return cells;
}
