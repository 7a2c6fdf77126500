/**
 * The search view: the form (query and filters, sent as the page's own address, so every
 * search can be bookmarked and shared), the hits grouped by document, best first, and paging;
 * with `document=`, one document's hits. Without a query, the start page (start-page.ts).
 */
import type { ArchiveInfo, DocumentHitsJson, SearchHitJson, SearchResponse } from "../api-types.js";
import { ApiFailure, getJson } from "./api.js";
import { h, markedText, mark, pageRange, plural } from "./dom.js";
import { startPage } from "./start-page.js";

/** The search as the address holds it. */
interface SearchState {
  q: string;
  page: number;
  /** Only this document's hits (its documentId). */
  document: string;
  folder: string;
  only: string[];
  from: string;
  to: string;
  substring: boolean;
}

function readState(params: URLSearchParams): SearchState {
  return {
    q: params.get("q") ?? "",
    page: Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1),
    document: /^[0-9a-f]{64}$/.test(params.get("document") ?? "") ? params.get("document")! : "",
    folder: params.get("folder") ?? "",
    only: params.getAll("only").filter((o) => o === "scan" || o === "ocr"),
    from: params.get("from") ?? "",
    to: params.get("to") ?? "",
    substring: params.get("substring") === "1",
  };
}

/** The page's address for a search (the form writes the same). */
export function searchHref(state: Partial<SearchState>): string {
  const params = new URLSearchParams();
  if (state.q) params.set("q", state.q);
  if (state.folder) params.set("folder", state.folder);
  for (const o of state.only ?? []) params.append("only", o);
  if (state.from) params.set("from", state.from);
  if (state.to) params.set("to", state.to);
  if (state.substring) params.set("substring", "1");
  if (state.document) params.set("document", state.document);
  if (state.page && state.page > 1) params.set("page", String(state.page));
  const query = params.toString();
  return query ? `/?${query}` : "/";
}

/** The API's parameters for a search: dates are whole local days. */
function apiParams(state: SearchState): URLSearchParams {
  const params = new URLSearchParams({ q: state.q, page: String(state.page) });
  if (state.document) params.set("document", state.document);
  if (state.folder) params.set("folder", state.folder);
  if (state.only.length) params.set("only", [...new Set(state.only)].join(","));
  const day = (date: string, plusDays = 0) => {
    const d = new Date(`${date}T00:00:00`);
    d.setDate(d.getDate() + plusDays);
    return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
  };
  const since = state.from ? day(state.from) : undefined;
  const before = state.to ? day(state.to, 1) : undefined;
  if (since) params.set("since", since);
  if (before) params.set("before", before);
  if (state.substring) params.set("substring", "1");
  return params;
}

export async function searchView(main: HTMLElement, info: ArchiveInfo): Promise<void> {
  const state = readState(new URLSearchParams(location.search));
  document.title = state.q ? `${state.q} — pagestream` : "Search — pagestream";
  const status = h("p", { class: "status", attrs: { role: "status", "aria-live": "polite" } });
  const results = h("div", { class: "results" });
  main.replaceChildren(h("section", { class: "search", attrs: { "aria-label": "Search" } }, searchForm(state, info), status, results));
  const input = main.querySelector<HTMLInputElement>("#q")!;
  if (!state.q) {
    input.focus();
    results.replaceChildren(startPage(info, new URLSearchParams(location.search)));
    return;
  }
  status.textContent = "Searching…";
  try {
    const response = await getJson<SearchResponse>(`/api/search?${apiParams(state)}`);
    showHits(results, status, response, state);
  } catch (err) {
    status.textContent = "";
    const failure = err instanceof ApiFailure ? err : undefined;
    results.replaceChildren(h("div", { class: "notice error", attrs: { role: "alert", "data-code": failure?.code ?? "error" } }, h("strong", null, failure?.status === 400 ? "This query cannot be searched: " : "The search failed: "), (err as Error).message));
  }
}

function searchForm(state: SearchState, info: ArchiveInfo): HTMLFormElement {
  const filtered = Boolean(state.folder || state.only.length || state.from || state.to || state.substring);
  const checkbox = (name: string, value: string, label: string, checked: boolean) =>
    h("label", { class: "check" }, h("input", { attrs: { type: "checkbox", name, value, checked } }), ` ${label}`);
  const hasOcr = info.flags.some((f) => f === "ocr" || f === "ocr_layer");
  return h(
    "form",
    { class: "search-form", attrs: { role: "search", method: "get", action: "/" } },
    h("label", { class: "search-label", attrs: { for: "q" } }, "Search the archive"),
    h(
      "div",
      { class: "search-row" },
      h("input", { attrs: { type: "search", id: "q", name: "q", value: state.q, autocomplete: "off", spellcheck: "false", "aria-describedby": "syntax", maxlength: info.queryLimits.maxChars, required: true } }),
      h("button", { class: "primary", attrs: { type: "submit" } }, "Search"),
    ),
    state.document ? h("input", { attrs: { type: "hidden", name: "document", value: state.document } }) : null,
    h("p", { class: "hint", attrs: { id: "syntax" } }, "All words must appear. ", h("code", null, '"a phrase"'), ", ", h("code", null, "prefix*"), " (3+ letters), ", h("code", null, "OR"), ", ", h("code", null, "NOT"), " and ", h("code", null, "( )"), " in capitals."),
    h(
      "details",
      { class: "filters", attrs: { open: filtered } },
      h("summary", null, filtered ? "Filters (on)" : "Filters"),
      h(
        "div",
        { class: "filter-grid" },
        h(
          "div",
          { class: "field" },
          h("label", { attrs: { for: "folder" } }, "In folder"),
          h("input", { attrs: { id: "folder", name: "folder", value: state.folder, list: "folders", placeholder: "any folder", autocomplete: "off" } }),
          h("datalist", { attrs: { id: "folders" } }, ...info.folders.map((f) => h("option", { attrs: { value: f } }))),
        ),
        h(
          "fieldset",
          { class: "field" },
          h("legend", null, "Only text from"),
          checkbox("only", "scan", "scanned pages", state.only.includes("scan")),
          checkbox("only", "ocr", `OCR${hasOcr ? "" : " (none in this archive)"}`, state.only.includes("ocr")),
        ),
        h(
          "div",
          { class: "field dates" },
          h("label", { attrs: { for: "from" } }, "Added from"),
          h("input", { attrs: { type: "date", id: "from", name: "from", value: state.from } }),
          h("label", { attrs: { for: "to" } }, "to"),
          h("input", { attrs: { type: "date", id: "to", name: "to", value: state.to } }),
        ),
        info.substring ? h("div", { class: "field" }, checkbox("substring", "1", "Match inside words (substring)", state.substring)) : null,
      ),
    ),
  );
}

function showHits(results: HTMLElement, status: HTMLElement, response: SearchResponse, state: SearchState): void {
  const pager = h(
    "nav",
    { class: "pager", attrs: { "aria-label": response.within ? "Pages of matches" : "Pages of documents" } },
    response.page > 1 ? h("a", { attrs: { href: searchHref({ ...state, page: response.page - 1 }), rel: "prev" } }, "← Previous") : h("span", { class: "disabled" }, "← Previous"),
    h("span", { class: "page-number" }, `Page ${response.page}`),
    response.more ? h("a", { attrs: { href: searchHref({ ...state, page: response.page + 1 }), rel: "next" } }, "Next →") : h("span", { class: "disabled" }, "Next →"),
  );
  const within = response.within;
  const back = within ? h("p", { class: "crumbs" }, h("a", { attrs: { href: searchHref({ ...state, document: "", page: 1 }) } }, `← Matches for “${response.query}” in every document`)) : null;
  if (response.groups.length === 0) {
    status.textContent = `${response.page > 1 ? "No more matches" : "No matches"} for “${response.query}”${within ? ` in ${within.title || within.name}` : ""}.`;
    results.replaceChildren(...(back ? [back] : []));
    return;
  }
  const first = (response.page - 1) * response.pageSize + 1;
  if (within) {
    const hits = response.groups[0]!.hits;
    status.textContent = `${response.page > 1 || response.more ? `Matches ${first}–${first + hits.length - 1}` : plural(hits.length, "match", "matches")} for “${response.query}” in ${within.title || within.name}, best first.`;
    results.replaceChildren(back!, h("ol", { class: "hits", attrs: { start: first } }, ...hits.map((hit) => hitItem(hit, state, true))), pager);
    return;
  }
  const count = response.groups.length;
  status.textContent = `${response.page > 1 || response.more ? `Documents ${first}–${first + count - 1}` : plural(count, "document")} matching “${response.query}”, best first.`;
  results.replaceChildren(h("ol", { class: "hits", attrs: { start: first } }, ...response.groups.map((group) => documentItem(group, state))), pager);
}

/** The address of a document opened at a hit: the page lands on its chunk (see hit-landing.ts). */
function hitHref(hit: SearchHitJson, state: SearchState): string {
  const params = new URLSearchParams({ q: state.q });
  if (state.substring) params.set("substring", "1");
  params.set("chunk", hit.chunkId);
  return `/documents/${hit.documentId}?${params}#page-${hit.pages[0]}`;
}

/** A document among the hits: its best hit, a further one if it shows other matches, and how many more. */
function documentItem(group: DocumentHitsJson, state: SearchState): HTMLLIElement {
  const [best, ...others] = group.hits;
  const more = group.more.matches;
  const pages = group.more.pages;
  /** Pages listed after "N more matches"; past them, "…". */
  const listed = 8;
  const morePages = pages.length ? ` (${pages.length === 1 ? "p." : "pp."} ${pages.slice(0, listed).join(", ")}${pages.length > listed ? ", …" : ""})` : "";
  return h(
    "li",
    { class: "hit", attrs: { "data-document": group.documentId } },
    h("h3", { class: "hit-title" }, h("a", { attrs: { href: hitHref(best!, state) } }, group.title || group.name)),
    h("p", { class: "hit-meta" }, h("span", { class: "hit-path" }, group.path), ...hitFacts(best!)),
    h("p", { class: "snippet" }, ...snippetNodes(best!)),
    ...others.map((hit) => h("div", { class: "also" }, h("a", { class: "also-pages", attrs: { href: hitHref(hit, state) } }, pageRange(hit.pages)), " ", h("span", { class: "snippet" }, ...snippetNodes(hit)))),
    more > 0
      ? h("p", { class: "more-in-document" }, h("a", { attrs: { href: searchHref({ ...state, document: group.documentId, page: 1 }) } }, `${plural(more, "more match", "more matches")} in this document`), morePages)
      : null,
  );
}

/** One hit of a document searched alone. */
function hitItem(hit: SearchHitJson, state: SearchState, withinDocument: boolean): HTMLLIElement {
  return h(
    "li",
    { class: "hit" },
    h("h3", { class: "hit-title" }, h("a", { attrs: { href: hitHref(hit, state) } }, withinDocument ? pageRange(hit.pages) : hit.title || hit.name)),
    h("p", { class: "hit-meta" }, ...hitFacts(hit)),
    h("p", { class: "snippet" }, ...snippetNodes(hit)),
  );
}

function snippetNodes(hit: SearchHitJson): Node[] {
  return markedText(
    hit.snippet,
    hit.highlights.map(([start, end]) => ({ start, end, wrap: mark })),
  );
}

/** The hit's pages (with their printed labels where they differ) and its flags. */
function hitFacts(hit: SearchHitJson): HTMLElement[] {
  const labels = hit.pageLabels.length && hit.pageLabels.join(",") !== pagesList(hit.pages) ? ` (printed ${hit.pageLabels.join(", ")})` : "";
  const flags = hit.flags.filter((f) => f === "scan" || f === "ocr" || f === "ocr_layer" || f === "columns_uncertain");
  return [h("span", { class: "hit-pages" }, `${pageRange(hit.pages)}${labels}`), ...flags.map((f) => h("span", { class: "flag", attrs: { "data-flag": f } }, f.replaceAll("_", " ")))];
}

function pagesList([first, last]: readonly [number, number]): string {
  return Array.from({ length: last - first + 1 }, (_, i) => String(first + i)).join(",");
}
