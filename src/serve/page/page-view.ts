/**
 * One page of a document: its number and printed label, its badges, its text (the query's
 * matches marked, the words dehyphenation joined underlined, with the decision on hover and
 * focus) and, beside it, the page itself drawn from the original.
 */
import type { PageJson } from "../api-types.js";
import { badgeList } from "./badges.js";
import { h, mark, markedText } from "./dom.js";
import type { PageRect } from "./page-marks.js";
import type { PageSurface } from "./pdf-pages.js";

/** The layout's one breakpoint (styles.css says the same). */
export const NARROW = window.matchMedia("(max-width: 760px)");

export interface PageView {
  element: HTMLElement;
  /** Puts other text in the text column (a dropped PDF in the other mode). */
  setText(text: string, withJoins: boolean): void;
  /** Where the original page is drawn; absent when the view shows text only. */
  surface: PageSurface | undefined;
  /** Puts marks over the drawn page: the hit's chunk (`box`), its matched words (`word`), other matches (`other`). */
  mark(rects: readonly PageRect[], kind: "box" | "word" | "other"): HTMLElement[];
}

/**
 * `current`: the stretches of the page's text that belong to the hit opened (its chunk's own
 * text on this page), whose matches are marked more strongly than the page's others.
 */
export function pageView(page: PageJson, options: { original: boolean; current?: readonly { start: number; end: number }[] }): PageView {
  const id = `page-${page.number}`;
  const text = h("div", { class: "page-text", attrs: { tabindex: 0, role: "region", "aria-label": `Text of page ${page.number}` } });
  const setText = (value: string, withJoins: boolean) => {
    text.replaceChildren(...(value ? pageTextNodes(value, page, withJoins, options.current ?? []) : [h("p", { class: "empty-text" }, "This page has no text.")]));
  };
  setText(page.text, true);
  let surface: PageSurface | undefined;
  let original: HTMLElement | null = null;
  const marks = h("div", { class: "page-marks", attrs: { "aria-hidden": "true" } });
  if (options.original) {
    const canvas = h("canvas", { attrs: { role: "img", "aria-label": `Page ${page.number} of the original PDF` } });
    const state = h("p", { class: "page-state", attrs: { role: "status" } });
    const sheet = h("div", { class: "page-sheet" }, canvas, marks, state);
    surface = { number: page.number, sheet, canvas, state };
    // Beside the text on a wide screen; on a phone, under it and folded until asked for (it is
    // drawn when opened). The frame scrolls a page zoomed past its width.
    original = h("details", { class: "page-original", attrs: { open: !NARROW.matches } }, h("summary", null, `Original page ${page.number}`), h("div", { class: "page-frame" }, sheet));
  }
  const markRects = (rects: readonly PageRect[], kind: "box" | "word" | "other") =>
    rects.map((r) => {
      const el = h("div", { class: `page-mark mark-${kind}` });
      el.style.left = `${r.left * 100}%`;
      el.style.top = `${r.top * 100}%`;
      el.style.width = `${r.width * 100}%`;
      el.style.height = `${r.height * 100}%`;
      marks.append(el);
      return el;
    });
  const element = h(
    "li",
    { class: "page", attrs: { id, "aria-labelledby": `${id}-heading` } },
    h("header", { class: "page-header" }, h("h2", { attrs: { id: `${id}-heading` } }, `Page ${page.number}`, page.label && page.label !== String(page.number) ? h("span", { class: "printed-label" }, ` (printed ${page.label})`) : null), badgeList(page)),
    h("div", { class: surface ? "page-body with-original" : "page-body" }, text, original),
  );
  return { element, setText, surface, mark: markRects };
}

/** The page text with the matches marked (those of the hit opened as `current`) and the joined words shown. */
function pageTextNodes(value: string, page: PageJson, withJoins: boolean, current: readonly { start: number; end: number }[]): Node[] {
  const spans: { start: number; end: number; wrap: (t: string) => Node }[] = page.matches.map(([start, end]) => ({
    start,
    end,
    wrap: current.some((c) => start >= c.start && start < c.end) ? (t: string) => h("mark", { class: "current" }, t) : mark,
  }));
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
