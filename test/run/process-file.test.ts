/**
 * A file read in-process (`processFile`, what library callers use) that cannot be read fails
 * with a read's code, as a source's file does, never as a stage's failure.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { processFile } from "../../src/run/process-document.js";

const dir = mkdtempSync(join(tmpdir(), "pagestream-process-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("processFile", () => {
  it("fails a missing file as read_failed and an empty one as empty_file, each under its path", async () => {
    const missing = join(dir, "missing.pdf");
    const result = await processFile(missing, []);
    expect(result).toMatchObject({ status: "failed", uri: missing, error: { code: "read_failed" } });
    expect(result.status === "failed" && result.error.message).toMatch(/^the file could not be read: ENOENT/);
    const empty = join(dir, "empty.pdf");
    writeFileSync(empty, "");
    expect(await processFile(empty, [])).toMatchObject({ status: "failed", uri: empty, error: { code: "empty_file", message: "the file is empty (0 bytes)" } });
  });
});
