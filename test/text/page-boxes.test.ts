import { describe, expect, it } from "vitest";
import { bottomUpToDisplay, displayBox, runsExtent, textFrameToDisplay } from "../../src/text/page-boxes.js";

// pdf.js's viewport transforms at scale 1 for a US Letter page (612 × 792 pt) with /Rotate 0 and 90.
const UPRIGHT = [1, 0, 0, -1, 0, 792];
const ROTATE_90 = [0, 1, 1, 0, 0, 0];

describe("page boxes", () => {
  it("maps an upright page's text frame onto the displayed page, y down from its top", () => {
    expect(displayBox(1, textFrameToDisplay(UPRIGHT, 0), [72, 700, 172, 712])).toEqual({ page: 1, x0: 72, y0: 80, x1: 172, y1: 92 });
  });

  it("maps text that runs up the page (read turned by 90°) onto the page as displayed", () => {
    // A word at user-space x 100, running up from y 200 to y 260, 10 pt tall to its left
    // (x 90–100): in the text frame turned by 90° it stands at x 200–260, y −100 to −90.
    const matrix = textFrameToDisplay(UPRIGHT, 90);
    expect(displayBox(1, matrix, [200, -100, 260, -90])).toEqual({ page: 1, x0: 90, y0: 532, x1: 100, y1: 592 });
  });

  it("maps a page displayed turned by /Rotate 90 whose text reads upright on the display", () => {
    // Its text runs up user space (read at 90°); displayed turned a quarter clockwise, it reads
    // left to right: the word at user x 90–100, y 200–260 lands at display x 200–260, y 90–100.
    const matrix = textFrameToDisplay(ROTATE_90, 90);
    expect(displayBox(1, matrix, [200, -100, 260, -90])).toEqual({ page: 1, x0: 200, y0: 90, x1: 260, y1: 100 });
  });

  it("maps OCR words given y up from the page's bottom edge", () => {
    expect(displayBox(2, bottomUpToDisplay(792), [10, 100, 50, 110])).toEqual({ page: 2, x0: 10, y0: 682, x1: 50, y1: 692 });
  });

  it("takes runs' extent from under their baseline to over it, by their size", () => {
    expect(runsExtent([])).toBeUndefined();
    expect(runsExtent([{ x: 10, y: 100, width: 30, fontSize: 10 }, { x: 45, y: 88, width: 5, fontSize: 10 }])).toEqual([10, 86, 50, 108]);
  });
});
