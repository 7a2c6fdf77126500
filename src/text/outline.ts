/**
 * The document outline (bookmarks) as heading evidence (docs/extraction.md §6.6). Word, LibreOffice,
 * LaTeX's hyperref and most report tools write one entry per heading, with its title, its depth in
 * the outline and the page it opens: the one place a PDF says outright which lines are headings
 * and how they nest. It is read by the extract stage (document-outline.ts) and matched here to
 * the paragraphs that print each title.
 */

export interface OutlineEntry {
  title: string;
  /** 1 for a top-level entry, one more for each level below. */
  depth: number;
  /** The page the entry opens (1-based), when its destination could be resolved. */
  page?: number;
}

/**
 * A title as it is compared: case, white space, punctuation at its ends and a leading section
 * number left out ("2.1. HISTORY" and "History" compare equal), NFKC.
 */
export function outlineKey(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u00AD\u200B-\u200F]/gu, "")
    .replace(LEADING_NUMBER, "")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/**
 * A section number before a title, as printed or as an outline writes it: "2.1.", "IV.", "A-A",
 * "B)", "3:". Taken off both sides alike, so that an outline's "A-A Shakespeare" is the page's
 * "A. Shakespeare".
 */
const NUMBER_PART = String.raw`(?:\d{1,3}|[ivxlc]{1,7}|[a-z])`;
const LEADING_NUMBER = new RegExp(String.raw`^\s*${NUMBER_PART}(?:[.\-–]${NUMBER_PART})*[.):]?\s+`, "u");

/** Entries by key, each with the pages it names (an entry with no page matches anywhere). */
export class OutlineIndex {
  private readonly byKey = new Map<string, OutlineEntry[]>();

  constructor(entries: readonly OutlineEntry[]) {
    for (const entry of entries) {
      const key = outlineKey(entry.title);
      if (!key) continue;
      const list = this.byKey.get(key) ?? [];
      list.push(entry);
      this.byKey.set(key, list);
    }
  }

  get size(): number {
    return this.byKey.size;
  }

  /**
   * The entry a paragraph on `page` with this text is the heading of: its title, on that page or
   * the one after (an entry often points at the top of the page before its heading, or at a
   * column break), or anywhere when the entry has no page.
   */
  find(text: string, page: number | undefined): OutlineEntry | undefined {
    const key = outlineKey(text);
    if (!key) return undefined;
    return this.byKey.get(key)?.find((e) => e.page === undefined || page === undefined || page === e.page || page === e.page + 1);
  }
}
