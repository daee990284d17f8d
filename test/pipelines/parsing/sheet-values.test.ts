import { describe, expect, it } from "vitest";
import { cellText, excelDate, isDateFormat, numberValue, pythonFloat } from "../../../src/pipelines/parsing/sheet-values.js";

describe("pythonFloat", () => {
  it("writes floats as Python's repr does", () => {
    expect(pythonFloat(0.1)).toBe("0.1");
    expect(pythonFloat(5)).toBe("5.0");
    expect(pythonFloat(-2.5)).toBe("-2.5");
    expect(pythonFloat(0.0001)).toBe("0.0001");
    expect(pythonFloat(0.00001)).toBe("1e-05");
    expect(pythonFloat(1.5e-7)).toBe("1.5e-07");
    expect(pythonFloat(1e15)).toBe("1000000000000000.0");
    expect(pythonFloat(1e16)).toBe("1e+16");
    expect(pythonFloat(123456789012345680)).toBe("1.2345678901234568e+17");
    expect(pythonFloat(1234.5678)).toBe("1234.5678");
    expect(pythonFloat(0)).toBe("0.0");
    expect(pythonFloat(Number.NaN)).toBe("nan");
  });
});

describe("numberValue", () => {
  it("casts as openpyxl does: '.', 'e' or 'E' make a float", () => {
    expect(numberValue("42")).toEqual({ kind: "int", text: "42" });
    expect(numberValue("007")).toEqual({ kind: "int", text: "7" });
    expect(numberValue("12345678901234567890")).toEqual({ kind: "int", text: "12345678901234567890" });
    expect(cellText(numberValue("3.0")!)).toBe("3.0");
    expect(cellText(numberValue("1E3")!)).toBe("1000.0");
    expect(numberValue("")).toBeUndefined();
  });
});

describe("excelDate", () => {
  it("turns serials into Python datetimes and times as openpyxl does", () => {
    expect(excelDate(45306, false)).toEqual({ kind: "date", text: "2024-01-15 00:00:00" });
    expect(excelDate(45306.5, false)).toEqual({ kind: "date", text: "2024-01-15 12:00:00" });
    expect(excelDate(0.25, false)).toEqual({ kind: "date", text: "06:00:00" });
    expect(excelDate(1, false)).toEqual({ kind: "date", text: "1900-01-01 00:00:00" });
    expect(excelDate(61, false)).toEqual({ kind: "date", text: "1900-03-01 00:00:00" });
    expect(excelDate(0, true)).toEqual({ kind: "date", text: "00:00:00" });
    expect(excelDate(1, true)).toEqual({ kind: "date", text: "1904-01-02 00:00:00" });
    expect(excelDate(45306.0000001, false)).toEqual({ kind: "date", text: "2024-01-15 00:00:00.009000" });
  });
});

describe("isDateFormat", () => {
  it("knows Excel's built-in date formats and reads custom codes", () => {
    expect(isDateFormat(14, undefined)).toBe(true);
    expect(isDateFormat(2, undefined)).toBe(false);
    expect(isDateFormat(164, "yyyy-mm-dd")).toBe(true);
    expect(isDateFormat(165, '0.00 "days"')).toBe(false);
    expect(isDateFormat(166, "[Red]0.00")).toBe(false);
    expect(isDateFormat(167, "General")).toBe(false);
    expect(isDateFormat(168, "h:mm;@")).toBe(true);
  });
});
