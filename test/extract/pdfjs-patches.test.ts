/**
 * pagestream's pdf.js (scripts/pdfjs-patches.mjs) reads text faster, never differently: the
 * text transform written out in place (patch 3) and the text chunks and structure trees handed
 * over uncopied (patch 5, which copies no message of plain values either) must give every
 * page's text content and structure tree exactly as published pdf.js gives them, every
 * position to the bit; the paths its text pass records
 * (patch 6) must give the drawn rules the operator list gives; a document opened for extraction
 * builds no glyph outlines (patch 8), with the same operator list, and no font files (patch 10),
 * with the same text, none of its fonts falling back (a TrueType font without an OS/2 table
 * among them); CJK text read through the CMaps pdf.js ships comes out the same when a CMap
 * is kept from a document before (patch 9); a page's structure tree is published pdf.js's less
 * the rows and items of tables and lists with no content on the page (patch 11); a document
 * opened for extraction does not read a page's text again for the text under its links and
 * highlights (patch 12), and its annotations are otherwise the same; the parser's table of
 * operators, a static field (patch 15), is the one every page's text content is read with; a
 * document opened for extraction reads no standard font file (pdfjs-loader.ts), and its pages'
 * and its annotations' text is the same; its parser refuses values nested more than 512 deep
 * (patch 17) with an error, not a stack overflow, and a page it fetched ahead and could not parse
 * leaves no rejection unheard (patch 18). Compared on
 * every PDF committed under fixtures/ and on pages that set their text's transform, embed fonts,
 * draw their paths every way a content stream can and run a tagged table and list over two pages.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import type { PDFDocumentProxy } from "pdfjs-dist/types/src/display/api.js";
import { annotatedTextPdf, annotationFontsPdf, builtInCMapsPdf, deepNestingPagesPdf, embeddedFontsPdf, pathKindsPdf, richTextNotesPdf, taggedAcrossPagesPdf, textTransformsPdf, xmpMetadataPdf } from "../../fixtures/hostile.mjs";
import { extractFile, okPages } from "../helpers/extract.js";
import { readDrawnSegments, separatePaintedPaths } from "../../src/stages/extract/page-drawing.js";
import { documentParameters, loadPdfJs, openPdf, recordsPaintedPaths } from "../../src/stages/extract/pdfjs-loader.js";
import { PackageDataCache } from "../../src/stages/extract/package-data-cache.js";
import { drawnSegments, paintedSegments } from "../../src/stages/extract/rulings.js";

const root = resolve(import.meta.dirname, "..", "..");
const dir = mkdtempSync(join(tmpdir(), "pagestream-pdfjs-patches-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function textContent(build: "built" | "unpatched", files: string[]): Promise<Record<string, string[]>> {
  const { stdout } = await promisify(execFile)(process.execPath, [join(root, "test", "helpers", "text-content-dump.mjs"), build, ...files], { maxBuffer: 64 << 20 });
  return JSON.parse(stdout);
}

interface TreeNode {
  role?: string;
  type?: string;
  children?: TreeNode[];
}

/** Roles whose every element child published pdf.js puts in the tree of each page (its StructTreePage.addNode). */
const TAKEN_WHOLE = new Set(["L", "LBody", "LI", "Table", "THead", "TBody", "TFoot"]);

/** What `read` makes of the document opened with the built pdf.js, to be drawn or (`forText`) for extraction. */
async function withDocument<T>(bytes: Uint8Array, forText: boolean, read: (pdf: PDFDocumentProxy) => Promise<T>): Promise<T> {
  const pdfjs = await loadPdfJs();
  const pdf = await pdfjs.getDocument(documentParameters(pdfjs, new Uint8Array(bytes), { forText })).promise;
  try {
    return await read(pdf);
  } finally {
    await pdf.loadingTask.destroy();
  }
}

/**
 * A page's dump (text-content-dump.mjs) as patch 11 makes it: the children of a table, a table
 * section, a list, a list item or its body that hold nothing of the page are left out. What
 * holds something of the page is what pdf.js writes as a child with a `type`: the page's
 * marked content, its objects and annotations.
 */
function withOnlyContentOfPage(page: string): string {
  const holds = (node: TreeNode): boolean => node.type !== undefined || (node.children ?? []).some(holds);
  const prune = (node: TreeNode): void => {
    if (!node.children) return;
    if (node.role && TAKEN_WHOLE.has(node.role)) node.children = node.children.filter(holds);
    node.children.forEach(prune);
  };
  const dump = JSON.parse(page) as { structTree: TreeNode | null };
  if (dump.structTree) prune(dump.structTree);
  return JSON.stringify(dump);
}

/** The rows of a page's tables and the items of its lists, as its tree holds them. */
function rowsAndItems(page: string): { rows: number; items: number } {
  const count = { rows: 0, items: 0 };
  const walk = (node: TreeNode): void => {
    if (node.role === "TR") count.rows++;
    if (node.role === "LI") count.items++;
    node.children?.forEach(walk);
  };
  const tree = (JSON.parse(page) as { structTree: TreeNode | null }).structTree;
  if (tree) walk(tree);
  return count;
}

describe("the built pdf.js's text content", () => {
  it("is published pdf.js's, to the bit, on every fixture and on text transformed every way", async () => {
    const transforms = join(dir, "text-transforms.pdf");
    writeFileSync(transforms, textTransformsPdf());
    // Fonts embedded every way pdf.js converts them, read without building their font files (patch 10).
    const fonts = join(dir, "embedded-fonts.pdf");
    writeFileSync(fonts, embeddedFontsPdf());
    // Read twice in one process: the second reading takes its CMaps as the first left them (patch 9).
    const cmaps = [join(dir, "built-in-cmaps.pdf"), join(dir, "built-in-cmaps-again.pdf")];
    for (const file of cmaps) writeFileSync(file, builtInCMapsPdf());
    const fixtures = readdirSync(join(root, "fixtures"))
      .filter((name) => name.endsWith(".pdf"))
      .map((name) => join(root, "fixtures", name));
    // A tagged table and list that run over two pages: each page's tree holds the rows and items on it (patch 11).
    const across = join(dir, "tagged-across-pages.pdf");
    writeFileSync(across, taggedAcrossPagesPdf());
    const files = [transforms, fonts, cmaps[0]!, across, ...fixtures, cmaps[1]!];
    const [built, unpatched] = await Promise.all([textContent("built", files), textContent("unpatched", files)]);
    expect(Object.keys(built)).toHaveLength(files.length);
    // The transforms page: nine lines of text, among them positions only a skewed CTM, a rise and a Type 3 font give.
    expect(built[transforms]![0]).toMatch(/"Turned three quarters"/);
    expect(built[transforms]![0]).toMatch(/"abba"/);
    // The fonts page: each font's text, by its encoding, its ToUnicode map, its glyph names.
    for (const text of ["A TrueType font, embedded whole.", "Embedded", "Embe dded", "A CFF font, embedded.", "Outlined, then", "Boxed Type One", "A subset with no OS/2 table."]) expect(built[fonts]![0]).toContain(`"${text}"`);
    // The CJK page: Unicode, GB and Shift-JIS codes, each read through its CMap; written
    // vertically, the comma is its vertical form (read through the glyph map patch 10 keeps).
    for (const file of cmaps) for (const text of ["日本語の文", "中文文本", "日本語", "日本︑の文"]) expect(built[file]![0]).toContain(`"${text}"`);
    for (const file of files) expect(built[file], file).toEqual(unpatched[file]!.map(withOnlyContentOfPage));
  }, 120_000);

  it("gives each page of a table and a list that run over two pages their rows and items on the page only, and reads them as before", async () => {
    const file = join(dir, "tagged-across-pages-alone.pdf");
    writeFileSync(file, taggedAcrossPagesPdf());
    const [built, unpatched] = await Promise.all([textContent("built", [file]), textContent("unpatched", [file])]);
    // Published pdf.js gives both pages the table's four rows and the list's three items.
    expect(unpatched[file]!.map(rowsAndItems)).toEqual([
      { rows: 4, items: 3 },
      { rows: 4, items: 3 },
    ]);
    expect(built[file]!.map(rowsAndItems)).toEqual([
      { rows: 2, items: 1 },
      { rows: 2, items: 2 },
    ]);
    // The empty cell of the second row keeps its column; each page reads its own rows and items.
    expect(okPages(await extractFile(file)).map((page) => page.text)).toEqual([
      "Quarterly orders\n\nItem\tQty\tPrice\nValve\t\t12.50\n\n1. First delivery in March",
      "Gasket\t20\t0.80\nPump\t1\t310.00\n\n2. Second delivery in June\n\n3. Third delivery in September",
    ]);
  }, 60_000);

  it("hands each structure tree over uncopied, and a new tree at every call: changing one changes no later answer", async () => {
    const tagged = readdirSync(join(root, "fixtures")).filter((name) => /tagged|structure/.test(name) && name.endsWith(".pdf"));
    let trees = 0;
    for (const name of tagged) {
      const pdf = await openPdf(new Uint8Array(readFileSync(join(root, "fixtures", name))), { forText: true });
      try {
        const page = await pdf.getPage(1);
        const first = (await page.getStructTree()) as { children: unknown[] } | null;
        if (!first?.children.length) continue;
        // The parser's own object (it makes the root without a prototype); a copy would have Object's.
        expect(Object.getPrototypeOf(first), name).toBeNull();
        const whole = JSON.stringify(first);
        first.children.length = 0;
        expect(JSON.stringify(await page.getStructTree()), name).toBe(whole);
        trees++;
      } finally {
        await pdf.loadingTask.destroy();
      }
    }
    expect(trees).toBeGreaterThan(0);
  });

  it("copies no message of plain values across the port: a stream's requests and acknowledgements pass as they are", async () => {
    /** A message holding no object (what patch 5 passes without a copy). */
    const plain = (m: unknown) => m !== null && typeof m === "object" && Object.getPrototypeOf(m) === Object.prototype && Object.values(m).every((v) => v === null || (typeof v !== "object" && typeof v !== "function"));
    const cloned: unknown[] = [];
    const clone = globalThis.structuredClone;
    globalThis.structuredClone = ((value: unknown, options?: StructuredSerializeOptions) => (cloned.push(value), clone(value, options))) as typeof structuredClone;
    let pages = 0;
    try {
      const pdf = await openPdf(new Uint8Array(readFileSync(join(root, "fixtures", "two-pages.pdf"))), { forText: true });
      try {
        for (let n = 1; n <= pdf.numPages; n++) {
          const { items } = await (await pdf.getPage(n)).getTextContent();
          if (items.length) pages++;
        }
      } finally {
        await pdf.loadingTask.destroy();
      }
    } finally {
      globalThis.structuredClone = clone;
    }
    expect(pages).toBe(2);
    // Messages holding objects (a page's number, a page's reference) are still copied.
    expect(cloned.length).toBeGreaterThan(0);
    expect(cloned.filter(plain)).toEqual([]);
  });

  it("records the paths each page paints, which give the drawn rules the operator list gives", async () => {
    const { OPS, AnnotationMode } = await loadPdfJs();
    expect(recordsPaintedPaths()).toBe(true);
    const fixtures = readdirSync(join(root, "fixtures"))
      .filter((name) => name.endsWith(".pdf"))
      .map((name) => readFileSync(join(root, "fixtures", name)));
    let ruled = 0;
    for (const bytes of [pathKindsPdf(), ...fixtures]) {
      const pdf = await openPdf(new Uint8Array(bytes), { forText: true });
      try {
        for (let n = 1; n <= pdf.numPages; n++) {
          const page = await pdf.getPage(n);
          const { paths } = separatePaintedPaths((await page.getTextContent({ includeMarkedContent: true })).items);
          const list = await page.getOperatorList({ annotationMode: AnnotationMode.DISABLE });
          const fromList = drawnSegments(list.fnArray, list.argsArray, OPS);
          expect(paintedSegments(paths, OPS)).toEqual(fromList);
          expect(await readDrawnSegments(page, paths)).toEqual(fromList);
          if (fromList.length) ruled++;
        }
      } finally {
        await pdf.loadingTask.destroy();
      }
    }
    expect(ruled).toBeGreaterThan(10);
  }, 120_000);

  it("builds no glyph outlines for a document opened for extraction, and lists the same operators as for one opened to be drawn", async () => {
    const fixtures = readdirSync(join(root, "fixtures"))
      .filter((name) => name.endsWith(".pdf"))
      .map((name) => readFileSync(join(root, "fixtures", name)));
    /** Per page: the operator list (images and their dependencies aside: only a drawn document decodes them) and how many glyph outlines were sent. */
    const read = async (bytes: Buffer, forText: boolean) => {
      const { OPS } = await loadPdfJs();
      const images = new Set(Object.entries(OPS).flatMap(([name, fn]) => (/Image|^dependency$/.test(name) ? [fn] : [])));
      const pdf = await openPdf(new Uint8Array(bytes), { forText });
      try {
        const pages: { fns: number[]; outlines: number }[] = [];
        for (let n = 1; n <= pdf.numPages; n++) {
          const page = await pdf.getPage(n);
          const list = await page.getOperatorList();
          const outlines = [...page.commonObjs].filter(([id]) => String(id).includes("_path_")).length;
          pages.push({ fns: list.fnArray.filter((fn) => !images.has(fn)), outlines });
        }
        return pages;
      } finally {
        await pdf.loadingTask.destroy();
      }
    };
    let drawnOutlines = 0;
    for (const bytes of fixtures) {
      const [drawn, extracted] = [await read(bytes, false), await read(bytes, true)];
      expect(extracted.map((p) => p.fns)).toEqual(drawn.map((p) => p.fns));
      expect(extracted.every((p) => p.outlines === 0)).toBe(true);
      drawnOutlines += drawn.reduce((sum, p) => sum + p.outlines, 0);
    }
    // A document opened to be drawn (OCR's rendering) still gets them.
    expect(drawnOutlines).toBeGreaterThan(100);
  }, 120_000);

  it("builds no font file for a document opened for extraction, and builds one for each font of a document opened to be drawn", async () => {
    const bytes = embeddedFontsPdf();
    /** The fonts the page's operator list loaded: each by its name in the document, with the size of its file, if it has one. */
    const fonts = async (forText: boolean) => {
      // As openPdf opens it, and with the fonts' extra properties, without which the API lets go of a font's file once it has it.
      const pdfjs = await loadPdfJs();
      const pdf = await pdfjs.getDocument({ ...documentParameters(pdfjs, new Uint8Array(bytes), { forText }), fontExtraProperties: true }).promise;
      try {
        const page = await pdf.getPage(1);
        await page.getOperatorList();
        const loaded = [...page.commonObjs].flatMap(([, value]) => (value && typeof value === "object" && "loadedName" in value ? [value as { loadedName: string; missingFile: boolean; data?: Uint8Array }] : []));
        return loaded.map((font) => ({ name: font.loadedName.replace(/^g_d\d+_/, ""), missingFile: font.missingFile, bytes: font.data?.length ?? 0 })).sort((a, b) => a.name.localeCompare(b.name));
      } finally {
        await pdf.loadingTask.destroy();
      }
    };
    const [drawn, extracted] = [await fonts(false), await fonts(true)];
    // The five embedded fonts, read (none fell back to a system font) both ways.
    expect(drawn).toHaveLength(5);
    expect(drawn.every((font) => !font.missingFile && font.bytes > 1000)).toBe(true);
    expect(extracted.map(({ name, missingFile }) => ({ name, missingFile }))).toEqual(drawn.map(({ name, missingFile }) => ({ name, missingFile })));
    expect(extracted.every((font) => font.bytes === 0)).toBe(true);
  }, 60_000);

  it("gives no text under a link or a highlight for a document opened for extraction, and the same annotations otherwise", async () => {
    const bytes = annotatedTextPdf();
    const annotations = (forText: boolean) =>
      withDocument(bytes, forText, async (pdf) => (await (await pdf.getPage(1)).getAnnotations({ intent: "display" })) as { subtype: string; overlaidText?: string }[]);
    const [drawn, extracted] = [await annotations(false), await annotations(true)];
    // Opened to be drawn, pdf.js reads the words under each (the page read a second time).
    expect(drawn.map((a) => [a.subtype, a.overlaidText?.trim()])).toEqual([
      ["Link", "See the terms of the contract online."],
      ["Highlight", "terms"],
    ]);
    expect(extracted.every((a) => a.overlaidText === undefined)).toBe(true);
    expect(extracted).toEqual(drawn.map(({ overlaidText: _, ...rest }) => rest));
    // The page's text is read as before.
    const file = join(dir, "annotated.pdf");
    writeFileSync(file, bytes);
    expect(okPages(await extractFile(file))[0]!.text).toBe("See the terms of the contract online.");
  }, 60_000);

  it("gives a document opened for extraction its Info without parsing its XMP packet, and the title from the Info", async () => {
    const bytes = xmpMetadataPdf();
    const metadata = (forText: boolean) =>
      withDocument(bytes, forText, async (pdf) => {
        const { info, metadata } = await pdf.getMetadata();
        return { title: (info as { Title?: string }).Title, xmp: metadata?.get("dc:title") ?? null };
      });
    // Opened to be drawn, the XMP packet is parsed (its own title); for extraction, only the Info is read.
    expect(await metadata(false)).toEqual({ title: "Harbour survey", xmp: "Harbour survey (XMP)" });
    expect(await metadata(true)).toEqual({ title: "Harbour survey", xmp: null });
    const file = join(dir, "xmp.pdf");
    writeFileSync(file, bytes);
    const result = await extractFile(file);
    expect(result.status === "ok" && result.document.title).toBe("Harbour survey");
    expect(okPages(result)[0]!.text).toBe("The survey of the northern berths is complete.");
  }, 60_000);

  it("gives a document opened for extraction its annotations without parsing their rich text, and a free-text comment's text from its appearance", async () => {
    const bytes = richTextNotesPdf();
    const annotations = (forText: boolean) =>
      withDocument(bytes, forText, async (pdf) => {
        const page = await pdf.getPage(1);
        const found = (await page.getAnnotations({ intent: "display" })) as { subtype: string; richText?: unknown; textContent?: string[] }[];
        return found.map((a) => ({ subtype: a.subtype, richText: a.richText !== undefined, textContent: a.textContent ?? null }));
      });
    // Opened to be drawn, the comment, the note and its popup each have their rich text parsed;
    // for extraction none has, and the comment's appearance still gives its text.
    const comment = { subtype: "FreeText", textContent: ["Berth 7 closed until Monday."] };
    expect(await annotations(false)).toEqual([
      { ...comment, richText: true },
      { subtype: "Text", richText: true, textContent: null },
      { subtype: "Popup", richText: true, textContent: null },
    ]);
    expect(await annotations(true)).toEqual([
      { ...comment, richText: false },
      { subtype: "Text", richText: false, textContent: null },
      { subtype: "Popup", richText: false, textContent: null },
    ]);
    const file = join(dir, "rich-text.pdf");
    writeFileSync(file, bytes);
    const result = await extractFile(file);
    expect(okPages(result)[0]!.text).toBe("The harbour master posts notices here.\n\nBerth 7 closed until Monday.");
  }, 60_000);

  it("reads no standard font file for a document opened for extraction, and the same text of its pages and its annotations at the same places", async () => {
    const bytes = annotationFontsPdf();
    /** As extraction reads the document (a page's text, then its annotations), with the standard font files fetched while each step ran. */
    const read = async (forText: boolean) => {
      const pdfjs = await loadPdfJs();
      const fetched: string[] = [];
      class CountingData extends PackageDataCache {
        override fetch(request: { kind: "cMapUrl" | "standardFontDataUrl" | "wasmUrl"; filename: string }): Promise<Uint8Array> {
          if (request.kind === "standardFontDataUrl") fetched.push(request.filename);
          return super.fetch(request);
        }
      }
      const pdf = await pdfjs.getDocument({ ...documentParameters(pdfjs, new Uint8Array(bytes), { forText }), BinaryDataFactory: CountingData }).promise;
      try {
        const first = await pdf.getPage(1);
        const firstPage = await first.getTextContent();
        const annotations = ((await first.getAnnotations({ intent: "display" })) as { subtype: string; fieldValue?: string; textContent?: string[]; textPosition?: number[] }[]).map(
          ({ subtype, fieldValue, textContent, textPosition }) => ({ subtype, fieldValue, textContent, textPosition }),
        );
        const secondPage = await (await pdf.getPage(2)).getTextContent();
        return { fetched: new Set(fetched), firstPage, annotations, secondPage };
      } finally {
        await pdf.loadingTask.destroy();
      }
    };
    const [drawn, extracted] = [await read(false), await read(true)];
    // Opened to be drawn, the Times of the labels, the Arial of the annotations and the second
    // page, and the Helvetica that stands in for a missing font are read with their stand-ins'
    // files; opened for extraction, with none.
    expect(drawn.fetched).toEqual(new Set(["FoxitSerif.pfb", "LiberationSans-Regular.ttf"]));
    expect(extracted.fetched).toEqual(new Set());
    // The same text, at the same places: the pages' items, the comment's lines and where each
    // field's text starts (pdf.js's ids of the fonts aside: a font read without a file is named
    // for its system stand-in too, under an id of its own).
    const items = (content: { items: unknown[] }) => JSON.stringify(content.items).replace(/g_d\d+_f\d+/g, "font");
    expect(items(extracted.firstPage)).toBe(items(drawn.firstPage));
    expect(items(extracted.secondPage)).toBe(items(drawn.secondPage));
    expect(extracted.annotations).toEqual(drawn.annotations);
    expect(extracted.annotations.map((a) => a.textContent)).toEqual([["Berth 7 closed until Monday."], ["Lucía Pérez"], ["Northern Star"]]);
    expect(extracted.annotations.every((a) => a.textPosition?.length === 2)).toBe(true);
    // What only the file gives is a font's ascent (the Liberation font's 1854/2048 against the
    // descriptor's 800), which extraction does not read.
    expect(Object.values(drawn.secondPage.styles).map((style) => style.ascent)).toEqual([1854 / 2048]);
    expect(Object.values(extracted.secondPage.styles).map((style) => style.ascent)).toEqual([0.8]);
    const file = join(dir, "annotation-fonts.pdf");
    writeFileSync(file, bytes);
    expect(okPages(await extractFile(file)).map((page) => page.text)).toEqual(["Name: Lucía Pérez Vessel: Northern Star\n\nBerth 7 closed until Monday.", "The second page is set in Arial."]);
  }, 60_000);
});

describe("the built pdf.js's parser", () => {
  const pageText = async (pdf: PDFDocumentProxy, n: number) => (await (await pdf.getPage(n)).getTextContent()).items.map((item) => ("str" in item ? item.str : "")).join("");

  it("refuses values nested more than 512 deep where it reads them, with an error of its own, and reads those nested 400 deep", async () => {
    // Unpatched, the third page runs the parser's recursion out of stack (RangeError).
    const pdf = await openPdf(new Uint8Array(deepNestingPagesPdf([0, 400, 100_000])), { forText: true });
    try {
      expect(await pageText(pdf, 1)).toBe("Hello from a hand-made page.");
      expect(await pageText(pdf, 2)).toBe("Hello from a hand-made page.");
      await expect(pdf.getPage(3)).rejects.toThrow(/^Objects nested more than 512 deep\.$/);
    } finally {
      await pdf.loadingTask.destroy();
    }
  });

  it("leaves no rejection unheard for a page it fetched ahead and cannot parse: the page fails when it is asked for, the others are read", async () => {
    // Unpatched, opening the document fetches pages 1 to 3 ahead; the first fails, and so the
    // third's failure is a rejection no one listens to: in this process, Node would end it.
    const unheard: unknown[] = [];
    const listen = (reason: unknown) => unheard.push(reason);
    process.on("unhandledRejection", listen);
    try {
      const pdf = await openPdf(new Uint8Array(deepNestingPagesPdf()), { forText: true });
      try {
        const deep = /^Objects nested more than 512 deep\.$/;
        await expect(pdf.getPage(1)).rejects.toThrow(deep);
        await new Promise((resolve) => setImmediate(resolve));
        expect(await pageText(pdf, 2)).toBe("Hello from a hand-made page.");
        await expect(pdf.getPage(3)).rejects.toThrow(deep);
      } finally {
        await pdf.loadingTask.destroy();
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(unheard).toEqual([]);
    } finally {
      process.off("unhandledRejection", listen);
    }
  });
});
