/**
 * What a filled form shows that its content stream does not hold: AcroForm field values and the
 * text of free-text annotations are drawn by their annotations' appearance streams, which
 * `getTextContent` never reads. Each becomes text items at its widget's place, so layout puts a
 * value after its label like any other text on the line:
 * - a text field's value (a multi-line one line by line from the top of its box);
 * - a combo box's chosen value; a list box's options, each marked chosen or not;
 * - a check box as ☒ (checked) or ☐, a radio button as ◉ (chosen) or ○;
 * - a free-text annotation's lines.
 * Empty fields, push buttons, signature fields and hidden annotations add nothing, and the boxes
 * of a page where nothing is filled in add no states (a blank form's boxes say nothing).
 *
 * A value's baseline is its label's when a line of the page's own text runs through the
 * widget's box to its left (a field is set beside its label); otherwise where pdf.js says the
 * appearance draws its text, or the box's middle. Its width is estimated at half an em a
 * character: which column and which line it belongs to is all that layout asks of it.
 */
import type { PdfTextItem } from "./text-runs.js";

/** The fields of a pdf.js annotation (`page.getAnnotations()`) that forms are read from. */
export interface PdfAnnotation {
  subtype?: string;
  rect?: number[];
  annotationFlags?: number;
  hidden?: boolean;
  fieldType?: string;
  fieldValue?: unknown;
  exportValue?: string;
  buttonValue?: string;
  checkBox?: boolean;
  radioButton?: boolean;
  pushButton?: boolean;
  combo?: boolean;
  multiLine?: boolean;
  options?: { exportValue?: string; displayValue?: string }[];
  textContent?: string[];
  textPosition?: number[] | null;
  defaultAppearanceData?: { fontSize?: number };
}

/** The name form items carry as their font: no font of the page's content draws them. */
export const FORM_FONT = "form-field";

/** Annotation flags Hidden (bit 2) and NoView (bit 6): such an annotation is not shown. */
const NOT_SHOWN = 2 | 32;
/** A field's font size when its appearance says "auto" (0): this share of its box's height, at most 12 pt. */
const AUTO_SIZE_SHARE = 0.7;
const MAX_AUTO_SIZE = 12;
/** Estimated advance of a character, in ems (Helvetica's average lower-case letter). */
const CHAR_EMS = 0.5;
/** Line pitch of a multi-line field or a list box, in ems. */
const LINE_PITCH_EMS = 1.15;

const CHECKED = "☒";
const UNCHECKED = "☐";
const CHOSEN = "◉";
const NOT_CHOSEN = "○";

export function formItems(annotations: readonly PdfAnnotation[], pageItems: readonly { str: string; transform: number[] }[]): PdfTextItem[] {
  const out: PdfTextItem[] = [];
  // A blank form's boxes say nothing: states are written only on a page where something was filled in.
  const shown = annotations.filter((a) => a.rect && a.rect.length >= 4 && !a.hidden && !((a.annotationFlags ?? 0) & NOT_SHOWN));
  const filled = shown.some(isFilled);
  for (const a of shown) {
    const rect = a.rect!;
    const [x1, y1, x2, y2] = [Math.min(rect[0]!, rect[2]!), Math.min(rect[1]!, rect[3]!), Math.max(rect[0]!, rect[2]!), Math.max(rect[1]!, rect[3]!)];
    const box = { x1, y1, x2, y2 };
    const lines = linesOf(a, filled);
    if (lines.length === 0) continue;
    const size = fontSize(a, box, lines.length);
    const pad = a.textPosition?.[0] ?? 2;
    if (lines.length === 1) {
      const baseline = labelBaseline(box, pageItems) ?? (a.textPosition ? y1 + a.textPosition[1]! : y1 + (y2 - y1 - 0.75 * size) / 2);
      out.push(item(lines[0]!, x1 + pad, baseline, size));
      continue;
    }
    // Lines from the top of the box down, as a multi-line field or a list box shows them.
    lines.forEach((line, i) => {
      if (line) out.push(item(line, x1 + pad, y2 - (i + 0.9) * LINE_PITCH_EMS * size, size));
    });
  }
  return out;
}

function item(str: string, x: number, y: number, size: number): PdfTextItem {
  return { str, transform: [size, 0, 0, size, x, y], width: [...str].length * CHAR_EMS * size, height: size, fontName: FORM_FONT, form: true };
}

/** A field with a value, a box checked, an option chosen. */
function isFilled(a: PdfAnnotation): boolean {
  if (a.subtype !== "Widget") return false;
  const value = a.fieldValue;
  if (a.fieldType === "Btn") return (a.checkBox || a.radioButton) === true && typeof value === "string" && value !== "Off" && value !== "";
  if (Array.isArray(value)) return value.some((v) => typeof v === "string" && v.trim() !== "");
  return typeof value === "string" && value.trim() !== "";
}

/** What the annotation shows, line by line; `marks`: check boxes and options show their state. */
function linesOf(a: PdfAnnotation, marks: boolean): string[] {
  if (a.subtype === "FreeText") return (a.textContent ?? []).map((t) => t.trim());
  if (a.subtype !== "Widget") return [];
  const value = a.fieldValue;
  switch (a.fieldType) {
    case "Tx": {
      const text = Array.isArray(value) ? value.join("\n") : typeof value === "string" ? value : "";
      return text.trim() ? text.split(/\r\n|\r|\n/) : [];
    }
    case "Ch": {
      const chosen = new Set((Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === "string"));
      const options = a.options ?? [];
      const label = (o: { exportValue?: string; displayValue?: string }) => (o.displayValue ?? o.exportValue ?? "").trim();
      const isChosen = (o: { exportValue?: string; displayValue?: string }) => chosen.has(o.exportValue ?? "") || chosen.has(o.displayValue ?? "") || chosen.has(label(o));
      if (a.combo) {
        const picked = options.find(isChosen);
        const text = picked ? label(picked) : [...chosen][0] ?? "";
        return text ? [text] : [];
      }
      return options.map((o) => (marks ? `${isChosen(o) ? CHECKED : UNCHECKED} ${label(o)}` : label(o)));
    }
    case "Btn": {
      if (!marks || a.pushButton || (!a.checkBox && !a.radioButton)) return [];
      const on = typeof value === "string" && value !== "Off" && value !== "";
      if (a.radioButton) return [on && value === a.buttonValue ? CHOSEN : NOT_CHOSEN];
      return [on && (a.exportValue === undefined || value === a.exportValue || value === "Yes" || value === "On") ? CHECKED : UNCHECKED];
    }
    default:
      return [];
  }
}

function fontSize(a: PdfAnnotation, box: { y1: number; y2: number }, lines: number): number {
  const given = a.defaultAppearanceData?.fontSize;
  if (given && given > 0) return given;
  return Math.min(MAX_AUTO_SIZE, (AUTO_SIZE_SHARE * (box.y2 - box.y1)) / lines);
}

/** The baseline of the page's own text that runs through the box's height to its left: the field's label. */
function labelBaseline(box: { x1: number; y1: number; y2: number }, pageItems: readonly { str: string; transform: number[] }[]): number | undefined {
  let best: { y: number; x: number } | undefined;
  for (const it of pageItems) {
    if (!it.str?.trim()) continue;
    const x = it.transform[4]!;
    const y = it.transform[5]!;
    if (y < box.y1 || y > box.y2 || x >= box.x1) continue;
    if (!best || x > best.x) best = { y, x };
  }
  return best?.y;
}
