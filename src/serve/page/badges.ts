/**
 * A page's facts as badges: what extraction decided and why, so a person can see at a glance
 * why a page's text came out as it did. Badges with more to say open a list (a <details>: by
 * keyboard too); every badge also says it in its title, for a mouse hover.
 */
import type { PageJson } from "../api-types.js";
import { h, plural } from "./dom.js";

type Tone = "info" | "notice" | "warning";

interface Badge {
  text: string;
  tone: Tone;
  /** What hovering tells. */
  title: string;
  /** Lines shown when the badge is opened. */
  details?: string[];
  /** For tests and styling: which fact this is. */
  kind: string;
}

const SCAN_REASONS: Record<string, string> = {
  image_only: "an image of a page, no text",
  no_text: "no selectable text",
  stray_text: "almost no text (a stamp or a page number)",
};

const HYPHEN_REASONS: Record<string, string> = {
  soft_hyphen: "a soft hyphen in the PDF",
  document: "the joined word occurs elsewhere in the document",
  dictionary: "the joined word is in the dictionary",
  case_rule: "a rule of the letters' case",
  lost_hyphen: "the PDF lost its hyphens; only the joined word makes one",
};

export function pageBadges(page: PageJson): Badge[] {
  const badges: Badge[] = [];
  const facts = page.facts;
  if (page.text.length === 0) badges.push({ kind: "empty", text: "No text", tone: "warning", title: "Nothing selectable came out of this page." });
  if (page.flags.includes("scan")) {
    const reason = facts?.scanReason;
    badges.push({ kind: "scan", text: "Scan", tone: "warning", title: `Flagged as a scan: ${reason ? (SCAN_REASONS[reason] ?? reason) : "too little selectable text"}.`, ...(facts?.strayText ? { details: [`Text taken off the page: “${facts.strayText}”`] } : {}) });
  }
  if (page.flags.includes("ocr") || page.ocr) {
    const ocr = page.ocr ?? {};
    const confidence = typeof ocr.meanConfidence === "number" ? `${Math.round(ocr.meanConfidence)}%` : undefined;
    const details = [
      ocr.engine ? `Engine: ${ocr.engine}${ocr.version ? ` ${ocr.version}` : ""}` : undefined,
      ocr.languages?.length ? `Languages: ${ocr.languages.join(", ")}` : undefined,
      ocr.dpi ? `Rendered at ${ocr.dpi} dpi` : undefined,
      confidence ? `Mean word confidence: ${confidence}` : undefined,
      typeof ocr.lowConfidenceWords === "number" ? `${plural(ocr.lowConfidenceWords, "word")} read with low confidence` : undefined,
    ].filter((d): d is string => d !== undefined);
    const low = typeof ocr.meanConfidence === "number" && ocr.meanConfidence < 80;
    badges.push({ kind: "ocr", text: confidence ? `OCR ${confidence}` : "OCR", tone: low ? "warning" : "notice", title: `The text was read from the page's image by OCR${confidence ? `, mean confidence ${confidence}` : ""}.`, ...(details.length ? { details } : {}) });
  }
  if (page.flags.includes("ocr_layer")) badges.push({ kind: "ocr-layer", text: "OCR layer", tone: "notice", title: "The PDF's text is an OCR layer (invisible text over a scanned image), not typeset text." });
  if (facts) {
    const structure = facts.orderSource === "structure";
    badges.push({ kind: "order", text: structure ? "Order: structure" : "Order: geometry", tone: "info", title: structure ? `Reading order from the PDF's tags (${facts.orderReason}).` : `Reading order rebuilt from the positions of the text (${facts.orderReason}).`, details: [`Why: ${facts.orderReason}`] });
    if (facts.columns === "uncertain") badges.push({ kind: "columns", text: "Columns uncertain", tone: "warning", title: "The layout could not be told: the reading order of this page may be wrong." });
    else if (facts.columns > 1) badges.push({ kind: "columns", text: `${facts.columns} columns`, tone: "info", title: `Read as ${facts.columns} columns side by side, each top to bottom.` });
    if (facts.untaggedGlyphs > 0) badges.push({ kind: "untagged", text: `${plural(facts.untaggedGlyphs, "untagged character")}`, tone: "notice", title: "Characters outside every tagged element of this tagged page: placed by position." });
    if (facts.garbled !== undefined) badges.push({ kind: "garbled", text: `Garbled ${Math.round(facts.garbled * 100)}%`, tone: "warning", title: "A share of the characters did not map to Unicode (a broken font encoding)." });
    if (facts.dehyphenated?.length) {
      badges.push({
        kind: "dehyphenated",
        text: plural(facts.dehyphenated.length, "hyphen decided", "hyphens decided"),
        tone: "info",
        title: "Words broken at line ends, and what became of each.",
        details: facts.dehyphenated.map((d) => `${d.left} + ${d.right} → ${d.result} (${HYPHEN_REASONS[d.reason] ?? d.reason})`),
      });
    }
    if (facts.continues) badges.push({ kind: "continues", text: "Continues on next page", tone: "info", title: "The page's last paragraph goes on at the top of the next page (joined in the document text)." });
  }
  const furniture = page.furniture;
  const removed = furniture ? furniture.header.length + furniture.footer.length : 0;
  if (furniture && removed > 0) {
    badges.push({
      kind: "furniture",
      text: `${plural(removed, "line")} of furniture removed`,
      tone: "info",
      title: "Running headers, footers and page numbers taken off the page.",
      details: [...furniture.header.map((l) => `Header: ${l}`), ...furniture.footer.map((l) => `Footer: ${l}`)],
    });
  }
  for (const w of page.warnings) badges.push({ kind: "warning", text: w.code.replaceAll("_", " "), tone: "warning", title: w.message, details: [w.message] });
  return badges;
}

export function badgeList(page: PageJson): HTMLUListElement {
  return h(
    "ul",
    { class: "badges", attrs: { "aria-label": `What extraction decided on page ${page.number}` } },
    ...pageBadges(page).map((b) =>
      h(
        "li",
        { class: `badge tone-${b.tone}`, attrs: { "data-badge": b.kind, title: b.title } },
        b.details?.length ? h("details", null, h("summary", null, b.text), h("ul", { class: "badge-details" }, ...b.details.map((d) => h("li", null, d)))) : h("span", null, b.text),
      ),
    ),
  );
}
