/**
 * Control characters escaped, for a terminal and a line-per-record log: a file name carries
 * whatever bytes its creator chose, and a raw ESC would reach the terminal, a raw newline forge a
 * log line of its own (a fake summary). C0 and C1 controls, DEL, and the bidirectional overrides
 * that make text display in another order than it is, as \n, \t, \xNN or \u{…}. (JSON logs
 * escape them already.)
 */
export function escapeControls(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    if (c === "\n") return "\\n";
    if (c === "\t") return "\\t";
    if (c === "\r") return "\\r";
    const code = c.codePointAt(0)!;
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u{${code.toString(16)}}`;
  });
}
