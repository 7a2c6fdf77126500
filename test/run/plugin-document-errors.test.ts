import { describe, expect, it } from "vitest";
import { DocumentError } from "../../src/core/document-error.js";
import { readDocument } from "../../src/run/process-document.js";
import type { Source } from "../../src/core/plugin.js";

/** What a plugin's `DocumentError` is to the bundled worker: another copy of the class, same name and shape. */
class PluginDocumentError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "DocumentError";
  }
}

describe("document errors thrown by a plugin", () => {
  it("keep their code although they come from another copy of the class", async () => {
    const source = { read: async () => Promise.reject(new PluginDocumentError("not_found", "gone from the share")) } as unknown as Source;
    const item = { uri: "share://a.pdf", size: 10, mtimeMs: 0, fingerprint: "x" };
    await expect(readDocument(source, item)).rejects.toMatchObject({ code: "not_found", message: "gone from the share" });
  });

  it("are told apart from errors that only share the name, or carry a code pagestream does not have", () => {
    expect(new PluginDocumentError("read_failed", "x")).toBeInstanceOf(DocumentError);
    expect(new PluginDocumentError("no_such_code", "x")).not.toBeInstanceOf(DocumentError);
    expect(Object.assign(new Error("x"), { code: "not_found" })).not.toBeInstanceOf(DocumentError);
    expect({ name: "DocumentError", code: "not_found" }).not.toBeInstanceOf(DocumentError);
  });
});
