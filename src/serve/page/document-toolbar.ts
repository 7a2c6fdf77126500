/**
 * The bar over a document's pages: previous and next page, the page number to go to, the zoom of
 * the drawn pages (−, +, fit width) and the original to download. It stays at the top while the
 * pages scroll. Keys, anywhere but in a text field: n / p the next and previous page, + and −
 * zoom, 0 fits the width.
 */
import { h } from "./dom.js";

/** Zoom steps of the drawn pages, as multiples of the width that fits their column. */
export const ZOOM_STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4] as const;

export interface DocumentToolbar {
  element: HTMLElement;
  /** The page the reader is on (the bar's number box follows the scrolling). */
  setPage(number: number): void;
}

export interface ToolbarOptions {
  /** The document's page numbers, in order. */
  pages: readonly number[];
  /** Goes to a page (sets the address's #page-N). */
  go(number: number): void;
  /** Absent when the pages are not drawn (text only): no zoom then. */
  zoom?: (factor: number) => void;
  /** Where the original downloads from, and the file's name; absent when it cannot be read. */
  download?: { href: string; name: string };
}

export function documentToolbar(options: ToolbarOptions): DocumentToolbar {
  const { pages } = options;
  let current = pages[0] ?? 1;
  let zoomIndex = ZOOM_STEPS.indexOf(1);
  const number = h("input", {
    attrs: { type: "number", id: "page-number", min: pages[0] ?? 1, max: pages[pages.length - 1] ?? 1, value: current, inputmode: "numeric", "aria-label": "Page number" },
  });
  const prev = h("button", { attrs: { type: "button", id: "prev-page", title: "Previous page (p)", "aria-keyshortcuts": "p" } }, "← Previous");
  const next = h("button", { attrs: { type: "button", id: "next-page", title: "Next page (n)", "aria-keyshortcuts": "n" } }, "Next →");
  const step = (by: number) => {
    const i = pages.indexOf(current) + by;
    if (i >= 0 && i < pages.length) options.go(pages[i]!);
  };
  prev.addEventListener("click", () => step(-1));
  next.addEventListener("click", () => step(1));
  number.addEventListener("change", () => {
    const wanted = Number(number.value);
    const nearest = pages.reduce((best, p) => (Math.abs(p - wanted) < Math.abs(best - wanted) ? p : best), current);
    options.go(nearest);
  });

  const zoomLevel = h("output", { class: "zoom-level", attrs: { id: "zoom-level", "aria-live": "polite" } }, "100%");
  const zoomOut = h("button", { attrs: { type: "button", id: "zoom-out", title: "Zoom out (−)", "aria-label": "Zoom out", "aria-keyshortcuts": "-" } }, "−");
  const zoomIn = h("button", { attrs: { type: "button", id: "zoom-in", title: "Zoom in (+)", "aria-label": "Zoom in", "aria-keyshortcuts": "+" } }, "+");
  const fit = h("button", { attrs: { type: "button", id: "zoom-fit", title: "Fit the width (0)", "aria-keyshortcuts": "0" } }, "Fit width");
  const setZoom = (index: number) => {
    zoomIndex = Math.max(0, Math.min(ZOOM_STEPS.length - 1, index));
    const factor = ZOOM_STEPS[zoomIndex]!;
    zoomLevel.textContent = `${Math.round(factor * 100)}%`;
    zoomOut.disabled = zoomIndex === 0;
    zoomIn.disabled = zoomIndex === ZOOM_STEPS.length - 1;
    options.zoom?.(factor);
  };
  zoomOut.addEventListener("click", () => setZoom(zoomIndex - 1));
  zoomIn.addEventListener("click", () => setZoom(zoomIndex + 1));
  fit.addEventListener("click", () => setZoom(ZOOM_STEPS.indexOf(1)));

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target as HTMLElement | null;
    if (target?.closest("input, select, textarea, [contenteditable]")) return;
    const action: Record<string, () => void> = { n: () => step(1), p: () => step(-1) };
    if (options.zoom) Object.assign(action, { "+": () => setZoom(zoomIndex + 1), "=": () => setZoom(zoomIndex + 1), "-": () => setZoom(zoomIndex - 1), "0": () => setZoom(ZOOM_STEPS.indexOf(1)) });
    const run = action[event.key];
    if (!run) return;
    event.preventDefault();
    run();
  });

  const setPage = (page: number) => {
    current = page;
    if (document.activeElement !== number) number.value = String(page);
    prev.disabled = pages.indexOf(page) <= 0;
    next.disabled = pages.indexOf(page) >= pages.length - 1;
  };
  setPage(current);
  const element = h(
    "div",
    { class: "document-toolbar", attrs: { role: "toolbar", "aria-label": "Pages" } },
    h("div", { class: "toolbar-group" }, prev, h("label", { class: "page-of" }, "Page ", number, ` of ${pages.length}`), next),
    options.zoom ? h("div", { class: "toolbar-group", attrs: { role: "group", "aria-label": "Zoom of the drawn pages" } }, zoomOut, zoomLevel, zoomIn, fit) : null,
    options.download
      ? h("a", { class: "button", attrs: { id: "download-original", href: options.download.href, download: options.download.name, title: `Download ${options.download.name}` } }, "Download original")
      : null,
  );
  return { element, setPage };
}
