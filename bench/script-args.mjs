// The command line of the bench scripts: `--help` prints the script's header comment (its `//`
// lines after the shebang), and whole-number options are read with a sentence when they are bad.
import { readFileSync } from "node:fs";

/** Reads `process.argv` for the script at `scriptUrl` (its import.meta.url); `label` prefixes errors. */
export function scriptArgs(scriptUrl, label) {
  const argv = process.argv.slice(2);
  if (argv.includes("--help") || argv.includes("-h")) {
    const lines = readFileSync(new URL(scriptUrl), "utf8").split("\n").slice(1);
    console.log(lines.slice(0, lines.findIndex((l) => !l.startsWith("//"))).map((l) => l.replace(/^\/\/ ?/, "")).join("\n"));
    process.exit(0);
  }
  return {
    argv,
    /** The whole number (at least 1) after `name`, or `fallback` when the option is not given. */
    int(name, fallback) {
      const i = argv.indexOf(name);
      if (i < 0) return fallback;
      const n = Number(argv[i + 1]);
      if (!Number.isInteger(n) || n < 1) {
        console.error(`${label}: ${name} needs a whole number of at least 1, got ${JSON.stringify(argv[i + 1])}`);
        process.exit(1);
      }
      return n;
    },
  };
}
