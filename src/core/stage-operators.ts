/**
 * The two shapes a stage over pages takes, as RxJS operators on one document's records.
 * Records a stage does not handle (chunks, for a cleaning stage) pass through untouched.
 */
import { filter, map, mergeMap, toArray, type OperatorFunction } from "rxjs";
import type { DocRecord, PageRecord } from "./records.js";

/** A stage that looks at one page at a time: runs as the pages arrive. */
export function mapPages(fn: (page: PageRecord) => PageRecord): OperatorFunction<DocRecord, DocRecord> {
  return map((record) => (record.type === "page" ? fn(record) : record));
}

/** A stage that drops some pages (and keeps every other record): those for which `keep` is false. */
export function filterPages(keep: (page: PageRecord) => boolean): OperatorFunction<DocRecord, DocRecord> {
  return filter((record) => record.type !== "page" || keep(record));
}

/**
 * A stage that needs the whole document (running headers compare pages; chunks span them):
 * collects the document's records, then emits what `fn` returns for them, in order.
 */
export function wholeDocument(fn: (records: DocRecord[]) => DocRecord[] | Promise<DocRecord[]>): OperatorFunction<DocRecord, DocRecord> {
  return (source) =>
    source.pipe(
      toArray(),
      mergeMap(async (records) => fn(records)),
      mergeMap((records) => records),
    );
}

/** The pages among a document's records, in order. */
export function pagesOf(records: readonly DocRecord[]): PageRecord[] {
  return records.filter((r): r is PageRecord => r.type === "page");
}
