import { describe, expect, it } from "vitest";
import { lineJoiner } from "../../src/text/line-join.js";

describe("lineJoiner", () => {
  it("joins lines of Chinese and Japanese with nothing between them", () => {
    expect(lineJoiner("持分法の適用範囲", "の変動")).toBe("");
    expect(lineJoiner("营业收入同比增长", "百分之十二。")).toBe("");
    expect(lineJoiner("第一四半期（", "連結）")).toBe("");
  });

  it("keeps a space where either side is written with spaces: Latin, digits, Korean", () => {
    expect(lineJoiner("the harbour", "dues")).toBe(" ");
    expect(lineJoiner("売上高", "2024")).toBe(" ");
    expect(lineJoiner("Revenue", "売上高")).toBe(" ");
    expect(lineJoiner("카드 혜택", "안내")).toBe(" ");
  });

  it("looks past spaces at the ends, and reads a character outside the BMP whole", () => {
    expect(lineJoiner("営業利益  ", "  の推移")).toBe("");
    expect(lineJoiner("𠮷野家", "の店舗")).toBe("");
    expect(lineJoiner("店舗𠮷", "野家")).toBe("");
    expect(lineJoiner("", "の")).toBe(" ");
  });
});
