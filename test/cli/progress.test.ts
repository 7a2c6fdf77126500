/**
 * The progress display's pages: those of delivered documents plus those read so far of the ones
 * in flight, each page once. The run counts a result's pages in its summary before it tells the
 * display, with the sinks' commit in between: a line drawn then (the redraw timer) counted the
 * document's pages twice, as delivered and as still in flight.
 */
import type { Logger } from "pino";
import { describe, expect, it } from "vitest";
import { Progress } from "../../src/cli/progress.js";
import type { StatusLine } from "../../src/cli/status-line.js";
import { emptySummary } from "../../src/run/delivery.js";

function display() {
  const summary = emptySummary();
  const shown: string[] = [];
  const status = { live: true, show: (line: string) => shown.push(line), clear: () => {}, write: () => {} } as unknown as StatusLine;
  const logger = { info: () => {} } as unknown as Logger;
  const progress = new Progress(() => summary, status, logger, 10);
  const pages = () => /(\d+) pages/.exec(shown.at(-1)!)![1];
  const draw = () => {
    progress.draw();
    return pages();
  };
  return { summary, progress, draw };
}

describe("progress display", () => {
  it("counts a document's pages once while its result is being committed", () => {
    const { summary, progress, draw } = display();
    progress.pagesRead("/in/a.pdf", 12);
    progress.pagesRead("/in/b.pdf", 5);
    expect(draw()).toBe("17");
    // a's result is counted by the run (the summary), the sinks commit, and only then is the display told.
    summary.documents = 1;
    summary.pages = 20;
    expect(draw()).toBe("17");
    progress.done(1000, true, "/in/a.pdf");
    expect(draw()).toBe("25");
    summary.documents = 2;
    summary.pages = 27;
    progress.done(1000, true, "/in/b.pdf");
    expect(draw()).toBe("27");
  });
});
