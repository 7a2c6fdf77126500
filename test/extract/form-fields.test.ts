import { describe, expect, it } from "vitest";
import { formItems, type PdfAnnotation } from "../../src/stages/extract/form-fields.js";

const label = (str: string, x: number, y: number) => ({ str, transform: [11, 0, 0, 11, x, y] });
const widget = (a: Partial<PdfAnnotation>): PdfAnnotation => ({ subtype: "Widget", rect: [166, 674, 316, 688], ...a });
const texts = (items: ReturnType<typeof formItems>) => items.map((it) => ({ str: it.str, x: it.transform[4], y: it.transform[5] }));

describe("form fields", () => {
  it("puts a text field's value on its label's baseline, inside the field's box", () => {
    const items = formItems([widget({ fieldType: "Tx", fieldValue: "Lucía", textPosition: [2, 4.16] })], [label("First name:", 56.8, 681)]);
    expect(texts(items)).toEqual([{ str: "Lucía", x: 168, y: 681 }]);
    expect(items[0]!.form).toBe(true);
  });

  it("writes a combo box's chosen value, a list box's options with their states, check boxes and radio buttons", () => {
    const annotations = [
      widget({ fieldType: "Ch", combo: true, fieldValue: ["Spain"], options: [{ exportValue: "no", displayValue: "Norway" }, { exportValue: "Spain", displayValue: "Spain" }] }),
      widget({ fieldType: "Ch", combo: false, fieldValue: ["oracle"], rect: [57, 405, 157, 477], options: [{ exportValue: "oracle", displayValue: "Oracle" }, { exportValue: "pg", displayValue: "PostgreSQL" }] }),
      widget({ fieldType: "Btn", checkBox: true, fieldValue: "Yes", exportValue: "Yes", rect: [58, 500, 69, 511] }),
      widget({ fieldType: "Btn", checkBox: true, fieldValue: "Off", exportValue: "Yes", rect: [155, 500, 166, 511] }),
      widget({ fieldType: "Btn", radioButton: true, fieldValue: "b", buttonValue: "a", rect: [72, 366, 90, 384] }),
      widget({ fieldType: "Btn", radioButton: true, fieldValue: "b", buttonValue: "b", rect: [72, 343, 90, 361] }),
    ];
    expect(formItems(annotations, []).map((it) => it.str)).toEqual(["Spain", "☒ Oracle", "☐ PostgreSQL", "☒", "☐", "○", "◉"]);
  });

  it("writes a multi-line value line by line from the top of its box, and a free-text annotation's lines", () => {
    const items = formItems(
      [widget({ fieldType: "Tx", fieldValue: "Several\nJobs", rect: [59, 194, 210, 282], defaultAppearanceData: { fontSize: 10 } }), { subtype: "FreeText", rect: [58, 387, 140, 401], textContent: ["Education Level:"], textPosition: [0, 3.9], defaultAppearanceData: { fontSize: 11 } }],
      [],
    );
    expect(texts(items).map((t) => t.str)).toEqual(["Several", "Jobs", "Education Level:"]);
    expect(items[0]!.transform[5]).toBeGreaterThan(items[1]!.transform[5]!);
  });

  it("adds nothing for empty fields, push buttons, hidden annotations, or the boxes of a blank form", () => {
    const annotations = [
      widget({ fieldType: "Tx", fieldValue: "" }),
      widget({ fieldType: "Btn", pushButton: true, fieldValue: "" }),
      widget({ fieldType: "Tx", fieldValue: "secret", hidden: true }),
      widget({ fieldType: "Tx", fieldValue: "no view", annotationFlags: 32 }),
      widget({ fieldType: "Btn", checkBox: true, fieldValue: "Off", exportValue: "Yes" }),
    ];
    expect(formItems(annotations, [])).toEqual([]);
  });
});
