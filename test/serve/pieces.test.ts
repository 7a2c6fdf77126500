/** The server's small pure pieces: safe names for added files, who may ask, and the page's badges. */
import { describe, expect, it } from "vitest";
import { allowedHosts, isLoopback, presentedToken, tokenMatches } from "../../src/serve/access-control.js";
import type { PageJson } from "../../src/serve/api-types.js";
import { pageBadges } from "../../src/serve/page/badges.js";
import { safeFileName } from "../../src/serve/upload-saving.js";

describe("a dropped file's name in the source folder", () => {
  it.each([
    ["report.pdf", "report.pdf"],
    ["Quarterly Report (final).PDF", "Quarterly-Report-final.pdf"],
    ["../../etc/passwd", "passwd.pdf"],
    ["C:\\Users\\me\\scan 01.pdf", "scan-01.pdf"],
    [".hidden.pdf", "hidden.pdf"],
    ["café – notes.pdf", "cafe-notes.pdf"],
    ["<img src=x onerror=alert(1)>.pdf", "img-src-x-onerror-alert-1.pdf"],
    ["", "document.pdf"],
    ["....pdf", "document.pdf"],
    ["x".repeat(300) + ".pdf", "x".repeat(116) + ".pdf"],
  ])("%j → %j", (name, safe) => {
    expect(safeFileName(name)).toBe(safe);
  });
});

describe("who may ask", () => {
  it("knows loopback addresses", () => {
    expect(["127.0.0.1", "127.8.9.1", "::1", "[::1]", "localhost"].map(isLoopback)).toEqual([true, true, true, true, true]);
    expect(["0.0.0.0", "192.168.1.4", "::", "example.com"].map(isLoopback)).toEqual([false, false, false, false]);
  });

  it("answers to its own address by any loopback name, with its port", () => {
    expect([...allowedHosts("127.0.0.1", 8080)].sort()).toEqual(["127.0.0.1:8080", "[::1]:8080", "localhost:8080"]);
    expect(allowedHosts("::1", 9000).has("[::1]:9000")).toBe(true);
  });

  it("reads the token from a bearer header or the page's cookie, and compares it whole", () => {
    expect(presentedToken({ authorization: "Bearer abc" })).toBe("abc");
    expect(presentedToken({ cookie: "other=1; pagestream_token=a%20b; x=2" })).toBe("a b");
    expect(presentedToken({})).toBeUndefined();
    expect(tokenMatches("secret", "secret")).toBe(true);
    expect(["secre", "secret ", "SECRET", "", undefined].map((t) => tokenMatches("secret", t))).toEqual([false, false, false, false, false]);
  });
});

describe("a page's badges", () => {
  const page = (extra: Partial<PageJson>): PageJson => ({ number: 1, label: null, text: "Some text.", mode: "reflow", flags: [], furniture: null, facts: { orderSource: "geometry", orderReason: "untagged", columns: 1, untaggedGlyphs: 0 }, ocr: null, warnings: [], matches: [], ...extra });
  const kinds = (p: PageJson) => pageBadges(p).map((b) => [b.kind, b.text]);

  it("says how the order was found, and nothing more for a plain page", () => {
    expect(kinds(page({}))).toEqual([["order", "Order: geometry"]]);
    expect(pageBadges(page({ facts: { orderSource: "structure", orderReason: "tagged", columns: 1, untaggedGlyphs: 12 } })).map((b) => [b.kind, b.title])).toEqual([
      ["order", "Reading order from the PDF's tags (tagged)."],
      ["untagged", "Characters outside every tagged element of this tagged page: placed by position."],
    ]);
  });

  it("shows OCR with its confidence from the ocr column, as a warning when it is low", () => {
    const ocr = { engine: "tesseract", version: "5.3.0", languages: ["eng", "deu"], dpi: 300, meanConfidence: 91.6, lowConfidenceWords: 2 };
    const [badge] = pageBadges(page({ flags: ["ocr"], ocr, facts: null }));
    expect(badge).toEqual({
      kind: "ocr",
      text: "OCR 92%",
      tone: "notice",
      title: "The text was read from the page's image by OCR, mean confidence 92%.",
      details: ["Engine: tesseract 5.3.0", "Languages: eng, deu", "Rendered at 300 dpi", "Mean word confidence: 92%", "2 words read with low confidence"],
    });
    expect(pageBadges(page({ flags: ["ocr"], ocr: { meanConfidence: 54 }, facts: null }))[0]).toMatchObject({ text: "OCR 54%", tone: "warning" });
    expect(kinds(page({ flags: ["ocr"], facts: null }))).toEqual([["ocr", "OCR"]]);
  });

  it("lists scans, columns, garbling, hyphens, furniture and the page's warnings", () => {
    const p = page({
      text: "",
      flags: ["columns_uncertain", "garbled", "scan"],
      facts: { orderSource: "geometry", orderReason: "untagged", columns: "uncertain", untaggedGlyphs: 0, scanReason: "stray_text", strayText: "7", garbled: 0.31, continues: true, dehyphenated: [{ left: "well-", right: "known", result: "well-known", reason: "dictionary" }] },
      furniture: { header: ["Harbour Report"], footer: ["Page 7"], pageLabel: "7" },
      warnings: [{ code: "page_unreadable", message: "page 1 could not be read" }],
    });
    expect(kinds(p)).toEqual([
      ["empty", "No text"],
      ["scan", "Scan"],
      ["order", "Order: geometry"],
      ["columns", "Columns uncertain"],
      ["garbled", "Garbled 31%"],
      ["dehyphenated", "1 hyphen decided"],
      ["continues", "Continues on next page"],
      ["furniture", "2 lines of furniture removed"],
      ["warning", "page unreadable"],
    ]);
    const byKind = new Map(pageBadges(p).map((b) => [b.kind, b]));
    expect(byKind.get("scan")!.title).toBe("Flagged as a scan: almost no text (a stamp or a page number).");
    expect(byKind.get("dehyphenated")!.details).toEqual(["well- + known → well-known (the joined word is in the dictionary)"]);
    expect(byKind.get("furniture")!.details).toEqual(["Header: Harbour Report", "Footer: Page 7"]);
  });
});
