/** The legend of the families present in a model, as HTML. */
import type { GraphModel, NodeFamily } from "./graph-model.js";
import { FAMILY_STYLES, UNSUPPORTED_MARK, UNSUPPORTED_STROKE } from "./palette.js";
import { escapeXml } from "./xml.js";

export function legendHtml(model: GraphModel): string {
  const present = [...new Set(model.nodes.map((n) => n.family))] as NodeFamily[];
  const items = present.map((family) => {
    const style = FAMILY_STYLES[family];
    return `<span><i style="background:${style.fill};border-color:${style.stroke};color:${style.stroke}">${escapeXml(style.glyph)}</i>${escapeXml(style.label)}</span>`;
  });
  items.push(`<span><i style="border-color:#dc2626;border-style:dashed"></i>on error (exception_goto, fail-branch)</span>`);
  if (model.nodes.some((n) => n.unsupported !== undefined)) items.push(`<span><i style="border-color:${UNSUPPORTED_STROKE};border-style:dashed">⚠</i>${escapeXml(UNSUPPORTED_MARK)}</span>`);
  return `<div class="cf-legend">${items.join("")}</div>`;
}
