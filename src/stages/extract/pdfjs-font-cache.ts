/**
 * When to empty pdf.js's font cache while reading a document. pdf.js keeps every font a document
 * has used until `cleanup()`, and a document that embeds fonts of its own on each page (an OCR
 * layer; pages merged from many files) grows by them page after page: a CJK font with its glyph
 * maps is ~4.5 MiB. The cache is emptied between two pages once it holds at least FONTS_HELD
 * fonts and more than twice those the last RECENT_PAGES pages used. Fonts used again are then
 * parsed again, under new ids: a document that keeps using the same fonts never gets there, and
 * an emptying comes only after FONTS_HELD fonts were loaded anew.
 */
const FONTS_HELD = 24;
const RECENT_PAGES = 4;

export class FontCacheWatch {
  /** pdf.js's ids of the fonts its cache holds (since it was last emptied). */
  private readonly loaded = new Set<string>();
  /** The fonts of each of the last RECENT_PAGES pages read. */
  private readonly recent: string[][] = [];

  /** A page was read that uses these fonts (the keys of its text content's `styles`). */
  pageRead(fonts: string[]): void {
    for (const id of fonts) this.loaded.add(id);
    if (this.recent.push(fonts) > RECENT_PAGES) this.recent.shift();
  }

  /** The cache holds fonts the pages no longer use: time to empty it (`pdf.cleanup()`, then `emptied()`). */
  get holdsFontsOfPast(): boolean {
    return this.loaded.size >= FONTS_HELD && this.loaded.size > 2 * new Set(this.recent.flat()).size;
  }

  /** pdf.js's cache was emptied (cleanup), or the document opened afresh. */
  emptied(): void {
    this.loaded.clear();
  }
}
