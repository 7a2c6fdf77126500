/**
 * The server's small pure pieces: safe names for added files, who may ask, the page's badges,
 * hits grouped by document, a hit's words found on the drawn page, download names, example queries.
 */
import { describe, expect, it } from "vitest";
import { allowedHosts, generatedToken, isLoopback, MalformedCookie, presentedToken, tokenMatches, tokenRule } from "../../src/serve/access-control.js";
import type { PageJson } from "../../src/serve/api-types.js";
import { exampleQueries } from "../../src/serve/example-queries.js";
import { documentGroup, documentsInRankOrder, snippetAt, withoutRepeats } from "../../src/serve/hit-grouping.js";
import { pageBadges } from "../../src/serve/page/badges.js";
import { boxRect, findPhrases, placeRun } from "../../src/serve/page/page-marks.js";
import { attachment } from "../../src/serve/routes/document-routes.js";
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

  it("reads the token from a bearer header or the page's cookie for its port, and compares it whole", () => {
    const cookie = "pagestream_token_8080";
    expect(presentedToken({ authorization: "Bearer abc" }, cookie)).toBe("abc");
    expect(presentedToken({ cookie: "other=1; pagestream_token_8080=a%20b; x=2" }, cookie)).toBe("a b");
    expect(presentedToken({ cookie: "pagestream_token_8081=other-server" }, cookie)).toBeUndefined();
    expect(presentedToken({}, cookie)).toBeUndefined();
    expect(tokenMatches("secret", "secret")).toBe(true);
    expect(["secre", "secret ", "SECRET", "", undefined].map((t) => tokenMatches("secret", t))).toEqual([false, false, false, false, false]);
  });

  it("calls a token cookie that is not percent-encoding malformed, naming it, and ignores other cookies' encoding", () => {
    expect(() => presentedToken({ cookie: "pagestream_token_8080=%E0%A4%A" }, "pagestream_token_8080")).toThrow(MalformedCookie);
    expect(() => presentedToken({ cookie: "pagestream_token_8080=%" }, "pagestream_token_8080")).toThrow(/pagestream_token_8080 cookie/);
    expect(presentedToken({ cookie: "tracker=%E0%A4%A; pagestream_token_8080=ok" }, "pagestream_token_8080")).toBe("ok");
  });

  it.each([
    ["127.0.0.1", false, "adding"],
    ["::1", false, "adding"],
    ["localhost", false, "adding"],
    ["127.0.0.1", true, "every_request"],
    ["0.0.0.0", false, "every_request"],
    ["192.168.1.4", false, "every_request"],
    ["::", true, "every_request"],
  ] as const)("on %s with a token given: %s, the token guards %s", (host, given, rule) => {
    expect(tokenRule(host, given)).toBe(rule);
  });

  it("makes a fresh 32-character URL-safe token each time", () => {
    const [a, b] = [generatedToken(), generatedToken()];
    expect(a).toMatch(/^[\w-]{32}$/);
    expect(a).not.toBe(b);
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

describe("hits grouped by document, each passage once", () => {
  // A document whose chunks overlap: c1 holds matches a, b (b in the overlap), c2 holds b, c; c3 holds c only (in c2's overlap).
  const a = { start: 10, end: 15, page: 1 };
  const b = { start: 95, end: 100, page: 1 };
  const c = { start: 150, end: 155, page: 2 };
  const d = { start: 400, end: 405, page: 4 };
  const spans: Record<string, { charStart: number; charEnd: number }> = { c1: { charStart: 0, charEnd: 110 }, c2: { charStart: 90, charEnd: 200 }, c3: { charStart: 140, charEnd: 260 }, c4: { charStart: 380, charEnd: 500 } };
  const hit = (chunkId: string, page: number) => ({ documentId: "doc", chunkId, matchPages: [page, page] as [number, number] });
  const spanOf = (id: string) => spans[id];

  it("puts each document once where its best hit ranks", () => {
    const ranked = [hit("c2", 1), { ...hit("x1", 1), documentId: "other" }, hit("c1", 1), { ...hit("y", 1), documentId: null }];
    expect(documentsInRankOrder(ranked).map((g) => [g.documentId, g.hits.map((h) => h.chunkId)])).toEqual([["doc", ["c2", "c1"]], ["other", ["x1"]]]);
  });

  it("leaves out a hit whose every match a better hit shows (the passage in their overlap), and counts the rest by page", () => {
    const group = documentGroup([hit("c2", 1), hit("c3", 2), hit("c1", 1), hit("c4", 4)], spanOf, [a, b, c, d], 2);
    // c3 holds only c, which c2 shows: skipped; c1 brings a, and shares b with c2: cut around a.
    expect(group.hits.map((h) => [h.hit.chunkId, h.recentre])).toEqual([["c2", undefined], ["c1", a]]);
    expect(group.more).toEqual({ matches: 1, pages: [4] });
  });

  it("within one document, keeps every hit that brings a match of its own", () => {
    expect(withoutRepeats([hit("c1", 1), hit("c2", 1), hit("c3", 2), hit("c4", 4)], spanOf, [a, b, c, d]).map((h) => [h.hit.chunkId, h.recentre?.start])).toEqual([
      ["c1", undefined],
      ["c2", 150],
      ["c4", undefined],
    ]);
    // Without offsets (an archive before schema 6) nothing can be told apart: all are kept.
    expect(withoutRepeats([hit("c1", 1), hit("c2", 1)], spanOf, undefined)).toHaveLength(2);
  });

  it("cuts a snippet around a match of the page's text, marking the matches in it", () => {
    const text = "First sentence about the pier.\nThe curlew fed on the flats.  Then the curlew flew off over the wall and the sea.";
    const at = text.indexOf("curlew");
    const matches: [number, number][] = [
      [at, at + 6],
      [text.lastIndexOf("curlew"), text.lastIndexOf("curlew") + 6],
    ];
    const { snippet, highlights } = snippetAt(text, matches, at, 60);
    expect(snippet).toBe("…the pier. The curlew fed on the flats. Then the curlew…");
    expect(highlights.map(([s, e]) => snippet.slice(s, e))).toEqual(["curlew", "curlew"]);
  });
});

describe("a hit's words on the drawn page", () => {
  // Two lines of 10 pt text on a 600 x 800 pt page, placed as pdf.js places them at scale 1 (y down).
  const line = (text: string, x: number, y: number, width: number) => placeRun(text, [10, 0, 0, -10, x, y], width);
  const runs = [line("Either party may end this Agreement by giving three months' written", 72, 100, 320), line("notice. 10.2 Either party may end it by written notice", 72, 114, 260), line("written notice elsewhere", 72, 400, 120)];

  it("finds a phrase across two runs, inside the hit's box only, as fractions of the page", () => {
    const rects = findPhrases(runs, ["Written  Notice"], [{ x0: 70, y0: 85, x1: 540, y1: 120 }], 600, 800);
    expect(rects).toHaveLength(3);
    for (const r of rects) {
      expect(r.top * 800).toBeGreaterThan(85);
      expect((r.top + r.height) * 800).toBeLessThan(120);
    }
    // "written" ends the first line: its mark ends where the run does.
    expect((rects[0]!.left + rects[0]!.width) * 600).toBeCloseTo(392, 0);
  });

  it("places a rotated run's mark along its own baseline", () => {
    // Text running up the page (a page turned by 90°): the baseline goes along -y.
    const up = placeRun("harbour", [0, -10, -10, 0, 300, 500], 70);
    const [r] = findPhrases([up], ["harbour"], [], 600, 800);
    expect(r!.height * 800).toBeCloseTo(70, 0);
    expect(r!.width * 600).toBeCloseTo(12.5, 0);
  });

  it("marks a chunk's box as fractions of the page", () => {
    expect(boxRect({ x0: 60, y0: 80, x1: 300, y1: 400 }, 600, 800)).toEqual({ left: 0.1, top: 0.1, width: 0.4, height: 0.4 });
  });
});

describe("the original's file name in a download", () => {
  it.each([
    ["report.pdf", `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`],
    ["Häfen & Kais (2026).pdf", `attachment; filename="Hafen & Kais (2026).pdf"; filename*=UTF-8''H%C3%A4fen%20%26%20Kais%20%282026%29.pdf`],
    ['a"b\\c;%.pdf', `attachment; filename="a_bc__.pdf"; filename*=UTF-8''a%22bc%3B%25.pdf`],
    ["evil\r\nSet-Cookie: x=1.pdf", `attachment; filename="evilSet-Cookie: x=1.pdf"; filename*=UTF-8''evilSet-Cookie%3A%20x%3D1.pdf`],
    ["", `attachment; filename="document.pdf"; filename*=UTF-8''document.pdf`],
  ])("%j", (name, header) => {
    expect(attachment(name)).toBe(header);
  });
});

describe("example queries from the archive's words", () => {
  it("makes a phrase from the titles, an OR, a prefix and a NOT from words in several documents but not in most chunks", () => {
    const material = [
      { title: "Harbour Authority Report", text: "The dredging of the channel and the pontoon repairs." },
      { title: "Harbour Authority Minutes", text: "Pontoon repairs were discussed; the dredging contract too." },
      { title: "Service Agreement", text: "The contractor repairs the pontoon and the gangway." },
      { title: "Keeper's note", text: "The lighthouse lamp was lit and the channel buoys checked." },
    ];
    const held: Record<string, number> = { pontoon: 3, repairs: 3, dredging: 2, channel: 2, harbour: 2, authority: 2, contractor: 1 };
    // "pontoon" and "repairs" are in three of the four: too common to show anything.
    expect(exampleQueries(material, (w) => held[w] ?? 0, 10)).toEqual(['"harbour authority"', "channel OR dredging", "channel*", "channel NOT dredging"]);
    // A prefix is the stem two good words share; a title word shorter than 4 letters makes no phrase.
    const more = [...material, { title: "Old img notes", text: "The channels were dredged." }, { title: "Old img list", text: "Channels and buoys." }];
    const queries = exampleQueries(more, (w) => held[w] ?? 1, 10);
    expect(queries).toContain("channel*");
    expect(queries.some((q) => q.includes("img"))).toBe(false);
  });
});
