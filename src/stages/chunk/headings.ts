/**
 * The heading path every chunk carries. Which paragraphs are headings, and their levels, was
 * decided where the pages were read (src/text/block-roles.ts: the role H1…H6); here the
 * headings in force are followed through the document.
 */
/** The headings in force at a point of the document, outermost first. */
export class HeadingPath {
  private readonly stack: { level: number; text: string }[] = [];

  /** A heading of `level` closes every open heading at that level or deeper. */
  enter(level: number, text: string): void {
    while (this.stack.length > 0 && this.stack[this.stack.length - 1]!.level >= level) this.stack.pop();
    this.stack.push({ level, text });
  }

  current(): string[] {
    return this.stack.map((h) => h.text);
  }
}
