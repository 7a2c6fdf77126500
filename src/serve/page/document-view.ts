/**
 * A document: its header (title, where it is, when it was archived, its warnings) and its
 * pages, each page's text beside the page itself drawn from the original — or, when the server
 * cannot reach the original, the text alone and a sentence saying why.
 */
import type { DocumentResponse } from "../api-types.js";
import { ApiFailure, getJson, getOriginal } from "./api.js";
import { h, plural } from "./dom.js";
import { NARROW, pageView } from "./page-view.js";
import { PdfPages } from "./pdf-pages.js";

export async function documentView(main: HTMLElement, documentId: string): Promise<void> {
  const params = new URLSearchParams(location.search);
  const q = params.get("q") ?? "";
  main.replaceChildren(h("p", { class: "status", attrs: { role: "status" } }, "Loading the document…"));
  let doc: DocumentResponse;
  try {
    doc = await getJson<DocumentResponse>(`/api/documents/${encodeURIComponent(documentId)}${q ? `?q=${encodeURIComponent(q)}` : ""}`);
  } catch (err) {
    document.title = "Not found — pagestream";
    main.replaceChildren(
      h("div", { class: "notice error", attrs: { role: "alert" } }, h("strong", null, err instanceof ApiFailure && err.status === 404 ? "No such document. " : "The document could not be loaded. "), (err as Error).message),
      h("p", null, h("a", { attrs: { href: "/" } }, "Search the archive")),
    );
    return;
  }
  document.title = `${doc.title || doc.name} — pagestream`;
  const originalNote = h("p", { class: "notice", attrs: { role: "note", id: "original-note" } });
  const views = doc.pages.map((p) => pageView(p, { original: doc.original.available }));
  const matched = doc.pages.filter((p) => p.matches.length > 0).map((p) => p.number);
  const jump = h(
    "select",
    { attrs: { id: "jump" }, on: { change: () => (location.hash = `page-${jump.value}`) } },
    ...doc.pages.map((p) => h("option", { attrs: { value: p.number } }, `Page ${p.number}${p.label && p.label !== String(p.number) ? ` (${p.label})` : ""}${p.matches.length ? " ★" : ""}`)),
  );
  main.replaceChildren(
    h(
      "article",
      { class: "document" },
      h(
        "header",
        { class: "document-header" },
        q ? h("p", { class: "crumbs" }, h("a", { attrs: { href: `/?q=${encodeURIComponent(q)}` } }, `← Matches for “${q}”`)) : null,
        h("h1", null, doc.title || doc.name),
        h(
          "dl",
          { class: "document-facts" },
          h("dt", null, "File"),
          h("dd", null, h("code", null, doc.path), doc.paths.length > 1 ? ` (also at ${doc.paths.slice(1).join(", ")})` : null),
          h("dt", null, "Pages"),
          h("dd", null, `${doc.pageCount ?? doc.pages.length}${doc.status === "scan" ? " · a scan" : ""}`),
          h("dt", null, "Archived"),
          h("dd", null, h("time", { attrs: { datetime: doc.ingestedAt } }, new Date(doc.ingestedAt).toLocaleString())),
          h("dt", null, "Document id"),
          h("dd", null, h("code", { attrs: { title: doc.documentId } }, doc.documentId.slice(0, 16) + "…")),
          q ? h("dt", null, "Matches") : null,
          q ? h("dd", null, matched.length ? `“${q}” on ${plural(matched.length, "page")}: ${matched.join(", ")}` : `“${q}” is not on these pages`) : null,
        ),
        doc.warnings.length ? h("ul", { class: "document-warnings", attrs: { "aria-label": "Warnings" } }, ...doc.warnings.map((w) => h("li", { class: "notice warning" }, w.message))) : null,
        doc.original.available ? originalNote : h("p", { class: "notice", attrs: { role: "note" } }, `Text only: the original pages are not shown because ${doc.original.reason}.`),
        h("p", { class: "jump" }, h("label", { attrs: { for: "jump" } }, "Go to "), jump),
      ),
      h("ol", { class: "pages" }, ...views.map((v) => v.element)),
    ),
  );
  originalNote.hidden = true;
  // Turning a phone on its side unfolds the originals; back upright folds them again.
  NARROW.addEventListener("change", () => {
    for (const d of main.querySelectorAll<HTMLDetailsElement>("details.page-original")) d.open = !NARROW.matches;
  });
  scrollToHash();
  window.addEventListener("hashchange", scrollToHash);
  if (!doc.original.available) return;
  try {
    const pages = await PdfPages.open(await getOriginal(doc.documentId));
    for (const v of views) if (v.canvas) pages.attach(v.canvas, Number(v.element.id.slice("page-".length)));
  } catch (err) {
    for (const v of views) v.canvas?.closest(".page-original")?.remove();
    for (const body of main.querySelectorAll(".page-body.with-original")) body.classList.remove("with-original");
    originalNote.textContent = `Text only: the original pages are not shown because ${(err as Error).message}.`;
    originalNote.hidden = false;
  }
}

function scrollToHash(): void {
  const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
  if (!target) return;
  target.scrollIntoView({ block: "start" });
  const select = document.getElementById("jump") as HTMLSelectElement | null;
  if (select) select.value = target.id.slice("page-".length);
}
