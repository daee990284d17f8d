/**
 * Text measured without a browser: a width estimate per character (wide for CJK and emoji), and
 * clipping to a number of characters. Boxes are sized from it with margin to spare.
 */

/** Characters that take about twice the width of a Latin letter (CJK, Hangul, fullwidth forms, emoji). */
function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    code >= 0x1f300
  );
}

/** Estimated width in px of `text` at `fontSize` px in a sans-serif font. */
export function textWidth(text: string, fontSize: number): number {
  let units = 0;
  for (const ch of text) units += isWide(ch.codePointAt(0)!) ? 1.05 : 0.62;
  return Math.ceil(units * fontSize);
}

/** `text` cut to `max` characters, with an ellipsis when cut; whitespace runs become one space. */
export function clip(text: string, max: number): string {
  const chars = [...text.replace(/\s+/g, " ").trim()];
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : chars.join("");
}
