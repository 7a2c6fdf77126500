/** The live view of a JSONL log (what export and mode: snapshot give), from its lines alone. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lineUri, liveLines } from "../../src/sinks/jsonl/live-lines.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "pagestream-live-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const line = (o: object) => JSON.stringify(o);
const chunk = (uri: string, id: string, text = "t") => line({ id, document_id: "d", chunk_index: 0, text, metadata: { source_uri: uri } });
const tombstone = (uri: string, reason: string) => line({ type: "tombstone", uri, reason });
async function live(lines: string[], tail = "\n", upTo?: number): Promise<string[]> {
  const file = join(dir, "log.jsonl");
  await writeFile(file, lines.join("\n") + tail);
  const out: string[] = [];
  for await (const l of liveLines(file, upTo)) out.push(l.toString("utf8"));
  return out;
}

describe("the live lines of a log", () => {
  it("keeps each uri's lines after its last tombstone, in file order, without the tombstones", async () => {
    const log = [
      chunk("/in/a.pdf", "a1"),
      chunk("/in/b.pdf", "b1"),
      tombstone("/in/a.pdf", "replaced"),
      chunk("/in/a.pdf", "a2"),
      tombstone("/in/b.pdf", "removed"),
      chunk("/in/c.pdf", "c1"),
      tombstone("/in/c.pdf", "removed"),
      chunk("/in/c.pdf", "c2"), // deleted, then added back
    ];
    expect((await live(log)).map((l) => JSON.parse(l).id)).toEqual(["a2", "c2"]);
  });

  it("gives each live line's bytes as written, text with quotes, escapes and any script included", async () => {
    const odd = chunk('/in/"quoted" \\ café 東京.pdf', "x1", 'He said "uri":"/in/a.pdf" — 東京 \u2028');
    const log = [chunk("/in/a.pdf", "a1"), odd, tombstone("/in/a.pdf", "removed")];
    expect(await live(log)).toEqual([odd]);
    expect(lineUri(Buffer.from(odd))).toBe('/in/"quoted" \\ café 東京.pdf');
  });

  it("finds the uri of every kind of line and chunk shape", () => {
    const uri = "/in/a.pdf";
    for (const l of [
      line({ type: "page", document_id: "d", uri, page: 1 }),
      line({ type: "document", document_id: "d", uri, status: "ok" }),
      line({ type: "error", uri, code: "damaged" }),
      line({ pageContent: "x", metadata: { document_id: "d", chunk_index: 0, source_uri: uri }, id: "i" }),
      line({ id_: "i", text: "x", metadata: { document_id: "d", chunk_index: 0, source_uri: uri } }),
    ]) {
      expect(lineUri(Buffer.from(l)), l).toBe(uri);
    }
  });

  it("leaves out a line cut off at the end, and anything past the byte it is told to stop at", async () => {
    const log = [chunk("/in/a.pdf", "a1"), chunk("/in/b.pdf", "b1")];
    expect((await live(log, '\n{"id":"half')).map((l) => JSON.parse(l).id)).toEqual(["a1", "b1"]);
    const first = Buffer.byteLength(log[0]! + "\n");
    expect((await live([...log, tombstone("/in/a.pdf", "removed")], "\n", first)).map((l) => JSON.parse(l).id)).toEqual(["a1"]);
  });
});
