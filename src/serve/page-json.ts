/**
 * Pages as the page shows them, from the archive's rows or from the records of a dropped PDF:
 * the same fields either way (text, flags, furniture, facts, OCR, the document's warnings that
 * name the page, and where a query matched).
 */
import { pageFlags, pageFurniture, pageLabel } from "../text/page-facts.js";
import { renderPageText } from "../text/page-text.js";
import type { DocumentWarning, PageRecord } from "../core/records.js";
import { pageFacts } from "../sinks/sqlite/document-rows.js";
import type { PageMatch } from "../sinks/sqlite/search.js";
import type { ExtractResponse, FactsJson, FurnitureJson, OcrJson, PageJson } from "./api-types.js";
import type { PageRecordRow } from "./archive-reader.js";

type Warning = { code: string; message: string; pages?: number[] };

function warningsOf(warnings: readonly Warning[], page: number): { code: string; message: string }[] {
  return warnings.filter((w) => w.pages?.includes(page)).map(({ code, message }) => ({ code, message }));
}

export function archivedPageJson(row: PageRecordRow, warnings: readonly Warning[], matches: readonly PageMatch[]): PageJson {
  return {
    number: row.number,
    label: row.label,
    text: row.text,
    mode: row.mode,
    flags: row.flags,
    furniture: (row.furniture as FurnitureJson | null) ?? null,
    facts: (row.facts as FactsJson | null) ?? null,
    ocr: (row.ocr as OcrJson | null) ?? null,
    warnings: warningsOf(warnings, row.number),
    matches: matches.filter((m) => m.page === row.number).map((m) => [m.start, m.end]),
  };
}

/** A dropped PDF's page, in both modes: the stages' lines and paragraphs render either. */
export function extractedPageJson(page: PageRecord, warnings: readonly DocumentWarning[]): ExtractResponse["pages"][number] {
  const other = page.mode === "reflow" ? "preserve" : "reflow";
  const texts = { [page.mode]: page.text, [other]: renderPageText(page.lines, page.paragraphs, other) } as Record<"reflow" | "preserve", string>;
  return {
    number: page.number,
    label: pageLabel(page) ?? null,
    text: page.text,
    mode: page.mode,
    flags: pageFlags(page),
    furniture: pageFurniture(page) ?? null,
    facts: pageFacts(page) as FactsJson,
    // Set by the OCR stage on the pages it read, where it ran.
    ocr: ((page as { ocr?: OcrJson }).ocr as OcrJson | undefined) ?? null,
    warnings: warningsOf(warnings, page.number),
    matches: [],
    reflow: texts.reflow,
    preserve: texts.preserve,
  };
}
