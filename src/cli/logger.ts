/**
 * Structured logs (pino) on stderr: plain `pagestream: …` lines by default, or the records as
 * JSON lines for a log collector (`--log-format json`).
 */
import { pino, type Level, type Logger } from "pino";
import type { StatusLine } from "./status-line.js";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = Level | "silent";
export type LogFormat = "json" | "text";

const LEVEL_NAMES: Record<number, string> = { 10: "trace", 20: "debug", 30: "info", 40: "warn", 50: "error", 60: "fatal" };

export function createLogger(level: LogLevel, format: LogFormat, out: StatusLine): Logger {
  const destination = {
    write(line: string) {
      if (format === "json") return out.write(line);
      const record = JSON.parse(line) as { level: number; msg?: string };
      const name = LEVEL_NAMES[record.level] ?? "info";
      // Warnings read like the document messages they mostly are; errors say so.
      out.write(`pagestream: ${record.level >= 50 ? name + ": " : ""}${escapeControls(record.msg ?? "")}\n`);
    },
  };
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}

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
