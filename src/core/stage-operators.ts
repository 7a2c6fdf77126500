/**
 * The shapes a stage over pages takes, as RxJS operators on one document's records.
 * Records a stage does not handle (chunks, for a cleaning stage) pass through untouched.
 */
import { concatMap, filter, map, mergeMap, Observable, toArray, type OperatorFunction } from "rxjs";
import type { DocumentContext, DocumentLimits } from "./plugin.js";
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
 * A stage that needs the whole document at once: collects the document's records, then emits
 * what `fn` returns for them, in order. It holds the whole document, so its worker's memory
 * grows with the document's length: a stage meant for long documents uses `pageWindows`.
 */
export function wholeDocument(fn: (records: DocRecord[]) => DocRecord[] | Promise<DocRecord[]>): OperatorFunction<DocRecord, DocRecord> {
  return (source) =>
    source.pipe(
      toArray(),
      mergeMap(async (records) => fn(records)),
      mergeMap((records) => records),
    );
}

/**
 * Pages a stage over page windows holds at once, when the run does not say (DocumentLimits.windowPages).
 * Every document of the corpus the stages are tuned on has at most ~200 pages: up to this length a
 * document is one window, decided exactly as a whole; a page record weighs ~45 KB before the
 * sinks' trimming, so a window is tens of MiB, whatever the document's length.
 */
export const WINDOW_PAGES = 1000;

/** The pages a window stage holds at once under these limits (a context built by hand may have none). */
export function windowPagesOf(limits: DocumentLimits | undefined): number {
  return Math.max(1, limits?.windowPages ?? WINDOW_PAGES);
}

/** What a stage over page windows is given for one window of a document. */
export interface PageWindow<S> {
  /** The window's records in document order: up to the window's size of pages, and the records between them. */
  records: DocRecord[];
  /** Records the window before held back (`WindowResult.carry`), to go out in front of this window's. */
  carried: DocRecord[];
  /** What the window before returned as `state`; undefined in the first window. */
  state: S | undefined;
  /** The document's first window. */
  first: boolean;
  /** The document's last window: nothing comes after it (a document of one window is first and last). */
  last: boolean;
}

/** What a window stage gives back for one window. */
export interface WindowResult<S> {
  /** Records to emit now, in order. */
  records: DocRecord[];
  /** Records (at the window's end) to hold back and hand to the next window as `carried`; ignored in the last. */
  carry?: DocRecord[];
  /** Anything the next window needs to know (a running count, an open chunk); kept for this document only. */
  state?: S;
}

/**
 * A stage that needs more than one page at a time but not the whole document (running headers
 * compare neighbouring pages; a word broken over a page break joins two; chunks span pages):
 * `fn` is given the document a window of `size` pages at a time, with what the window before
 * carried, and emits as it goes, so the stage holds at most a window however long the document.
 * A document of at most `size` pages is one window (`first` and `last`): the same call
 * `wholeDocument` makes. State lives in the call and is dropped with the document.
 */
export function pageWindows<S>(
  /**
   * The document's context (windows of its limits' `windowPages`; with `lastPage` set, as the
   * extract stage sets it, a full window goes on at once), or a window size of its own.
   */
  window: Pick<DocumentContext, "limits" | "lastPage"> | number,
  fn: (window: PageWindow<S>) => WindowResult<S> | Promise<WindowResult<S>>,
): OperatorFunction<DocRecord, DocRecord> {
  const size = typeof window === "number" ? Math.max(1, window) : windowPagesOf(window.limits);
  const lastPage = () => (typeof window === "number" ? undefined : window.lastPage);
  return (source) =>
    new Observable<DocRecord>((subscriber) => {
      let carried: DocRecord[] = [];
      let state: S | undefined;
      let first = true;
      const step = async ({ records, last }: { records: DocRecord[]; last: boolean }): Promise<DocRecord[]> => {
        const result = await fn({ records, carried, state, first, last });
        first = false;
        carried = last ? [] : (result.carry ?? []);
        state = result.state;
        return result.records;
      };
      return source
        .pipe(
          windowsOf(size, lastPage),
          concatMap(step),
          mergeMap((records) => records),
        )
        .subscribe(subscriber);
    });
}

/**
 * A document's records cut into windows of `size` pages. A window goes out once the page after
 * it arrives, so the one that ends the document is always flagged `last`, even when it is full;
 * but a full window whose last page comes before the document's `lastPage` goes at once, since
 * more pages are to come (each stage of a chain waiting for the next page held one more window).
 */
function windowsOf(size: number, lastPage: () => number | undefined): OperatorFunction<DocRecord, { records: DocRecord[]; last: boolean }> {
  return (source) =>
    new Observable((subscriber) => {
      let records: DocRecord[] = [];
      let pages = 0;
      const handOn = () => {
        subscriber.next({ records, last: false });
        records = [];
        pages = 0;
      };
      return source.subscribe({
        next(record) {
          if (record.type !== "page") return void records.push(record);
          if (pages === size) handOn();
          records.push(record);
          const last = lastPage();
          if (++pages === size && last !== undefined && record.number < last) handOn();
        },
        error: (err: unknown) => subscriber.error(err),
        complete() {
          subscriber.next({ records, last: true });
          subscriber.complete();
        },
      });
    });
}

/** The pages among a document's records, in order. */
export function pagesOf(records: readonly DocRecord[]): PageRecord[] {
  return records.filter((r): r is PageRecord => r.type === "page");
}
