/** Markdown blocks as an HTML document (DocGenerator's "html" format), every text escaped. */
import type { Block, Run } from "./markdown-blocks.js";

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function runsHtml(runs: readonly Run[]): string {
  return runs
    .map((r) => {
      const text = escapeHtml(r.text);
      if (r.code) return `<code>${text}</code>`;
      if (r.bold) return `<strong>${text}</strong>`;
      if (r.italic) return `<em>${text}</em>`;
      return text;
    })
    .join("");
}

export function blocksHtml(blocks: readonly Block[], title: string): string {
  const body: string[] = [];
  let list: "ul" | "ol" | undefined;
  const closeList = () => {
    if (list) body.push(`</${list}>`);
    list = undefined;
  };
  for (const block of blocks) {
    if (block.kind === "item") {
      const kind = block.ordered ? "ol" : "ul";
      if (list !== kind) {
        closeList();
        body.push(`<${kind}>`);
        list = kind;
      }
      body.push(`<li>${runsHtml(block.runs)}</li>`);
      continue;
    }
    closeList();
    if (block.kind === "heading") body.push(`<h${block.level}>${runsHtml(block.runs)}</h${block.level}>`);
    else if (block.kind === "paragraph") body.push(`<p>${runsHtml(block.runs)}</p>`);
    else if (block.kind === "code") body.push(`<pre><code>${escapeHtml(block.text)}</code></pre>`);
    else if (block.kind === "rule") body.push("<hr>");
    else {
      const row = (cells: string[], tag: string) => `<tr>${cells.map((c) => `<${tag}>${escapeHtml(c)}</${tag}>`).join("")}</tr>`;
      body.push(`<table><thead>${row(block.header, "th")}</thead><tbody>${block.rows.map((r) => row(r, "td")).join("")}</tbody></table>`);
    }
  }
  closeList();
  return `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>\n${body.join("\n")}\n</body></html>\n`;
}
