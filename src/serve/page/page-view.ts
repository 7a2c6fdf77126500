/**
 * One page of a document: its number and printed label, its badges, its text (the query's
 * matches marked, the words dehyphenation joined underlined, with the decision on hover and
 * focus) and, beside it, the page itself drawn from the original.
 */
import type { PageJson } from "../api-types.js";
import { badgeList } from "./badges.js";
import { h, mark, markedText } from "./dom.js";

/** The layout's one breakpoint (styles.css says the same). */
export const NARROW = window.matchMedia("(max-width: 760px)");

export interface PageView {
  element: HTMLElement;
  /** Puts other text in the text column (a dropped PDF in the other mode). */
  setText(text: string, withJoins: boolean): void;
  /** The canvas for the original page; absent when the view shows text only. */
  canvas: HTMLCanvasElement | undefined;
}

export function pageView(page: PageJson, options: { original: boolean }): PageView {
  const id = `page-${page.number}`;
  const text = h("div", { class: "page-text", attrs: { tabindex: 0, role: "region", "aria-label": `Text of page ${page.number}` } });
  const setText = (value: string, withJoins: boolean) => {
    text.replaceChildren(...(value ? pageTextNodes(value, page, withJoins) : [h("p", { class: "empty-text" }, "This page has no text.")]));
  };
  setText(page.text, true);
  const canvas = options.original ? h("canvas", { attrs: { role: "img", "aria-label": `Page ${page.number} of the original PDF` } }) : undefined;
  // Beside the text on a wide screen; on a phone, under it and folded until asked for (it is
  // drawn when opened).
  const original = canvas
    ? h("details", { class: "page-original", attrs: { open: !NARROW.matches } }, h("summary", null, `Original page ${page.number}`), canvas)
    : null;
  const element = h(
    "li",
    { class: "page", attrs: { id, "aria-labelledby": `${id}-heading` } },
    h("header", { class: "page-header" }, h("h2", { attrs: { id: `${id}-heading` } }, `Page ${page.number}`, page.label && page.label !== String(page.number) ? h("span", { class: "printed-label" }, ` (printed ${page.label})`) : null), badgeList(page)),
    h("div", { class: canvas ? "page-body with-original" : "page-body" }, text, original),
  );
  return { element, setText, canvas };
}

/** The page text with the matches marked and the joined words shown. */
function pageTextNodes(value: string, page: PageJson, withJoins: boolean): Node[] {
  const spans: { start: number; end: number; wrap: (t: string) => Node }[] = page.matches.map(([start, end]) => ({ start, end, wrap: mark }));
  // Joins are listed in reading order: each is looked for after the one before.
  let from = 0;
  for (const d of withJoins ? (page.facts?.dehyphenated ?? []) : []) {
    const at = value.indexOf(d.result, from);
    if (at < 0) continue;
    from = at + d.result.length;
    if (spans.some((s) => s.start < from && s.end > at)) continue;
    const tip = `${d.left} + ${d.right} → ${d.result}: ${d.reason.replaceAll("_", " ")}`;
    spans.push({ start: at, end: from, wrap: (t) => h("span", { class: "join", attrs: { title: tip, "data-tip": tip, tabindex: 0 } }, t) });
  }
  return markedText(value, spans);
}
