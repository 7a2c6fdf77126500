/**
 * The search view: the form (query and filters, sent as the page's own address, so every
 * search can be bookmarked and shared), the hits best first, and paging.
 */
import type { ArchiveInfo, SearchHitJson, SearchResponse } from "../api-types.js";
import { ApiFailure, getJson } from "./api.js";
import { h, markedText, mark, pageRange, plural } from "./dom.js";

/** The search as the address holds it. */
interface SearchState {
  q: string;
  page: number;
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
  if (state.page && state.page > 1) params.set("page", String(state.page));
  const query = params.toString();
  return query ? `/?${query}` : "/";
}

/** The API's parameters for a search: dates are whole local days. */
function apiParams(state: SearchState): URLSearchParams {
  const params = new URLSearchParams({ q: state.q, page: String(state.page) });
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
    results.replaceChildren(welcome(info));
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

function welcome(info: ArchiveInfo): HTMLElement {
  const example = (q: string) => h("li", null, h("a", { attrs: { href: searchHref({ q }) } }, h("code", null, q)));
  return h(
    "div",
    { class: "welcome" },
    h("p", null, info.documents ? `${plural(info.documents, "document")}, ${plural(info.pages, "page")}, ${plural(info.chunks, "chunk")} in ${info.archive}.` : `${info.archive} holds no documents yet: run the pipeline first.`),
    h("p", null, "Examples of what a query can say:"),
    h("ul", { class: "examples" }, example('"written notice"'), example("harbour OR port"), example("dredg*"), example("notice NOT draft")),
  );
}

function showHits(results: HTMLElement, status: HTMLElement, response: SearchResponse, state: SearchState): void {
  const first = (response.page - 1) * response.pageSize + 1;
  if (response.hits.length === 0) {
    status.textContent = response.page > 1 ? `No more matches for “${response.query}”.` : `No matches for “${response.query}”.`;
    results.replaceChildren();
    return;
  }
  status.textContent = `${response.page > 1 || response.more ? `Matches ${first}–${first + response.hits.length - 1}` : plural(response.hits.length, "match", "matches")} for “${response.query}”, best first.`;
  const list = h("ol", { class: "hits", attrs: { start: first } }, ...response.hits.map((hit) => hitItem(hit, state)));
  const pager = h(
    "nav",
    { class: "pager", attrs: { "aria-label": "Pages of matches" } },
    response.page > 1 ? h("a", { attrs: { href: searchHref({ ...state, page: response.page - 1 }), rel: "prev" } }, "← Previous") : h("span", { class: "disabled" }, "← Previous"),
    h("span", { class: "page-number" }, `Page ${response.page}`),
    response.more ? h("a", { attrs: { href: searchHref({ ...state, page: response.page + 1 }), rel: "next" } }, "Next →") : h("span", { class: "disabled" }, "Next →"),
  );
  results.replaceChildren(list, pager);
}

function hitItem(hit: SearchHitJson, state: SearchState): HTMLLIElement {
  const href = `/documents/${hit.documentId}?q=${encodeURIComponent(state.q)}${state.substring ? "&substring=1" : ""}#page-${hit.pages[0]}`;
  const snippet = markedText(
    hit.snippet,
    hit.highlights.map(([start, end]) => ({ start, end, wrap: mark })),
  );
  const labels = hit.pageLabels.length && hit.pageLabels.join(",") !== pagesList(hit.pages) ? ` (printed ${hit.pageLabels.join(", ")})` : "";
  const flags = hit.flags.filter((f) => f === "scan" || f === "ocr" || f === "ocr_layer" || f === "columns_uncertain");
  return h(
    "li",
    { class: "hit" },
    h("h3", { class: "hit-title" }, h("a", { attrs: { href } }, hit.title || hit.name)),
    h(
      "p",
      { class: "hit-meta" },
      h("span", { class: "hit-path" }, hit.path),
      h("span", { class: "hit-pages" }, `${pageRange(hit.pages)}${labels}`),
      ...flags.map((f) => h("span", { class: "flag", attrs: { "data-flag": f } }, f.replaceAll("_", " "))),
    ),
    h("p", { class: "snippet" }, ...snippet),
  );
}

function pagesList([first, last]: readonly [number, number]): string {
  return Array.from({ length: last - first + 1 }, (_, i) => String(first + i)).join(",");
}
