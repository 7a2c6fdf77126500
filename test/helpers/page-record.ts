import type { Line, PageRecord, Paragraph } from "../../src/core/records.js";
import { renderPageText } from "../../src/text/page-text.js";

/** A page record of these lines and paragraphs, its text rendered from them (reflow) as the extract stage renders it. */
export function pageRecord(lines: Line[], paragraphs: Paragraph[], extra: Partial<PageRecord> = {}): PageRecord {
  return {
    type: "page",
    documentId: "d",
    uri: "file:///d.pdf",
    number: 1,
    width: 612,
    height: 792,
    rotation: 0,
    lines,
    paragraphs,
    text: renderPageText(lines, paragraphs, "reflow"),
    mode: "reflow",
    empty: false,
    orderSource: "geometry",
    orderReason: "",
    untaggedGlyphs: 0,
    columns: 1,
    ...extra,
  };
}
