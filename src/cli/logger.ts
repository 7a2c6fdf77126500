/**
 * Structured logs (pino) on stderr: plain lines by default, each with the time it was written
 * (`2026-06-04T09:12:33.123Z pagestream: …`, ISO 8601 in UTC, so a nightly run's log says when each
 * thing happened), or the records as JSON lines for a log collector (`--log-format json`).
 */
import { pino, type Level, type Logger } from "pino";
import { escapeControls } from "./escape-controls.js";
import type { StatusLine } from "./status-line.js";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = Level | "silent";
export type LogFormat = "json" | "text";

const LEVEL_NAMES: Record<number, string> = { 10: "trace", 20: "debug", 30: "info", 40: "warn", 50: "error", 60: "fatal" };

export function createLogger(level: LogLevel, format: LogFormat, out: StatusLine): Logger {
  const destination = {
    write(line: string) {
      if (format === "json") return out.write(line);
      const record = JSON.parse(line) as { level: number; time?: string; msg?: string };
      const name = LEVEL_NAMES[record.level] ?? "info";
      // Warnings read like the document messages they mostly are; errors say so.
      out.write(`${record.time ? record.time + " " : ""}pagestream: ${record.level >= 50 ? name + ": " : ""}${escapeControls(record.msg ?? "")}\n`);
    },
  };
  return pino({ level, base: undefined, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}
