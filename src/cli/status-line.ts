/**
 * stderr shared by the log and the progress display: on a terminal the display is one line
 * redrawn in place, and a log line clears it, is written, and the display is drawn again.
 */
export class StatusLine {
  private current = "";

  constructor(
    private readonly out: NodeJS.WriteStream,
    /** Redraw in place (a terminal), or never draw (the display is off). */
    readonly live: boolean,
  ) {}

  /** Writes whole lines of text above the display. */
  write(text: string): void {
    if (this.live && this.current) this.out.write("\r\x1b[K");
    this.out.write(text);
    if (this.live && this.current) this.out.write(this.current);
  }

  /** Replaces the display's line. */
  show(line: string): void {
    if (!this.live) return;
    const width = this.out.columns || 120;
    this.current = line.length > width - 1 ? line.slice(0, width - 2) + "…" : line;
    this.out.write("\r\x1b[K" + this.current);
  }

  /** Takes the display off the screen. */
  clear(): void {
    if (this.live && this.current) this.out.write("\r\x1b[K");
    this.current = "";
  }
}
