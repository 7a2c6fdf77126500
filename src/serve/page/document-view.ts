/**
 * A document: its header (title, where it is, when it was archived, its warnings), a bar to move
 * between pages, zoom the drawn pages and download the original, and its pages, each page's text
 * beside the page itself drawn from the original — or, when the server cannot reach the
 * original, the text alone and a sentence saying why. Opened from a hit (`?q=…&chunk=…`), it
 * lands on the hit: see hit-landing.ts.
 */
import type { DocumentResponse } from "../api-types.js";
import { ApiFailure, getJson, getOriginal, originalUrl } from "./api.js";
import { documentToolbar } from "./document-toolbar.js";
import { h, plural } from "./dom.js";
import { markHit } from "./hit-landing.js";
import { NARROW, pageView, type PageView } from "./page-view.js";
import { PdfPages } from "./pdf-pages.js";
import { searchHref } from "./search-view.js";

/** How long a zoom waits for the next click before the pages are drawn again (ms). */
const REDRAW_DELAY_MS = 150;

export async function documentView(main: HTMLElement, documentId: string): Promise<void> {
  const params = new URLSearchParams(location.search);
  const q = params.get("q") ?? "";
  const substring = params.get("substring") === "1";
  const chunk = params.get("chunk") ?? "";
  const openedAt = location.hash;
  main.replaceChildren(h("p", { class: "status", attrs: { role: "status" } }, "Loading the document…"));
  let doc: DocumentResponse;
  try {
    const query = new URLSearchParams();
    if (q) query.set("q", q);
    if (q && substring) query.set("substring", "1");
    if (chunk) query.set("chunk", chunk);
    doc = await getJson<DocumentResponse>(`/api/documents/${encodeURIComponent(documentId)}${query.size ? `?${query}` : ""}`);
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
  const views = doc.pages.map((p) => pageView(p, { original: doc.original.available, current: doc.focus?.ranges.filter((r) => r.page === p.number) ?? [] }));
  const byNumber = new Map(views.map((v, i) => [doc.pages[i]!.number, v]));
  const matched = doc.pages.filter((p) => p.matches.length > 0).map((p) => p.number);
  let pdf: PdfPages | undefined;
  let redraw: ReturnType<typeof setTimeout> | undefined;
  const article = h("article", { class: "document" });
  const toolbar = documentToolbar({
    pages: doc.pages.map((p) => p.number),
    go: (number) => {
      location.hash = `page-${number}`;
      // The same address again (the page scrolled away since) fires no hashchange.
      scrollToHash();
      toolbar.setPage(number);
    },
    ...(doc.original.available
      ? {
          zoom: (factor: number) => {
            // Each drawn page keeps the point at the middle of its frame where it is.
            const frames = [...article.querySelectorAll<HTMLElement>(".page-frame")].map((f) => ({
              f,
              x: (f.scrollLeft + f.clientWidth / 2) / (f.scrollWidth || 1),
              y: (f.scrollTop + f.clientHeight / 2) / (f.scrollHeight || 1),
            }));
            article.style.setProperty("--zoom", String(factor));
            article.classList.toggle("zoomed", factor > 1);
            for (const { f, x, y } of frames) {
              f.scrollLeft = x * f.scrollWidth - f.clientWidth / 2;
              f.scrollTop = y * f.scrollHeight - f.clientHeight / 2;
            }
            clearTimeout(redraw);
            redraw = setTimeout(() => pdf?.redraw(), REDRAW_DELAY_MS);
          },
          download: { href: originalUrl(doc.documentId), name: doc.name },
        }
      : {}),
  });
  const jump = h(
    "select",
    { attrs: { id: "jump" }, on: { change: () => (location.hash = `page-${jump.value}`) } },
    ...doc.pages.map((p) => h("option", { attrs: { value: p.number } }, `Page ${p.number}${p.label && p.label !== String(p.number) ? ` (${p.label})` : ""}${p.matches.length ? " ★" : ""}`)),
  );
  main.replaceChildren(
    h(
      "div",
      { class: "document-frame" },
      article,
    ),
  );
  article.append(
      h(
        "header",
        { class: "document-header" },
        q ? h("p", { class: "crumbs" }, h("a", { attrs: { href: searchHref({ q, substring }) } }, `← Matches for “${q}”`), " · ", h("a", { attrs: { href: searchHref({ q, substring, document: doc.documentId }) } }, "All matches in this document")) : null,
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
      toolbar.element,
      h("ol", { class: "pages" }, ...views.map((v) => v.element)),
  );
  originalNote.hidden = true;
  followScrolling(views, toolbar.setPage);
  // Turning a phone on its side unfolds the originals; back upright folds them again.
  NARROW.addEventListener("change", () => {
    for (const d of main.querySelectorAll<HTMLDetailsElement>("details.page-original")) d.open = !NARROW.matches;
  });
  scrollToHash();
  window.addEventListener("hashchange", scrollToHash);
  if (!doc.original.available) return;
  try {
    pdf = await PdfPages.open(await getOriginal(doc.documentId));
  } catch (err) {
    for (const v of views) v.surface?.sheet.closest(".page-original")?.remove();
    for (const body of main.querySelectorAll(".page-body.with-original")) body.classList.remove("with-original");
    originalNote.textContent = `Text only: the original pages are not shown because ${(err as Error).message}.`;
    originalNote.hidden = false;
    return;
  }
  const hashPage = Number(/^#page-(\d+)$/.exec(location.hash)?.[1]) || undefined;
  const attached = new Map(views.map((v, i) => [doc.pages[i]!.number, v.surface ? pdf!.attach(v.surface) : Promise.resolve()]));
  if (!q) return;
  // The pages landed on must have their proportions before their marks are placed and scrolled to.
  const landing = doc.focus ? [...doc.focus.boxes.map((b) => b.page), ...doc.focus.ranges.map((r) => r.page)] : hashPage ? [hashPage] : [];
  await Promise.all(landing.map((n) => attached.get(n)));
  const target = await markHit(pdf, byNumber, doc, hashPage);
  // Not when the reader has gone elsewhere meanwhile.
  if (target && location.hash === openedAt) {
    // The hit's words in the text to the middle of the screen: the drawn page beside them stays
    // in view (it is sticky within its row). Where it does not (a page zoomed past the screen),
    // the mark on the drawn page goes to the middle instead.
    const inText = main.querySelector<HTMLElement>(`#page-${target.closest("[id^=page-]")?.id.slice("page-".length) ?? ""} mark.current`);
    (inText ?? target).scrollIntoView({ block: "center", inline: "nearest" });
    if (!onScreen(target)) target.scrollIntoView({ block: "center", inline: "center" });
    target.closest(".page-sheet")?.setAttribute("data-landed", "true");
  }
}

/** True when all of `element` is on the screen, below the bar. */
function onScreen(element: HTMLElement): boolean {
  const box = element.getBoundingClientRect();
  const bar = document.querySelector(".document-toolbar")?.getBoundingClientRect().bottom ?? 0;
  return box.top >= bar && box.bottom <= window.innerHeight && box.left >= 0 && box.right <= window.innerWidth;
}

/** Tells the bar which page is at the top of the screen as the reader scrolls. */
function followScrolling(views: readonly PageView[], setPage: (number: number) => void): void {
  let queued = false;
  const update = () => {
    queued = false;
    // The page under the bar; at the end of the document, where the last pages cannot reach the
    // top, the last one whose top is on the screen.
    const top = 120;
    const atEnd = window.scrollY > 0 && window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
    const onScreen = atEnd
      ? views.findLast((v) => v.element.getBoundingClientRect().top < window.innerHeight - top)
      : views.find((v) => v.element.getBoundingClientRect().bottom > top);
    const page = onScreen ?? views[views.length - 1];
    if (page) setPage(Number(page.element.id.slice("page-".length)));
  };
  window.addEventListener("scroll", () => {
    if (!queued) requestAnimationFrame(update);
    queued = true;
  }, { passive: true });
  update();
}

function scrollToHash(): void {
  const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
  if (!target) return;
  target.scrollIntoView({ block: "start" });
  const select = document.getElementById("jump") as HTMLSelectElement | null;
  if (select) select.value = target.id.slice("page-".length);
}
