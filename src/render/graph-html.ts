/**
 * `canvasflow graph --format html`: one self-contained page holding the SVG, with pan and zoom,
 * and each node's params shown when it is clicked. No external resource is referenced.
 */
import type { GraphModel } from "./graph-model.js";
import { layoutGraph } from "./layout.js";
import { legendHtml } from "./legend.js";
import { renderSvg } from "./svg.js";
import { VIEWER_SCRIPT, VIEWER_STYLE } from "./viewer.js";
import { escapeXml, jsonForScript } from "./xml.js";

const PAGE_STYLE = `
.cf-main { display: grid; grid-template-columns: 1fr 380px; height: calc(100vh - 80px); }
.cf-main .cf-diagram { height: 100%; }
`;

const PAGE_SCRIPT = `
(function () {
  var data = JSON.parse(document.getElementById('cf-nodes').textContent);
  var panel = document.getElementById('cf-panel');
  window.cfViewer.onNodeClick(function (id) {
    var node = data[id];
    if (!node) return;
    window.cfViewer.select(id);
    panel.textContent = '';
    var h = document.createElement('h2'); h.textContent = node.name; panel.appendChild(h);
    var p = document.createElement('div'); p.className = 'muted'; p.textContent = node.id + ' \\u00b7 ' + node.type; panel.appendChild(p);
    if (node.unsupported) { var u = document.createElement('div'); u.className = 'unsupported'; u.textContent = '\u26a0 not supported by canvasflow: ' + node.unsupported; panel.appendChild(u); }
    if (node.container) { var c = document.createElement('div'); c.className = 'muted'; c.textContent = 'inside ' + node.container; panel.appendChild(c); }
    window.cfViewer.section(panel, 'params', node.params);
  });
})();
`;

export async function renderGraphHtml(model: GraphModel, options: { title?: string } = {}): Promise<string> {
  const svg = renderSvg(await layoutGraph(model));
  const details = Object.fromEntries(model.nodes.map((n) => [n.id, { id: n.id, name: n.name, type: n.type, container: n.container, unsupported: n.unsupported, params: n.params }]));
  const title = options.title ?? "canvas";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeXml(title)} · canvasflow graph</title>
<style>${VIEWER_STYLE}${PAGE_STYLE}</style></head>
<body>
<header><h1>${escapeXml(title)}</h1><span class="sub">${model.nodes.length} components · drag to pan, wheel to zoom, click a component for its params</span></header>
${legendHtml(model)}
<div class="cf-main"><div class="cf-diagram"><div class="cf-stage">${svg}</div></div>
<aside class="cf-panel" id="cf-panel"><p class="muted">Click a component to see its params.</p></aside></div>
<script type="application/json" id="cf-nodes">${jsonForScript(details)}</script>
<script>${VIEWER_SCRIPT}</script>
<script>${PAGE_SCRIPT}</script>
</body></html>
`;
}
