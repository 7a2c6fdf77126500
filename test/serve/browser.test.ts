/**
 * The page in a real browser: headless Chromium (Debian's, through playwright-core) against
 * `pagestream serve` on the archive of the samples plus a PDF whose text is hostile markup.
 * Search by keyboard, marked snippets, a document with its text and its pages drawn by pdf.js,
 * landing on a hit (its words marked on the drawn page and scrolled into view), zoom, page
 * navigation and the original's download, a JPEG 2000 page drawn, the start page's documents
 * and examples, a dropped PDF, hostile text shown literally with nothing run, no request
 * leaving the server and no breach of the page's security policy. Screenshots of every view, desktop and phone,
 * go to $PAGESTREAM_SCREENSHOTS (default: a folder in the system's temp folder).
 */
import { mkdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, type Browser } from "./browser.js";
import { archiveFolder, HOSTILE_LINES, serve, textPdf, type Served } from "./serve-fixture.js";

const SCREENSHOTS = process.env.PAGESTREAM_SCREENSHOTS ?? join(tmpdir(), "pagestream-serve-screenshots");
const VIEWPORTS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } } as const;

let dir: string;
let server: Served;
let browser: Browser;
let origin: string;

/** Everything a page did that it must not: requests elsewhere, policy breaches, script errors. */
interface Watch {
  offsite: string[];
  violations: string[];
  errors: string[];
}

async function openPage(viewport: keyof typeof VIEWPORTS = "desktop"): Promise<{ page: Page; watch: Watch }> {
  const page = await browser.context.newPage();
  await page.setViewportSize(VIEWPORTS[viewport]);
  const watch: Watch = { offsite: [], violations: [], errors: [] };
  page.on("request", (r) => {
    if (!r.url().startsWith(origin + "/")) watch.offsite.push(r.url());
  });
  page.on("pageerror", (e) => watch.errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy|Refused to/i.test(m.text())) watch.violations.push(m.text());
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => ((window as unknown as { __violations: string[] }).__violations ??= []).push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return { page, watch };
}

async function clean(page: Page, watch: Watch): Promise<void> {
  const violations = await page.evaluate(() => (window as unknown as { __violations?: string[] }).__violations ?? []);
  expect({ offsite: watch.offsite, violations: [...watch.violations, ...violations], errors: watch.errors }).toEqual({ offsite: [], violations: [], errors: [] });
}

async function ready(page: Page): Promise<void> {
  await page.waitForSelector("body[data-ready]");
}

async function shoot(page: Page, name: string, viewport: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-${viewport}.png`) });
}

/**
 * Dark pixels on a canvas: a page pdf.js drew has text on it, a blank one has none. `region`:
 * only in this part of it, in fractions of its width and height.
 */
function inkOf(page: Page, selector: string, region = { left: 0, top: 0, width: 1, height: 1 }): Promise<number> {
  return page.$eval(selector, (canvas, r) => {
    const c = canvas as HTMLCanvasElement;
    const [x, y] = [Math.floor(r.left * c.width), Math.floor(r.top * c.height)];
    const data = c.getContext("2d")!.getImageData(x, y, Math.max(1, Math.ceil(r.width * c.width)), Math.max(1, Math.ceil(r.height * c.height))).data;
    let ink = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i]! < 128 && data[i + 1]! < 128 && data[i + 2]! < 128) ink++;
    return ink;
  }, region);
}

/** Where elements are on the screen and in their page's sheet (fractions of the drawn page). */
function placesOf(page: Page, selector: string): Promise<{ screen: { top: number; bottom: number; left: number; right: number }; onPage: { left: number; top: number; width: number; height: number } }[]> {
  return page.$$eval(selector, (els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      const sheet = el.closest(".page-sheet")!.getBoundingClientRect();
      return {
        screen: { top: r.top, bottom: r.bottom, left: r.left, right: r.right },
        onPage: { left: (r.left - sheet.left) / sheet.width, top: (r.top - sheet.top) / sheet.height, width: r.width / sheet.width, height: r.height / sheet.height },
      };
    }),
  );
}

beforeAll(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
  dir = await archiveFolder({
    "hostile.pdf": await textPdf("<b>Hostile</b> title <img src=x onerror=alert(1)>", HOSTILE_LINES),
    // A page with a JPEG 2000 image (fixtures/generators/jpx.mjs).
    "jpx-image-beside-text.pdf": await readFile("fixtures/jpx-image-beside-text.pdf"),
  });
  server = await serve(dir);
  origin = new URL(server.url).origin;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("the page in Chromium", () => {
  it("searches a phrase typed from the keyboard, and marks it in the snippets", async () => {
    const { page, watch } = await openPage();
    await page.goto(server.url);
    await ready(page);
    // The search box has the focus when there is no query yet.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("q");
    expect(await page.getAttribute("#q", "type")).toBe("search");
    expect(await page.$eval("label[for=q]", (l) => l.textContent)).toBe("Search the archive");
    await page.keyboard.type('"written notice"');
    await page.keyboard.press("Enter");
    await page.waitForSelector(".hit");
    expect(new URL(page.url()).searchParams.get("q")).toBe('"written notice"');
    const marks = await page.$$eval(".hit .snippet mark", (ms) => ms.map((m) => m.textContent!.toLowerCase()));
    expect(marks).toContain("written notice");
    expect(await page.textContent(".status")).toMatch(/matching “"written notice"”/);
    await shoot(page, "search", "desktop");
    // Tab from the form reaches the first hit; Enter opens it.
    await page.focus("#q");
    let focused = "";
    for (let i = 0; i < 12 && !focused.startsWith("/documents/"); i++) {
      await page.keyboard.press("Tab");
      focused = await page.evaluate(() => document.activeElement?.getAttribute("href") ?? "");
    }
    expect(focused).toMatch(/^\/documents\/[0-9a-f]{64}\?q=/);
    await page.keyboard.press("Enter");
    await page.waitForSelector(".page-text");
    await clean(page, watch);
    await page.close();
  });

  it("shows a malformed query's sentence, not a failure", async () => {
    const { page, watch } = await openPage();
    await page.goto(`${server.url}&q=${encodeURIComponent("harbour OR")}`);
    await ready(page);
    const alert = await page.waitForSelector("[role=alert]");
    expect(await alert.getAttribute("data-code")).toBe("dangling_operator");
    expect(await alert.textContent()).toContain('This query cannot be searched: OR needs a word, a "phrase" or a (group) on each side');
    await clean(page, watch);
    await page.close();
  });

  it("opens a result: the page's text with the match marked, its badges, and the page drawn by pdf.js", async () => {
    for (const viewport of ["desktop", "phone"] as const) {
      const { page, watch } = await openPage(viewport);
      await page.goto(`${server.url}&q=${encodeURIComponent('"written notice"')}`);
      await ready(page);
      if (viewport === "phone") await shoot(page, "search", viewport);
      await page.click(".hit a");
      await ready(page);
      expect(new URL(page.url()).hash).toBe("#page-2");
      const marked = await page.$$eval("#page-2 .page-text mark", (ms) => ms.map((m) => m.textContent));
      expect(marked).toEqual(["written notice", "written notice"]);
      expect(await page.textContent("#page-2 .page-text")).toContain("Either party may end this Agreement");
      const badges = await page.$$eval("#page-2 [data-badge]", (bs) => bs.map((b) => b.getAttribute("data-badge")));
      expect(badges).toEqual(expect.arrayContaining(["order", "furniture"]));
      // The badge opens by keyboard and lists what was taken off the page.
      await page.focus("#page-2 [data-badge=furniture] summary");
      await page.keyboard.press("Enter");
      expect(await page.textContent("#page-2 [data-badge=furniture] .badge-details")).toMatch(/Footer: /);
      if (viewport === "phone") {
        // On a phone the original is folded under the text until asked for.
        expect(await page.$eval("#page-2 details.page-original", (d) => (d as HTMLDetailsElement).open)).toBe(false);
        await page.focus("#page-2 details.page-original summary");
        await page.keyboard.press("Enter");
      }
      await page.waitForSelector("#page-2 canvas[data-rendered=true]", { timeout: 20_000 });
      expect(await inkOf(page, "#page-2 canvas")).toBeGreaterThan(500);
      await page.waitForTimeout(300);
      await shoot(page, "document", viewport);
      await clean(page, watch);
      await page.close();
    }
  });

  it("lands on a hit: its words marked on the drawn page, inside the screen and over ink, its chunk's box around them, its words marked in the text", async () => {
    const { page, watch } = await openPage();
    await page.goto(`${server.url}&q=${encodeURIComponent('"written notice"')}`);
    await ready(page);
    await page.click(".hit a");
    await ready(page);
    expect(new URL(page.url()).searchParams.get("chunk")).toMatch(/^[0-9a-f-]{36}$/);
    await page.waitForSelector("[data-landed] canvas[data-rendered=true]", { timeout: 20_000 });
    const words = await placesOf(page, ".page-sheet[data-landed] .mark-word");
    // 10.1 "… three months' written notice" (over a line break: two pieces) and 10.2 "… by written notice".
    expect(words.length).toBe(3);
    const viewport = page.viewportSize()!;
    const first = words[0]!.screen;
    expect(first.top).toBeGreaterThanOrEqual(0);
    expect(first.bottom).toBeLessThanOrEqual(viewport.height);
    expect(first.left).toBeGreaterThanOrEqual(0);
    expect(first.right).toBeLessThanOrEqual(viewport.width);
    // Over the words: the canvas under each word mark has ink, and each lies inside the chunk's box.
    const [box] = await placesOf(page, ".page-sheet[data-landed] .mark-box");
    for (const word of words) {
      expect(await inkOf(page, ".page-sheet[data-landed] canvas", word.onPage)).toBeGreaterThan(20);
      expect(word.onPage.top).toBeGreaterThanOrEqual(box!.onPage.top - 0.01);
      expect(word.onPage.top + word.onPage.height).toBeLessThanOrEqual(box!.onPage.top + box!.onPage.height + 0.01);
    }
    expect(await page.$$eval("#page-2 .page-text mark.current", (ms) => ms.map((m) => m.textContent))).toEqual(["written notice", "written notice"]);
    // The hit's words in the text are on the screen too, beside the drawn page.
    const inText = await page.$eval("#page-2 .page-text mark.current", (m) => m.getBoundingClientRect().toJSON() as DOMRect);
    expect(inText.top).toBeGreaterThanOrEqual(0);
    expect(inText.bottom).toBeLessThanOrEqual(viewport.height);
    await page.waitForTimeout(300);
    await shoot(page, "hit-landed", "desktop");
    await clean(page, watch);
    await page.close();
  });

  it("zooms the drawn pages (buttons and keys) and moves between pages (buttons, number box, #page-N)", async () => {
    const { page, watch } = await openPage();
    await page.goto(`${server.url}&q=harbour`);
    await ready(page);
    await page.click('.hit[data-document] a:text("Service Agreement")');
    await ready(page);
    await page.waitForSelector("#page-1 canvas[data-rendered=true]", { timeout: 20_000 });
    const widthOf = () => page.$eval("#page-1 .page-sheet", (s) => s.getBoundingClientRect().width);
    const fitted = await widthOf();
    await page.click("#zoom-in");
    await page.click("#zoom-in");
    expect(await page.textContent("#zoom-level")).toBe("150%");
    await page.waitForFunction((w) => (document.querySelector("#page-1 .page-sheet") as HTMLElement).getBoundingClientRect().width > w * 1.2, fitted);
    // Drawn again at the new size, past the old ~530 px.
    await page.waitForFunction(() => (document.querySelector("#page-1 canvas") as HTMLCanvasElement).width > 800, null, { timeout: 20_000 });
    await page.keyboard.press("0");
    expect(await page.textContent("#zoom-level")).toBe("100%");
    await page.keyboard.press("+");
    expect(await page.textContent("#zoom-level")).toBe("125%");
    await page.keyboard.press("-");
    expect(await page.textContent("#zoom-level")).toBe("100%");
    await page.click("#next-page");
    expect(new URL(page.url()).hash).toBe("#page-2");
    await page.keyboard.press("n");
    expect(new URL(page.url()).hash).toBe("#page-3");
    expect(await page.isDisabled("#next-page")).toBe(true);
    await page.fill("#page-number", "1");
    await page.press("#page-number", "Enter");
    expect(new URL(page.url()).hash).toBe("#page-1");
    await page.goto(`${page.url().split("#")[0]}#page-2`);
    await ready(page);
    await page.waitForFunction(() => (document.getElementById("page-number") as HTMLInputElement).value === "2");
    await clean(page, watch);
    await page.close();
  });

  it("downloads the original under its own file name, as an attachment the browser does not show", async () => {
    const { page, watch } = await openPage();
    await page.goto(`${server.url}&q=${encodeURIComponent('"written notice"')}`);
    await ready(page);
    await page.click(".hit a");
    await ready(page);
    const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download-original")]);
    expect(download.suggestedFilename()).toBe("service-agreement.pdf");
    const saved = await download.path();
    expect((await readFile(saved)).equals(await readFile(join(dir, "fixtures/samples/service-agreement.pdf")))).toBe(true);
    expect(page.url()).toContain("/documents/");
    await clean(page, watch);
    await page.close();
  });

  it("draws a page holding a JPEG 2000 image with pdf.js's JS decoder, a spinner until it is drawn", async () => {
    const { page, watch } = await openPage();
    await page.goto(`${server.url}&q=${encodeURIComponent('"tide gauge"')}`);
    await ready(page);
    await page.click(".hit a");
    await ready(page);
    const state = await page.waitForSelector("#page-1 .page-sheet[data-state]");
    expect(["drawing", "drawn"]).toContain(await state.getAttribute("data-state"));
    await page.waitForSelector("#page-1 canvas[data-rendered=true]", { timeout: 30_000 });
    expect(await page.isHidden("#page-1 .page-state")).toBe(true);
    // The image's black block and bar, under the paragraph: ink where a blank image would leave none.
    expect(await inkOf(page, "#page-1 canvas", { left: 0.1, top: 0.25, width: 0.6, height: 0.3 })).toBeGreaterThan(3000);
    await shoot(page, "jpx-page", "desktop");
    await clean(page, watch);
    await page.close();
  });

  it("starts with the archive's documents, newest first, and example queries made from its own words", async () => {
    const { page, watch } = await openPage();
    await page.goto(server.url);
    await ready(page);
    await page.waitForSelector(".listed-document");
    const titles = await page.$$eval(".listed-document > a", (as) => as.map((a) => a.textContent));
    expect(titles).toEqual(expect.arrayContaining(["Service Agreement", "Tide gauge photograph"]));
    await page.waitForSelector(".examples a");
    const examples = await page.$$eval(".examples a", (as) => as.map((a) => a.textContent!));
    expect(examples.length).toBeGreaterThanOrEqual(3);
    expect(examples).not.toContain('"written notice"');
    await shoot(page, "start", "desktop");
    await page.click(".examples a");
    await ready(page);
    await page.waitForSelector(".hit");
    await clean(page, watch);
    await page.close();
  });

  it("extracts a PDF dropped on the page, in reflow and in preserve mode, with its pages drawn", async () => {
    for (const viewport of ["desktop", "phone"] as const) {
      const { page, watch } = await openPage(viewport);
      await page.goto(`${origin}/extract`);
      await ready(page);
      await shoot(page, "extract-empty", viewport);
      const bytes = (await readFile("fixtures/hyphenated-lines.pdf")).toString("base64");
      // A real drop: a DataTransfer holding the file, dispatched on the drop zone.
      const transfer = await page.evaluateHandle((b64) => {
        const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const dt = new DataTransfer();
        dt.items.add(new File([data], "hyphenated-lines.pdf", { type: "application/pdf" }));
        return dt;
      }, bytes);
      await page.dispatchEvent("#dropzone", "dragover", { dataTransfer: transfer });
      await page.dispatchEvent("#dropzone", "drop", { dataTransfer: transfer });
      await page.waitForSelector(".page .page-text");
      const reflow = await page.textContent("#page-1 .page-text");
      expect(await page.textContent(".status")).toBe("hyphenated-lines.pdf: 1 page extracted.");
      await page.click('label.segment:has(input[value=preserve])');
      const preserve = await page.textContent("#page-1 .page-text");
      expect(preserve!.split("\n").length).toBeGreaterThan(reflow!.split("\n").length);
      expect(preserve!.replace(/\s+/g, " ")).not.toBe(reflow!.replace(/\s+/g, " ") + "x");
      await page.click('label.segment:has(input[value=reflow])');
      expect(await page.textContent("#page-1 .page-text")).toBe(reflow);
      expect(await page.$$eval("#page-1 .join", (js) => js.length)).toBeGreaterThan(0);
      if (viewport === "phone") await page.click("#page-1 details.page-original summary");
      await page.waitForSelector("#page-1 canvas[data-rendered=true]", { timeout: 20_000 });
      expect(await inkOf(page, "#page-1 canvas")).toBeGreaterThan(500);
      await shoot(page, "extract", viewport);
      await clean(page, watch);
      await page.close();
    }
  });

  it("says why a dropped file that is not a PDF was not extracted", async () => {
    const { page, watch } = await openPage();
    await page.goto(`${origin}/extract`);
    await ready(page);
    await page.setInputFiles("#file", { name: "notes.pdf", mimeType: "application/pdf", buffer: Buffer.from("these are notes, not a PDF") });
    const alert = await page.waitForSelector("[role=alert]");
    expect(await alert.textContent()).toBe("Not extracted: notes.pdf: not a PDF: the file does not start with a %PDF- header");
    await clean(page, watch);
    await page.close();
  });

  it("adds a dropped PDF to the source folder from the printed address, whose cookie carries the token; opened without it, offers no button but says how", async () => {
    const { page, watch } = await openPage();
    const drop = async () => {
      await page.goto(`${origin}/extract`);
      await ready(page);
      await page.setInputFiles("#file", { name: "Added from the page.pdf", mimeType: "application/pdf", buffer: await readFile("fixtures/two-pages.pdf") });
      await page.waitForSelector("#page-1 .page-text");
    };
    const dropAndAdd = async () => {
      await drop();
      await page.click("button:has-text('Add to the archive')");
      await page.waitForSelector(".add-status:not(:empty)");
      return page.textContent(".add-status");
    };
    // Opened without the token: no button that would fail, but a sentence on how to add.
    await browser.context.clearCookies();
    await drop();
    expect(await page.locator("button:has-text('Add to the archive')").count()).toBe(0);
    expect(await page.textContent(".add-needs-token")).toBe("To add this PDF to the archive, open the address `pagestream serve` printed: it carries the server's token, which adding a file needs.");
    await page.goto(server.url);
    await ready(page);
    expect(await dropAndAdd()).toBe("Saved as Added-from-the-page.pdf in the source folder: the next run adds it to the archive (a watching run, within seconds).");
    expect(await readFile(join(dir, "fixtures/samples/Added-from-the-page.pdf"))).toEqual(await readFile("fixtures/two-pages.pdf"));
    await rm(join(dir, "fixtures/samples/Added-from-the-page.pdf"));
    await clean(page, watch);
    await page.close();
  });

  it("shows a hostile PDF's text literally, in search, in the document and dropped, and runs none of it", async () => {
    const { page, watch } = await openPage();
    await page.goto(`${server.url}&q=Hostile`);
    await ready(page);
    await page.waitForSelector(".hit");
    expect(await page.textContent(".hit .snippet")).toContain("<script>window.__pwned = 'script'</script>");
    expect(await page.textContent(".hit .hit-title")).toBe("<b>Hostile</b> title <img src=x onerror=alert(1)>");
    expect(await page.$$eval(".hit script, .hit img, .hit b, .hit iframe", (els) => els.length)).toBe(0);
    await page.click(".hit a");
    await ready(page);
    const text = await page.textContent("#page-1 .page-text");
    for (const line of HOSTILE_LINES) expect(text).toContain(line);
    expect(await page.$$eval("main script, main img, main iframe", (els) => els.length)).toBe(0);
    await page.goto(`${origin}/extract`);
    await ready(page);
    await page.setInputFiles("#file", { name: "<img src=x onerror=alert(2)>.pdf", mimeType: "application/pdf", buffer: await readFile(join(dir, "fixtures/samples/hostile.pdf")) });
    await page.waitForSelector("#page-1 .page-text");
    for (const line of HOSTILE_LINES) expect(await page.textContent("#page-1 .page-text")).toContain(line);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await page.$$eval("main script, main img, main iframe", (els) => els.length)).toBe(0);
    await clean(page, watch);
    await page.close();
  });

  it("says so for a document the archive does not hold", async () => {
    const { page } = await openPage();
    const response = await page.goto(`${origin}/documents/${"0".repeat(64)}`);
    expect(response!.status()).toBe(404);
    await ready(page).catch(() => {});
    expect(await (await page.waitForSelector("[role=alert]")).textContent()).toMatch(/^No such document\. the archive holds no document/);
    await page.close();
  });

  it("works behind a token: the printed address lets the page in, its requests and pdf.js's carry the cookie", async () => {
    const guarded = await serve(dir, ["--token", "page-token"]);
    try {
      const page = await browser.context.newPage();
      const refused: string[] = [];
      page.on("response", (r) => {
        if (r.status() === 401) refused.push(r.url());
      });
      const tokenOrigin = new URL(guarded.url).origin;
      expect((await page.goto(`${tokenOrigin}/`))!.status()).toBe(401);
      refused.length = 0;
      await page.goto(`${guarded.url}&q=${encodeURIComponent('"written notice"')}`);
      await ready(page);
      expect(page.url()).toBe(`${tokenOrigin}/?q=%22written+notice%22`);
      await page.click(".hit a");
      await page.waitForSelector("#page-2 canvas[data-rendered=true]", { timeout: 20_000 });
      expect(refused).toEqual([]);
      await page.close();
    } finally {
      await guarded.stop();
    }
  });
});

