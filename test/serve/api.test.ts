/**
 * `pagestream serve`'s API over real HTTP, started as a user starts it on the archive the
 * default pipeline writes from the samples: search, documents, originals, drop-a-PDF, and the
 * ugly requests — paths that climb out, unknown ids, other hosts, missing tokens, cross-site
 * posts, files too large or not PDFs at all.
 */
import Database from "better-sqlite3";
import { spawnSync } from "node:child_process";
import { request as httpRequest } from "node:http";
import { readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiError, ArchiveInfo, DocumentListResponse, DocumentResponse, ExamplesResponse, ExtractResponse, SearchResponse } from "../../src/serve/api-types.js";
import { CONTENT_SECURITY_POLICY } from "../../src/serve/security-headers.js";
import { archiveFolder, lighthouseNotes, serve, textPdf, type Served } from "./serve-fixture.js";
import { fromWireKeys } from "../../src/core/wire-keys.js";

let dir: string;
let server: Served;
const get = (path: string, init?: RequestInit) => fetch(new URL(path, server.url), init);
/** An answer as the page reads it: the wire's snake_case keys in camelCase (page/api.ts). */
const json = async <T>(path: string) => fromWireKeys<T>(await (await get(path)).json());

/** A raw request, for what fetch will not send (a Host header, a path with ".." in it). */
function raw(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const url = new URL(server.url);
  return new Promise((done, fail) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, headers }, (res) => {
      let body = "";
      res.setEncoding("utf8").on("data", (t) => (body += t));
      res.on("end", () => done({ status: res.statusCode!, body }));
    });
    req.on("error", fail);
    req.end();
  });
}

/** The sentence of a snippet that holds offset `at`. */
function sentenceAt(snippet: string, at: number): string {
  const start = Math.max(snippet.lastIndexOf(". ", at) + 2, 0);
  const end = snippet.indexOf(".", at);
  return snippet.slice(start, end < 0 ? undefined : end).replace(/^…/, "");
}

/**
 * A six-page log that mentions the curlew on every page, in long paragraphs, so that its chunks
 * overlap over mentions of it: one document with many hits.
 */
async function curlewLog(): Promise<Buffer> {
  const lines: string[] = [];
  for (let page = 1; page <= 6; page++) {
    for (let n = 1; n <= 9; n++) {
      lines.push(`Day ${page}.${n}: the tide turned at the north pier, the gauge read ${page + n} feet and the pilot boat went out to meet a coaster bound for the inner basin.`);
      if (n === 3 || n === 7) lines.push(`Entry ${page}.${n}: a curlew (sighting ${page}.${n}) was seen on the mud flats below the sea wall, feeding as the water fell.`);
    }
  }
  return textPdf("Curlew log", lines);
}

beforeAll(async () => {
  dir = await archiveFolder({ ...(await lighthouseNotes()), "curlew-log.pdf": await curlewLog() });
  server = await serve(dir);
});
afterAll(async () => {
  expect(await server.stop()).toBe(0);
  await rm(dir, { recursive: true, force: true });
});

describe("pagestream serve: search", () => {
  it("says what the archive holds", async () => {
    const info = await json<ArchiveInfo>("/api/archive");
    expect(info).toMatchObject({ documents: 16, failedDocuments: 0, folders: ["notes"], source: "folder", canAdd: false, addNeedsToken: true, substring: false, queryLimits: { maxChars: 1000, maxTerms: 64, minPrefixChars: 3 } });
    // On the wire, snake_case like the JSONL files and `--json`.
    expect(await (await get("/api/archive")).json()).toMatchObject({ failed_documents: 0, can_add: false, add_needs_token: true, query_limits: { max_chars: 1000, max_terms: 64, min_prefix_chars: 3 } });
    const wire = JSON.stringify(await (await get("/api/search?q=harbour")).json());
    expect(wire).toContain('"document_id":');
    expect(wire).not.toMatch(/"[a-z]+[A-Z][A-Za-z]*":/);
  });

  it("finds a phrase with the matched words at their offsets in the snippet, ranked as pagestream search ranks", async () => {
    const r = await json<SearchResponse>(`/api/search?q=${encodeURIComponent('"written notice"')}`);
    expect(r.groups.length).toBeGreaterThan(0);
    for (const g of r.groups) {
      for (const h of g.hits) {
        expect([h.name, h.path, h.pages]).toEqual(["service-agreement.pdf", "service-agreement.pdf", [2, 2]]);
        expect(h.highlights.map(([s, e]) => h.snippet.slice(s, e).toLowerCase())).toContain("written notice");
        expect(h.documentId).toMatch(/^[0-9a-f]{64}$/);
      }
    }
    // Documents come in the order of their best hit: pagestream search's hits, each document's first.
    const cli = spawnSync(process.execPath, ["dist/cli.js", "search", "harbour", "--db", join(dir, "out/archive.sqlite"), "--json", "--limit", "10"], { encoding: "utf8" });
    const seen = new Set<string>();
    const firsts = (JSON.parse(cli.stdout) as { hits: { uri: string; snippet: string }[] }).hits.filter((h) => !seen.has(h.uri) && seen.add(h.uri)).map((h) => h.snippet);
    expect((await json<SearchResponse>("/api/search?q=harbour")).groups.map((g) => g.hits[0]!.snippet).slice(0, firsts.length)).toEqual(firsts);
  });

  it("pages through the documents, and says when there are more", async () => {
    const first = await json<SearchResponse>("/api/search?q=lighthouse");
    expect([first.page, first.groups.length, first.more]).toEqual([1, 10, true]);
    const second = await json<SearchResponse>("/api/search?q=lighthouse&page=2");
    expect([second.page, second.groups.length, second.more]).toEqual([2, 2, false]);
    const names = [...first.groups, ...second.groups].map((g) => g.name).sort();
    expect(names).toEqual(Array.from({ length: 12 }, (_, i) => `keeper-${String(i + 1).padStart(2, "0")}.pdf`));
    expect((await json<SearchResponse>("/api/search?q=lighthouse&page=3")).groups).toEqual([]);
  });

  it("shows each document once, with its best hits and how many more matches it has, and searches within it", async () => {
    const r = await json<SearchResponse>("/api/search?q=curlew");
    expect(r.groups.map((g) => g.name)).toEqual(["curlew-log.pdf"]);
    const [log] = r.groups;
    const doc = await json<DocumentResponse>(`/api/documents/${log!.documentId}?q=curlew`);
    const matched = doc.pages.filter((p) => p.matches.length > 0).map((p) => p.number);
    const total = doc.pages.reduce((n, p) => n + p.matches.length, 0);
    expect([total, matched.length > 1]).toEqual([12, true]);
    // Its best hits are shown (two), and the matches they do not hold are counted, with their pages.
    expect(log!.hits.length).toBe(2);
    expect(log!.more.matches).toBeGreaterThan(0);
    expect(log!.more.matches).toBeLessThan(total);
    expect(log!.more.pages.every((p) => matched.includes(p))).toBe(true);
    const within = await json<SearchResponse>(`/api/search?q=curlew&document=${log!.documentId}`);
    expect(within.within).toMatchObject({ documentId: log!.documentId, name: "curlew-log.pdf" });
    const hits = within.groups[0]!.hits;
    const pages = [...new Set(hits.flatMap((h) => Array.from({ length: h.pages[1] - h.pages[0] + 1 }, (_, i) => h.pages[0] + i)))].sort((a, b) => a - b);
    expect(pages).toEqual(matched);
    // A passage in two chunks' overlap is shown once: no marked sentence is in two snippets.
    const sentences = hits.flatMap((h) => h.highlights.map(([s]) => sentenceAt(h.snippet, s)));
    expect(sentences.length).toBeGreaterThan(0);
    expect(new Set(sentences).size).toBe(sentences.length);
    expect((await get(`/api/search?q=curlew&document=${"0".repeat(64)}`)).status).toBe(404);
  });

  it("lists the documents newest first, page by page", async () => {
    const list = await json<DocumentListResponse>("/api/documents");
    expect([list.total, list.page, list.pageSize, list.documents.length]).toEqual([16, 1, 20, 16]);
    const times = list.documents.map((d) => d.ingestedAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect(list.documents.map((d) => d.name)).toContain("curlew-log.pdf");
    expect((await json<DocumentListResponse>("/api/documents?page=2")).documents).toEqual([]);
    expect((await get("/api/documents?page=0")).status).toBe(400);
  });

  it("offers example queries made from the archive's own words, each of which finds something", async () => {
    const { queries } = await json<ExamplesResponse>("/api/examples");
    expect(queries.length).toBeGreaterThanOrEqual(3);
    expect(queries).not.toContain('"written notice"');
    for (const q of queries) expect((await json<SearchResponse>(`/api/search?q=${encodeURIComponent(q)}`)).groups.length, q).toBeGreaterThan(0);
    expect(queries.some((q) => /^".+ .+"$/.test(q))).toBe(true);
    expect(queries.some((q) => / OR /.test(q))).toBe(true);
  });

  it.each([
    ["NOT harbour", "only_not"],
    ["harbour OR", "dangling_operator"],
    ["ha*", "short_prefix"],
    ["*", "empty"],
    ["x".repeat(1001), "too_long"],
  ])("answers the malformed query %j with a 400 and its code, never a 500", async (q, code) => {
    const response = await get(`/api/search?q=${encodeURIComponent(q)}`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as ApiError).error.code).toBe(code);
  });

  it("refuses parameters it does not know or cannot read with a 400", async () => {
    for (const query of ["", "q=x&page=0", "q=x&page=abc", "q=x&page=102", "q=x&only=everything", "q=x&since=yesterday"]) {
      const response = await get(`/api/search?${query}`);
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as ApiError).error.code, query).toBe("bad_request");
    }
  });
});

describe("pagestream serve: documents", () => {
  let documentId: string;
  beforeAll(async () => {
    documentId = (await json<SearchResponse>(`/api/search?q=${encodeURIComponent('"written notice"')}`)).groups[0]!.documentId;
  });

  it("gives a document's pages with their facts, furniture and where the query matched", async () => {
    const doc = await json<DocumentResponse>(`/api/documents/${documentId}?q=${encodeURIComponent('"written notice"')}`);
    expect([doc.name, doc.title, doc.pageCount, doc.status, doc.original]).toEqual(["service-agreement.pdf", "Service Agreement", doc.pages.length, "ok", { available: true }]);
    const page2 = doc.pages.find((p) => p.number === 2)!;
    // 10.1 "… three months' written notice" and 10.2 "… at once by written notice".
    expect(page2.matches.map(([s, e]) => page2.text.slice(s, e))).toEqual(["written notice", "written notice"]);
    expect(page2.facts).toMatchObject({ orderSource: "geometry", columns: 1 });
    expect(page2.furniture?.footer.length).toBeGreaterThan(0);
    expect(doc.pages.filter((p) => p.number !== 2).every((p) => p.matches.length === 0)).toBe(true);
  });

  it("serves the original's bytes, the same as the file's", async () => {
    const response = await get(`/api/documents/${documentId}/original`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment/);
    expect(Buffer.from(await response.arrayBuffer()).equals(await readFile(join(dir, "fixtures/samples/service-agreement.pdf")))).toBe(true);
  });

  it("says plainly when the original has changed since it was archived, and serves the text still", async () => {
    const file = join(dir, "fixtures/samples/meeting-minutes.pdf");
    const id = (await json<SearchResponse>("/api/search?q=committee")).groups.find((g) => g.name === "meeting-minutes.pdf")!.documentId;
    const bytes = await readFile(file);
    await writeFile(file, Buffer.concat([bytes, Buffer.from("\n% appended\n")]));
    try {
      const response = await get(`/api/documents/${id}/original`);
      expect(response.status).toBe(404);
      expect(((await response.json()) as ApiError).error).toEqual({ code: "original_unavailable", message: "the file has changed since it was archived (its bytes are not the archived document's)" });
      expect((await json<DocumentResponse>(`/api/documents/${id}`)).pages.length).toBeGreaterThan(0);
    } finally {
      await writeFile(file, bytes);
    }
  });

  it.each([
    ["an unknown id", `/api/documents/${"0".repeat(64)}`],
    ["an id that is not a sha256", "/api/documents/abc"],
    ["an unknown id's original", `/api/documents/${"0".repeat(64)}/original`],
    ["an unknown id's page", `/documents/${"0".repeat(64)}`],
    ["a path as an id", `/api/documents/${encodeURIComponent("../../../etc/passwd")}`],
    ["a path as an id, for the original", `/api/documents/${encodeURIComponent("/etc/passwd")}/original`],
  ])("answers %s with a 404", async (_what, path) => {
    expect((await get(path)).status).toBe(404);
  });

  it.each(["/../../etc/passwd", "/assets/../../package.json", "/pdfjs/6.5.438/cmaps/../../package.json", "/pdfjs/6.5.438/../../../../etc/passwd", "/assets/%2e%2e/%2e%2e/package.json", "/pdfjs/6.5.438/wasm/quickjs-eval.wasm", "/pdfjs/6.5.438/pdf.sandbox.min.mjs", "/assets/index.html/../../../server.js"])(
    "answers %s with a 404: no request path reaches the filesystem",
    async (path) => {
      const r = await raw(path);
      expect(r.status).toBe(404);
      expect(r.body).not.toContain("root:");
    },
  );
});

describe("pagestream serve: the page's files", () => {
  it("serves the page and pdf.js's files from the package, with the policy on every answer", async () => {
    const page = await get("/");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toMatch(/^default-src 'self'; /);
    const html = await page.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    expect(html).toContain('data-pdfjs="/pdfjs/6.5.438/"');
    for (const [path, type] of [
      ["/assets/app.js", "text/javascript"],
      ["/assets/app.css", "text/css"],
      ["/pdfjs/6.5.438/pdf.min.mjs", "text/javascript"],
      ["/pdfjs/6.5.438/pdf.worker.min.mjs", "text/javascript"],
      ["/pdfjs/6.5.438/cmaps/Adobe-Japan1-UCS2.bcmap", "application/octet-stream"],
      ["/pdfjs/6.5.438/standard_fonts/FoxitSerif.pfb", "application/octet-stream"],
      ["/pdfjs/6.5.438/wasm/openjpeg_nowasm_fallback.js", "text/javascript"],
    ]) {
      const response = await get(path!);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type"), path).toContain(type!);
      expect(response.headers.get("content-security-policy"), path).toBe(CONTENT_SECURITY_POLICY);
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
    expect((await get("/api/archive")).headers.get("content-security-policy")).toBe(CONTENT_SECURITY_POLICY);
  });

  it("answers only to its own address on loopback (a DNS-rebinding page sends another Host)", async () => {
    const port = new URL(server.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) expect((await raw("/api/archive", { host })).status, host).toBe(200);
    for (const host of [`evil.example:${port}`, "127.0.0.1:1", `attacker.test`]) {
      const r = await raw("/api/archive", { host });
      expect(r.status, host).toBe(403);
      expect((JSON.parse(r.body) as ApiError).error.code).toBe("wrong_host");
    }
  });
});

describe("pagestream serve: a dropped PDF", () => {
  const post = (path: string, body: Uint8Array | string, headers: Record<string, string> = { "content-type": "application/pdf" }) => get(path, { method: "POST", body, headers });

  it("extracts it with the pipeline's stages, in reflow and preserve, and stores nothing", async () => {
    const bytes = await readFile("fixtures/hyphenated-lines.pdf");
    const response = await post("/api/extract?name=hyphenated-lines.pdf", bytes);
    expect(response.status).toBe(200);
    const r = fromWireKeys<ExtractResponse>(await response.json());
    expect([r.name, r.pageCount, r.status]).toMatchObject(["hyphenated-lines.pdf", 1, "ok"]);
    const [page] = r.pages;
    expect(page!.reflow).toBe(page!.text);
    expect(page!.preserve.split("\n").length).toBeGreaterThan(page!.reflow.split("\n").length);
    expect(page!.facts?.dehyphenated?.length).toBeGreaterThan(0);
    expect((await json<ArchiveInfo>("/api/archive")).documents).toBe(16);
  });

  it.each([
    ["a file that is not a PDF", "just some text, not a PDF at all", 422, "not_pdf"],
    ["a truncated PDF", "%PDF-1.7\n1 0 obj << /Type /Catalog", 422, "damaged"],
    ["an empty body", "", 400, "empty_file"],
  ])("refuses %s with a clear error", async (_what, body, status, code) => {
    const response = await post("/api/extract?name=bad.pdf", body);
    expect(response.status).toBe(status);
    const { error } = (await response.json()) as ApiError;
    expect(error.code).toBe(code);
    expect(error.message.length).toBeGreaterThan(10);
  });

  it("refuses a body that is not sent as a PDF, and a post from another site", async () => {
    expect((await post("/api/extract", "x", { "content-type": "text/plain" })).status).toBe(415);
    const crossSite = await post("/api/extract", await readFile("fixtures/two-pages.pdf"), { "content-type": "application/pdf", origin: "http://evil.example" });
    expect(crossSite.status).toBe(403);
    expect(((await crossSite.json()) as ApiError).error.code).toBe("wrong_origin");
  });

  it("adds it to the source folder when asked, never over a file that is there, and the next run, writing while the server reads, ingests it", async () => {
    const bytes = await readFile("fixtures/two-pages.pdf");
    const withToken = { "content-type": "application/pdf", authorization: `Bearer ${server.token}` };
    const response = await post("/api/add?name=../../Two%20Pages.pdf", bytes, withToken);
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ saved: "Two-Pages.pdf" });
    expect(await readFile(join(dir, "fixtures/samples/Two-Pages.pdf"))).toEqual(bytes);
    const again = await post("/api/add?name=Two-Pages.pdf", bytes, withToken);
    expect([again.status, ((await again.json()) as ApiError).error.code]).toEqual([409, "exists"]);
    // The next run ingests it, writing the archive the server has open (WAL: neither waits).
    const run = () => spawnSync(process.execPath, [join(process.cwd(), "dist/cli.js"), "run", "--progress", "never"], { cwd: dir, encoding: "utf8" });
    expect(run().status).toBe(0);
    const found = await json<SearchResponse>(`/api/search?q=${encodeURIComponent('"closing paragraph"')}`);
    expect(found.groups.map((g) => g.name)).toEqual(["Two-Pages.pdf"]);
    await rm(join(dir, "fixtures/samples/Two-Pages.pdf"));
    expect(run().status).toBe(0); // and prunes it again
    expect((await json<SearchResponse>(`/api/search?q=${encodeURIComponent('"closing paragraph"')}`)).groups).toEqual([]);
  });
});

describe("pagestream serve: limits and tokens", () => {
  it("refuses an upload over the limit with a 413", async () => {
    const small = await serve(dir, ["--max-upload-mb", "1"]);
    try {
      const response = await fetch(new URL("/api/extract?name=big.pdf", small.url), { method: "POST", body: new Uint8Array(1024 * 1024 + 1), headers: { "content-type": "application/pdf" } });
      expect(response.status).toBe(413);
      expect(((await response.json()) as ApiError).error.code).toBe("too_large");
    } finally {
      await small.stop();
    }
  });

  it("with --token, answers 401 without it, and takes it as a bearer token or once in the address (then as a cookie)", async () => {
    const guarded = await serve(dir, ["--token", "s3cret-Token"]);
    try {
      const base = new URL(guarded.url);
      expect(base.searchParams.get("token")).toBe("s3cret-Token");
      const bare = (path: string, init?: RequestInit) => fetch(new URL(path, base.origin), { redirect: "manual", ...init });
      for (const path of ["/", "/api/archive", "/assets/app.js", `/api/documents/${"0".repeat(64)}`, "/pdfjs/6.5.438/pdf.min.mjs"]) expect((await bare(path)).status, path).toBe(401);
      expect((await bare("/api/archive", { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
      expect((await bare("/api/archive", { headers: { authorization: "Bearer s3cret-Token" } })).status).toBe(200);
      const first = await bare("/?token=s3cret-Token&q=harbour");
      expect(first.status).toBe(303);
      expect(first.headers.get("location")).toBe("/?q=harbour");
      const cookie = first.headers.get("set-cookie")!;
      // Named with the port: two servers on one machine keep a cookie each.
      expect(cookie).toBe(`pagestream_token_${base.port}=s3cret-Token; Path=/; HttpOnly; SameSite=Strict`);
      expect((await bare("/api/archive", { headers: { cookie: cookie.split(";")[0]! } })).status).toBe(200);
    } finally {
      await guarded.stop();
    }
  });

  it("answers a token cookie that is not valid percent-encoding with a 400 naming the cookie, not a 500", async () => {
    const guarded = await serve(dir, ["--token", "s3cret-Token"]);
    try {
      const { origin, port } = new URL(guarded.url);
      const response = await fetch(new URL("/api/archive", origin), { headers: { cookie: `pagestream_token_${port}=%E0%A4%A` } });
      expect(response.status).toBe(400);
      const { error } = (await response.json()) as ApiError;
      expect(error.code).toBe("bad_cookie");
      expect(error.message).toContain(`pagestream_token_${port}`);
      expect(guarded.stderr()).not.toContain("URIError");
    } finally {
      await guarded.stop();
    }
    // On loopback without --token only adding reads the cookie: reading goes on.
    const port = new URL(server.url).port;
    const cookie = `pagestream_token_${port}=%E0%A4%A`;
    expect((await get("/api/archive", { headers: { cookie } })).status).toBe(200);
    const add = await get("/api/add?name=bad-cookie.pdf", { method: "POST", body: await readFile("fixtures/two-pages.pdf"), headers: { cookie, "content-type": "application/pdf" } });
    expect([add.status, ((await add.json()) as ApiError).error.code]).toEqual([400, "bad_cookie"]);
  });

  it("without --token, makes one and prints it: adding a file needs it (401 without, nothing written), reading and extracting do not", async () => {
    expect(server.token).toMatch(/^[\w-]{32}$/);
    const bytes = await readFile("fixtures/two-pages.pdf");
    const add = (headers: Record<string, string>) => get("/api/add?name=Unasked.pdf", { method: "POST", body: bytes, headers: { "content-type": "application/pdf", ...headers } });
    for (const headers of [{}, { authorization: "Bearer wrong" }, { cookie: `pagestream_token_${new URL(server.url).port}=wrong` }]) {
      const refused = await add(headers);
      expect(refused.status, JSON.stringify(headers)).toBe(401);
      expect(((await refused.json()) as ApiError).error.code).toBe("token_required");
    }
    await expect(stat(join(dir, "fixtures/samples/Unasked.pdf"))).rejects.toMatchObject({ code: "ENOENT" });
    expect((await get("/api/archive")).status).toBe(200);
    expect((await get("/api/extract?name=two-pages.pdf", { method: "POST", body: bytes, headers: { "content-type": "application/pdf" } })).status).toBe(200);
    // The printed address sets the cookie the page then adds with.
    const first = await fetch(server.url, { redirect: "manual" });
    expect(first.status).toBe(303);
    const cookie = first.headers.get("set-cookie")!.split(";")[0]!;
    // The page knows whether it can add: with the token (cookie or header) it can; without, it is told why not.
    const info = async (headers: Record<string, string>) => fromWireKeys<ArchiveInfo>(await (await get("/api/archive", { headers })).json());
    expect(await info({})).toMatchObject({ canAdd: false, addNeedsToken: true });
    expect(await info({ cookie })).toMatchObject({ canAdd: true, addNeedsToken: false });
    expect(await info({ authorization: `Bearer ${server.token}` })).toMatchObject({ canAdd: true, addNeedsToken: false });
    expect(await info({ cookie: `pagestream_token_${new URL(server.url).port}=%E0%A4%A` })).toMatchObject({ canAdd: false, addNeedsToken: true });
    expect((await add({ cookie })).status).toBe(201);
    expect(await readFile(join(dir, "fixtures/samples/Unasked.pdf"))).toEqual(bytes);
    await rm(join(dir, "fixtures/samples/Unasked.pdf"));
  });

  it("beyond loopback without --token, needs the token it made and printed on every request", async () => {
    const open = await serve(dir, ["--host", "0.0.0.0"]);
    try {
      expect(open.token).toMatch(/^[\w-]{32}$/);
      expect(open.stderr()).toContain("pagestream: listening on 0.0.0.0, not only this machine: every request needs the token made for this start (give --token or PAGESTREAM_TOKEN to choose one)");
      const port = new URL(open.url).port;
      for (const path of ["/", "/api/archive", "/assets/app.js"]) expect((await fetch(`http://127.0.0.1:${port}${path}`)).status, path).toBe(401);
      const extract = await fetch(`http://127.0.0.1:${port}/api/extract?name=x.pdf`, { method: "POST", body: await readFile("fixtures/two-pages.pdf"), headers: { "content-type": "application/pdf" } });
      expect(extract.status).toBe(401);
      expect((await fetch(`http://127.0.0.1:${port}/api/archive`, { headers: { authorization: `Bearer ${open.token}` } })).status).toBe(200);
    } finally {
      await open.stop();
    }
  });

  it("takes the token from PAGESTREAM_TOKEN too, and warns when it listens beyond loopback", async () => {
    const guarded = await serve(dir, ["--host", "0.0.0.0"], { PAGESTREAM_TOKEN: "from-env" });
    try {
      expect(new URL(guarded.url).searchParams.get("token")).toBe("from-env");
      expect(guarded.stderr()).toContain("pagestream: listening on 0.0.0.0, not only this machine: every request needs the token, and anyone who has it can read the archive");
      const port = new URL(guarded.url).port;
      expect((await fetch(`http://127.0.0.1:${port}/api/archive`)).status).toBe(401);
    } finally {
      await guarded.stop();
    }
  });
});

describe("pagestream serve: OCR pages", () => {
  it("reads the OCR stage's flags and its ocr column when the archive has them: the filter finds them, the page carries them", async () => {
    const ocrDir = await archiveFolder();
    const db = new Database(join(ocrDir, "out/archive.sqlite"));
    const ocr = { engine: "tesseract", version: "5.3.0", languages: ["eng"], dpi: 300, meanConfidence: 87.4, lowConfidenceWords: 3 };
    // The sqlite sink writes pages.ocr (schema 4); the page's facts are set as the ocr stage sets them.
    const doc = db.prepare("SELECT id, document_id FROM documents WHERE uri LIKE '%meeting-minutes.pdf'").get() as { id: number; document_id: string };
    db.prepare(`UPDATE pages SET flags = '["ocr","scan"]', ocr = ? WHERE document_row = ? AND number = 1`).run(JSON.stringify(ocr), doc.id);
    db.prepare(`UPDATE chunks SET flags = '["ocr","scan"]' WHERE document_row = ? AND page_start = 1`).run(doc.id);
    db.close();
    const s = await serve(ocrDir);
    try {
      const only = fromWireKeys<SearchResponse>(await (await fetch(new URL("/api/search?q=committee&only=ocr", s.url))).json());
      const hits = only.groups.flatMap((g) => g.hits);
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.every((h) => h.name === "meeting-minutes.pdf" && h.flags.includes("ocr"))).toBe(true);
      expect(fromWireKeys<SearchResponse>(await (await fetch(new URL("/api/search?q=committee&only=ocr,scan", s.url))).json()).groups.flatMap((g) => g.hits).length).toBe(hits.length);
      const pages = fromWireKeys<DocumentResponse>(await (await fetch(new URL(`/api/documents/${doc.document_id}`, s.url))).json()).pages;
      expect([pages[0]!.ocr, pages[0]!.flags]).toEqual([ocr, ["ocr", "scan"]]);
      expect(pages[1]!.ocr).toBeNull();
      expect(fromWireKeys<ArchiveInfo>(await (await fetch(new URL("/api/archive", s.url))).json()).flags).toEqual(["ocr", "scan"]);
    } finally {
      await s.stop();
      await rm(ocrDir, { recursive: true, force: true });
    }
  });
});

describe("pagestream serve: the command", () => {
  it("exits 2 with a sentence when there is no archive, or the pipeline file is bad", async () => {
    const { spawnSync } = await import("node:child_process");
    const cli = (args: string[]) => spawnSync(process.execPath, [join(process.cwd(), "dist/cli.js"), "serve", "--port", "0", ...args], { cwd: dir, encoding: "utf8" });
    expect(cli(["--db", "nowhere.sqlite"])).toMatchObject({ status: 2, stderr: "pagestream: no archive at nowhere.sqlite (run a pipeline with a sqlite sink first, or give --db)\n" });
    expect(cli(["--pipeline", "missing.yaml"])).toMatchObject({ status: 2, stderr: "pagestream: missing.yaml: the file does not exist\n" });
    await writeFile(join(dir, "bad.yaml"), "source: { type: folder }\nstages: []\nsinks: []\n");
    const bad = cli(["--pipeline", "bad.yaml"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^bad\.yaml:\d+:\d+ /);
    await writeFile(join(dir, "notes.sqlite"), "not a database, just text long enough to look like a file");
    expect(cli(["--db", "notes.sqlite"])).toMatchObject({ status: 2, stderr: "pagestream: notes.sqlite: file is not a database\n" });
  });
});
