/**
 * Words broken at a line end inside a table cell ("Filetes y demás car-" over "nes de pescado").
 * The extract stage keeps a wrapped cell's printed lines apart in `Line.cells` (a line feed
 * between them) and shows the row with the hyphen kept; here the hyphen is decided as it is in
 * running text (hyphen-decision.ts), the decided word moves up onto the cell's line where it
 * starts, and the row's text is rebuilt from its cells (docs/extraction.md §10.7).
 */
import { textLine, type Dehyphenation, type Line, type PageRecord } from "../../core/records.js";
import { joinCellLines } from "../../text/line-join.js";
import { rerender } from "../../text/page-edit.js";
import { brokenEnd, FIRST_CHUNK, FIRST_WORD } from "./broken-words.js";
import { decideHyphen, type WordEvidence } from "./hyphen-decision.js";

export function joinBrokenCellWords(page: PageRecord, evidence: WordEvidence): PageRecord {
  const joins: Dehyphenation[] = [];
  const lines = page.lines.map((line) => (line.cells?.some((cell) => cell.includes("\n")) ? withCellsDecided(line, line.cells, evidence, joins) : line));
  if (joins.length === 0) return page;
  return rerender({ ...page, lines, dehyphenated: [...(page.dehyphenated ?? []), ...joins] });
}

function withCellsDecided(line: Line, cells: readonly string[], evidence: WordEvidence, joins: Dehyphenation[]): Line {
  const decided = cells.map((cell) => {
    if (!cell.includes("\n")) return cell;
    const printed = cell.split("\n");
    for (let i = 0; i + 1 < printed.length; i++) {
      const broken = brokenEnd(printed[i]!);
      const chunk = FIRST_CHUNK.exec(printed[i + 1]!)?.[1];
      const right = chunk ? FIRST_WORD.exec(chunk)?.[0] : undefined;
      if (!broken || !chunk || !right) continue;
      const left = broken[1]!;
      const { join, reason } = decideHyphen(left, right, broken[2] === "\u00AD", evidence);
      printed[i] = printed[i]!.slice(0, -1) + (join ? "" : "-") + chunk;
      printed[i + 1] = printed[i + 1]!.slice(chunk.length).trimStart();
      joins.push({ left: `${left}-`, right, result: join ? left + right : `${left}-${right}`, reason });
    }
    return printed.filter(Boolean).join("\n");
  });
  if (decided.every((cell, j) => cell === cells[j])) return line;
  return textLine({ ...line, cells: decided, text: decided.map((cell) => joinCellLines(cell.split("\n"))).join("\t") });
}
