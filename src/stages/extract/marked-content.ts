/**
 * Which marked-content sequence each text item was painted in. With
 * `getTextContent({ includeMarkedContent: true })` pdf.js interleaves the text items with
 * `beginMarkedContentProps` (a BDC, with `id` when it carries an MCID), `beginMarkedContent`
 * (a BMC) and `endMarkedContent`, nested. The innermost MCID around an item ties it to the
 * structure tree; an enclosing /Artifact says it is page furniture by declaration.
 */
import type { PdfTextItem } from "./text-runs.js";

type ContentItem =
  | PdfTextItem
  | { type: "beginMarkedContentProps"; id?: string | null; tag?: string }
  | { type: "beginMarkedContent"; tag?: string }
  | { type: "endMarkedContent" };

export interface MarkedItem extends PdfTextItem {
  /** The innermost enclosing MCID, as pdf.js names it (`p10R_mc3`). */
  mcid?: string;
  /** Inside an /Artifact sequence. */
  artifact?: boolean;
}

export function markItems(items: readonly unknown[]): MarkedItem[] {
  const stack: { id?: string; tag?: string }[] = [];
  const out: MarkedItem[] = [];
  for (const raw of items as ContentItem[]) {
    if ("str" in raw) {
      const marked: MarkedItem = { ...raw };
      for (let i = stack.length - 1; i >= 0; i--) {
        if (stack[i]!.id) {
          marked.mcid = stack[i]!.id;
          break;
        }
      }
      if (stack.some((s) => s.tag === "Artifact")) marked.artifact = true;
      out.push(marked);
    } else if (raw.type === "beginMarkedContentProps") {
      stack.push({ id: raw.id ?? undefined, tag: raw.tag });
    } else if (raw.type === "beginMarkedContent") {
      stack.push({ tag: raw.tag });
    } else if (raw.type === "endMarkedContent") {
      // An unbalanced EMC in a damaged stream must not throw: it just closes nothing.
      stack.pop();
    }
  }
  return out;
}
