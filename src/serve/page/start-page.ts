/**
 * The start page, under the search form before anything is asked: what the archive holds,
 * example queries made from its own words (each finds something here), and its documents,
 * newest first, 20 a page (`?docs=N` in the address).
 */
import type { ArchiveInfo, DocumentListResponse, ExamplesResponse } from "../api-types.js";
import { getJson } from "./api.js";
import { h, plural } from "./dom.js";

export function startPage(info: ArchiveInfo, params: URLSearchParams): HTMLElement {
  const page = Math.max(1, Number.parseInt(params.get("docs") ?? "1", 10) || 1);
  const examples = h("div", { class: "examples-block" });
  const documents = h("section", { class: "document-list", attrs: { "aria-labelledby": "documents-heading" } });
  const element = h(
    "div",
    { class: "welcome" },
    h("p", null, info.documents ? `${plural(info.documents, "document")}, ${plural(info.pages, "page")}, ${plural(info.chunks, "chunk")} in ${info.archive}.` : `${info.archive} holds no documents yet: run the pipeline first.`),
    examples,
    documents,
  );
  if (info.documents === 0) return element;
  void getJson<ExamplesResponse>("/api/examples").then(
    ({ queries }) => {
      if (queries.length === 0) return;
      const example = (q: string) => h("li", null, h("a", { attrs: { href: `/?${new URLSearchParams({ q })}` } }, h("code", null, q)));
      examples.replaceChildren(h("p", null, "Try a query made from this archive's words:"), h("ul", { class: "examples" }, ...queries.map(example)));
    },
    () => {},
  );
  void getJson<DocumentListResponse>(`/api/documents?page=${page}`).then(
    (list) => documents.replaceChildren(...documentList(list)),
    (err: Error) => documents.replaceChildren(h("p", { class: "notice error", attrs: { role: "alert" } }, `The documents could not be listed: ${err.message}`)),
  );
  return element;
}

function documentList(list: DocumentListResponse): Node[] {
  const first = (list.page - 1) * list.pageSize + 1;
  const last = first + list.documents.length - 1;
  const pages = Math.max(1, Math.ceil(list.total / list.pageSize));
  const href = (page: number) => (page > 1 ? `/?docs=${page}` : "/");
  return [
    h("h2", { attrs: { id: "documents-heading" } }, "Documents, newest first"),
    list.documents.length
      ? h(
          "ol",
          { class: "documents", attrs: { start: first } },
          ...list.documents.map((d) =>
            h(
              "li",
              { class: "listed-document" },
              h("a", { attrs: { href: `/documents/${d.documentId}` } }, d.title || d.name),
              h(
                "span",
                { class: "hit-meta" },
                h("span", { class: "hit-path" }, d.path),
                d.pages !== null ? h("span", null, plural(d.pages, "page")) : null,
                h("time", { attrs: { datetime: d.ingestedAt } }, new Date(d.ingestedAt).toLocaleDateString()),
              ),
            ),
          ),
        )
      : h("p", null, "No documents on this page."),
    h(
      "nav",
      { class: "pager", attrs: { "aria-label": "Pages of documents" } },
      list.page > 1 ? h("a", { attrs: { href: href(list.page - 1), rel: "prev" } }, "← Newer") : h("span", { class: "disabled" }, "← Newer"),
      h("span", { class: "page-number" }, list.documents.length ? `${first}–${last} of ${list.total}` : `Page ${list.page} of ${pages}`),
      list.page < pages ? h("a", { attrs: { href: href(list.page + 1), rel: "next" } }, "Older →") : h("span", { class: "disabled" }, "Older →"),
    ),
  ];
}
