/**
 * What a person sees while a run works: on a terminal, one line redrawn a few times a second
 * (documents and pages done of the total, pages/s, ETA, failures so far); elsewhere a log line
 * every N documents. The totals come from the source's count, when it has one; pages cannot be
 * known before the PDFs are opened, so their total is estimated from the bytes done (≈).
 */
import type { Logger } from "pino";
import type { RunSummary } from "../core/plugin.js";
import type { StatusLine } from "./status-line.js";

/** Shortest time between two redraws of the terminal line. */
const REDRAW_MS = 200;
/** Off a terminal, the longest the run stays silent while pages are being read. */
const QUIET_LOG_MS = 30_000;

export class Progress {
  private readonly started = Date.now();
  private total?: { items: number; bytes: number };
  /** Bytes of the documents the run got to (processed or skipped), for the ETA. */
  private bytesDone = 0;
  private processedBytes = 0;
  private processingStarted?: number;
  private lastDraw = 0;
  private lastLine = 0;
  private lastLineAt = Date.now();
  /** Pages read so far of the documents in flight, by uri: shown before their results arrive. */
  private readonly reading = new Map<string, number>();
  /**
   * The summary's pages when the last result was counted here. The run counts a result's pages
   * in the summary before it tells this display, which then still holds them as in flight: a
   * line drawn in between (the redraw timer, while the sinks commit) showed them twice.
   */
  private pagesDone = 0;

  constructor(
    private readonly summary: () => RunSummary,
    private readonly status: StatusLine,
    private readonly logger: Logger,
    private readonly every: number,
  ) {}

  setTotal(total: { items: number; bytes: number }): void {
    this.total = total;
  }

  /** A document in flight has had `pages` read (a long one reports as it goes). */
  pagesRead(uri: string, pages: number): void {
    this.reading.set(uri, pages);
    if (this.status.live) {
      if (Date.now() - this.lastDraw >= REDRAW_MS) this.draw();
    } else if (Date.now() - this.lastLineAt >= QUIET_LOG_MS) {
      // No document finished for a while (one very long document): say where the run is anyway.
      this.log();
    }
  }

  /** A listed document is done (processed, failed or skipped). */
  done(bytes: number, processed: boolean, uri?: string): void {
    if (uri) this.reading.delete(uri);
    this.pagesDone = this.summary().pages;
    this.bytesDone += bytes;
    if (processed) {
      this.processingStarted ??= Date.now();
      this.processedBytes += bytes;
    }
    const s = this.summary();
    const count = s.documents + s.skipped;
    if (!this.status.live) {
      if (count - this.lastLine >= this.every) {
        this.lastLine = count;
        this.log();
      }
      return;
    }
    if (Date.now() - this.lastDraw >= REDRAW_MS) this.draw();
  }

  private log(): void {
    this.lastLineAt = Date.now();
    this.logger.info({ progress: this.figures() }, this.line());
  }

  draw(): void {
    this.lastDraw = Date.now();
    this.status.show(this.line());
  }

  stop(): void {
    this.status.clear();
  }

  private figures() {
    const s = this.summary();
    const seconds = (Date.now() - this.started) / 1000;
    const done = s.documents + s.skipped;
    let inFlight = 0;
    for (const pages of this.reading.values()) inFlight += pages;
    const pagesSeen = this.pagesDone + inFlight;
    const pagesPerSecond = seconds > 0 ? pagesSeen / seconds : 0;
    // Pages per byte so far, times all the bytes: an estimate until every PDF is open.
    const pagesTotal = this.total && this.processedBytes > 0 ? Math.round((this.pagesDone / this.processedBytes) * (this.total.bytes - this.bytesDone + this.processedBytes)) : undefined;
    let etaSeconds: number | undefined;
    if (this.total && this.processingStarted && this.processedBytes > 0) {
      const rate = this.processedBytes / ((Date.now() - this.processingStarted) / 1000);
      etaSeconds = Math.max(0, (this.total.bytes - this.bytesDone) / rate);
    }
    return { documents: done, documents_total: this.total?.items, pages: pagesSeen, pages_estimated_total: pagesTotal, pages_per_second: Math.round(pagesPerSecond * 10) / 10, eta_seconds: etaSeconds === undefined ? undefined : Math.round(etaSeconds), failed: s.failed, skipped: s.skipped };
  }

  line(): string {
    const f = this.figures();
    const n = (v: number) => v.toLocaleString("en-US");
    const parts = [
      `${n(f.documents)}${f.documents_total === undefined ? "" : `/${n(f.documents_total)}`} documents`,
      `${n(f.pages)}${f.pages_estimated_total === undefined ? "" : ` of ≈${n(Math.max(f.pages, f.pages_estimated_total))}`} pages`,
      `${f.pages_per_second.toFixed(1)} pages/s`,
      ...(f.eta_seconds === undefined ? [] : [`ETA ${duration(f.eta_seconds)}`]),
      `${n(f.failed)} failed`,
      ...(f.skipped ? [`${n(f.skipped)} skipped unchanged`] : []),
    ];
    return parts.join(" · ");
  }
}

export function duration(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${String(Math.round(seconds % 60)).padStart(2, "0")}s`;
  return `${Math.floor(seconds / 3600)}h${String(Math.floor((seconds % 3600) / 60)).padStart(2, "0")}m`;
}
