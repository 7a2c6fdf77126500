/**
 * The page's entry: reads the view from the address (`/` search, `/documents/<id>` a
 * document, `/extract` a dropped PDF) and draws it. Every view is an address, so the browser's
 * back button, bookmarks and shared links work as they do on any site.
 */
import type { ArchiveInfo } from "../api-types.js";
import { getJson } from "./api.js";
import { documentView } from "./document-view.js";
import { h, plural } from "./dom.js";
import { extractView } from "./extract-view.js";
import { searchView } from "./search-view.js";

async function start(): Promise<void> {
  const main = document.getElementById("main")!;
  const path = location.pathname.replace(/\/+$/, "") || "/";
  const view = path.startsWith("/documents/") ? "document" : path === "/extract" ? "extract" : "search";
  for (const link of document.querySelectorAll<HTMLAnchorElement>(".views a")) {
    if (link.dataset.view === view || (view === "document" && link.dataset.view === "search")) link.setAttribute("aria-current", "page");
  }
  let info: ArchiveInfo;
  try {
    info = await getJson<ArchiveInfo>("/api/archive");
  } catch (err) {
    main.replaceChildren(h("div", { class: "notice error", attrs: { role: "alert" } }, (err as Error).message));
    return;
  }
  document.getElementById("archive-info")!.textContent = `${plural(info.documents, "document")} · ${plural(info.pages, "page")}`;
  if (view === "document") await documentView(main, decodeURIComponent(path.slice("/documents/".length)));
  else if (view === "extract") extractView(main, info);
  else await searchView(main, info);
  document.body.dataset.ready = "true";
}

void start();
