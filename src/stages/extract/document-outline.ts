/**
 * The document outline as pdf.js gives it (`getOutline`), flattened into entries with their
 * depth and the page each opens (a named destination is looked up, an explicit one's page
 * reference resolved). Heading evidence only (src/text/outline.ts): an outline that cannot be read
 * is no outline, never a failed document.
 */
import type { PDFDocumentProxy } from "pdfjs-dist/types/src/display/api.js";
import type { OutlineEntry } from "../../text/outline.js";

/** Entries read at most: an outline of a 10,000-page manual has a few thousand; this bounds a hostile one. */
const MAX_ENTRIES = 20_000;
/** Outline depth followed at most (a cycle in the tree is cut by pdf.js; this bounds a deep one). */
const MAX_DEPTH = 16;

type OutlineNode = Awaited<ReturnType<PDFDocumentProxy["getOutline"]>>[number];

export async function readOutline(pdf: PDFDocumentProxy): Promise<OutlineEntry[]> {
  const tree = await pdf.getOutline().catch(() => null);
  if (!tree?.length) return [];
  const entries: OutlineEntry[] = [];
  const walk = async (nodes: readonly OutlineNode[], depth: number) => {
    for (const node of nodes) {
      if (entries.length >= MAX_ENTRIES) return;
      const title = typeof node.title === "string" ? node.title.trim() : "";
      if (title) {
        const page = await destinationPage(pdf, node.dest);
        entries.push({ title, depth, ...(page !== undefined ? { page } : {}) });
      }
      if (depth < MAX_DEPTH && node.items?.length) await walk(node.items as OutlineNode[], depth + 1);
    }
  };
  await walk(tree, 1);
  return entries;
}

async function destinationPage(pdf: PDFDocumentProxy, dest: OutlineNode["dest"]): Promise<number | undefined> {
  try {
    const explicit = typeof dest === "string" ? await pdf.getDestination(dest) : dest;
    const target = explicit?.[0];
    if (Number.isInteger(target)) return (target as number) + 1;
    if (target && typeof target === "object") return (await pdf.getPageIndex(target)) + 1;
  } catch {
    // A destination that does not resolve leaves the entry without a page.
  }
  return undefined;
}
