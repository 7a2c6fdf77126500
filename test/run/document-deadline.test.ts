import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { WINDOW_PAGES } from "../../src/core/stage-operators.js";
import { DocumentDeadline } from "../../src/run/document-deadline.js";

describe("a document's deadline", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("is timeout_seconds for a document of up to one window", () => {
    const expire = vi.fn();
    const deadline = new DocumentDeadline(10, expire);
    deadline.pagesRead(WINDOW_PAGES - 1);
    vi.advanceTimersByTime(9_999);
    expect(expire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(expire).toHaveBeenCalledOnce();
  });

  it("grows by timeout_seconds for each full window read, counted from the start", () => {
    const expire = vi.fn();
    const deadline = new DocumentDeadline(10, expire);
    vi.advanceTimersByTime(6_000);
    deadline.pagesRead(WINDOW_PAGES);
    vi.advanceTimersByTime(8_000); // 14 s: past the first 10 s, within 20
    expect(expire).not.toHaveBeenCalled();
    deadline.pagesRead(WINDOW_PAGES + 1); // the same window: nothing more
    deadline.pagesRead(3 * WINDOW_PAGES); // four windows' worth: 40 s in all
    vi.advanceTimersByTime(25_999);
    expect(expire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(expire).toHaveBeenCalledOnce();
  });

  it("still stops a document that stalls after a window", () => {
    const expire = vi.fn();
    const deadline = new DocumentDeadline(10, expire);
    vi.advanceTimersByTime(5_000);
    deadline.pagesRead(WINDOW_PAGES + 10);
    vi.advanceTimersByTime(14_999); // no page more: stopped at 20 s, not 10 s after the last progress
    expect(expire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(expire).toHaveBeenCalledOnce();
    deadline.clear();
  });

  it("clear() stops it", () => {
    const expire = vi.fn();
    new DocumentDeadline(1, expire).clear();
    vi.advanceTimersByTime(5_000);
    expect(expire).not.toHaveBeenCalled();
  });
});
