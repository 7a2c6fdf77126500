import { describe, expect, it } from "vitest";
import { nonSpaceChars } from "../../src/text/non-space-chars.js";

describe("characters that are not white space", () => {
  it("counts every code unit that is not white space as JavaScript's \\s knows it", () => {
    // Each of the 65,536 code units between two letters, counted as the regular expression counts them.
    for (let code = 0; code < 0x10000; code++) {
      const text = `a${String.fromCharCode(code)}b`;
      expect(nonSpaceChars(text), `U+${code.toString(16).padStart(4, "0")}`).toBe(text.replace(/\s/g, "").length);
    }
    // "Page3of12" and the emoji's two code units.
    expect(nonSpaceChars("Page 3 of\u00a012\u2028\ud83d\ude00")).toBe(11);
  });
});
