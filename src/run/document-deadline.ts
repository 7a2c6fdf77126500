/**
 * How long a document may take in its worker: `timeout_seconds` for every window of pages it has
 * read (WINDOW_PAGES, the 1,000 pages the stages take at a time), so a document of up to one
 * window gets `timeout_seconds` in all, as it always did, while a 20,000-page report that keeps
 * reading is not stopped for its length. A worker that stops making progress (a page that never
 * ends, a loop in the parser) is still stopped `timeout_seconds` after its last full window.
 */
import { WINDOW_PAGES } from "../core/stage-operators.js";

export class DocumentDeadline {
  private readonly started = Date.now();
  private granted = 1;
  private timer: NodeJS.Timeout;

  constructor(
    private readonly timeoutSeconds: number,
    private readonly expire: () => void,
  ) {
    this.timer = setTimeout(expire, timeoutSeconds * 1000);
  }

  /** The worker says it has read `pages` pages: each full window read adds `timeout_seconds`. */
  pagesRead(pages: number): void {
    const windows = 1 + Math.floor(pages / WINDOW_PAGES);
    if (windows <= this.granted) return;
    this.granted = windows;
    clearTimeout(this.timer);
    const left = this.started + windows * this.timeoutSeconds * 1000 - Date.now();
    this.timer = setTimeout(this.expire, Math.max(0, left));
  }

  /** Windows granted, the first counted: the deadline is `timeout_seconds` × this. */
  get windows(): number {
    return this.granted;
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}
