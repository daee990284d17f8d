/**
 * The script and style of the HTML views: pan (drag) and zoom (wheel, buttons) of the diagram, and
 * a side panel showing a clicked node's details. Plain DOM, inlined into each page: no network.
 * Details are put in with textContent only, so no value from a DSL or a run is parsed as HTML.
 */

export const VIEWER_STYLE = `
* { box-sizing: border-box; }
body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", "Noto Sans", sans-serif; color: #0f172a; background: #f8fafc; }
header { padding: 10px 16px; background: #0f172a; color: #f8fafc; display: flex; gap: 16px; align-items: baseline; }
header h1 { font-size: 16px; margin: 0; }
header .sub { font-size: 13px; color: #cbd5e1; }
.cf-diagram { position: relative; overflow: hidden; background: #fff; border: 1px solid #e2e8f0; cursor: grab; touch-action: none; }
.cf-diagram.dragging { cursor: grabbing; }
.cf-diagram .cf-stage { transform-origin: 0 0; position: absolute; left: 0; top: 0; }
.cf-zoom { position: absolute; right: 8px; top: 8px; display: flex; gap: 4px; z-index: 2; }
.cf-zoom button { width: 30px; height: 30px; border: 1px solid #cbd5e1; background: #fff; border-radius: 6px; font-size: 15px; cursor: pointer; }
.cf-panel { background: #fff; border-left: 1px solid #e2e8f0; padding: 12px 16px; overflow: auto; font-size: 13px; }
.cf-panel h2 { font-size: 15px; margin: 0 0 4px; word-break: break-all; }
.cf-panel h3 { font-size: 13px; margin: 14px 0 4px; color: #334155; }
.cf-panel pre { background: #f1f5f9; padding: 8px; border-radius: 6px; white-space: pre-wrap; word-break: break-word; max-height: 40vh; overflow: auto; margin: 0; }
.cf-panel .muted { color: #64748b; }
.cf-panel .unsupported { color: #b91c1c; margin: 4px 0; }
.cf-legend { display: flex; flex-wrap: wrap; gap: 6px 12px; font-size: 12px; padding: 6px 16px; }
.cf-legend span { display: inline-flex; align-items: center; gap: 4px; }
.cf-legend i { display: inline-block; width: 18px; height: 14px; border-radius: 3px; border: 1.5px solid; font-style: normal; text-align: center; line-height: 12px; font-size: 11px; }
`;

/**
 * Pan and zoom for every `.cf-diagram` (holding a `.cf-stage` with the SVG), and
 * `cfSelect(id)` to mark a node as selected. Exposed on window as `cfViewer`.
 */
export const VIEWER_SCRIPT = `
(function () {
  function setup(host) {
    var stage = host.querySelector('.cf-stage');
    var svg = stage.querySelector('svg');
    var s = 1, tx = 0, ty = 0;
    function apply() { stage.style.transform = 'translate(' + tx + 'px,' + ty + 'px) scale(' + s + ')'; }
    function fit() {
      var w = svg.width.baseVal.value || 1, h = svg.height.baseVal.value || 1;
      // A host marked cf-autoheight takes the diagram's proportions (within limits), so a wide,
      // flat canvas is not drawn tiny in the middle of a tall empty box.
      if (host.classList.contains('cf-autoheight')) {
        host.style.height = Math.max(180, Math.min(640, host.clientWidth * h / w + 24)) + 'px';
      }
      var r = host.getBoundingClientRect();
      s = Math.min(r.width / w, r.height / h, 1.5) * 0.96;
      tx = (r.width - w * s) / 2; ty = (r.height - h * s) / 2; apply();
    }
    function zoomAt(f, cx, cy) {
      var ns = Math.max(0.05, Math.min(8, s * f));
      tx = cx - (cx - tx) * (ns / s); ty = cy - (cy - ty) * (ns / s); s = ns; apply();
    }
    host.addEventListener('wheel', function (e) {
      e.preventDefault();
      var r = host.getBoundingClientRect();
      zoomAt(e.deltaY < 0 ? 1.15 : 1 / 1.15, e.clientX - r.left, e.clientY - r.top);
    }, { passive: false });
    var drag = null;
    host.addEventListener('pointerdown', function (e) {
      if (e.target.closest('.cf-zoom')) return;
      drag = { x: e.clientX, y: e.clientY, tx: tx, ty: ty, moved: false };
    });
    window.addEventListener('pointermove', function (e) {
      if (!drag) return;
      var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 3) { drag.moved = true; host.classList.add('dragging'); }
      tx = drag.tx + dx; ty = drag.ty + dy; apply();
    });
    window.addEventListener('pointerup', function () {
      if (drag && drag.moved) host.dataset.justDragged = '1';
      drag = null; host.classList.remove('dragging');
      setTimeout(function () { delete host.dataset.justDragged; }, 0);
    });
    var bar = document.createElement('div');
    bar.className = 'cf-zoom';
    [['+', function () { var r = host.getBoundingClientRect(); zoomAt(1.25, r.width / 2, r.height / 2); }],
     ['\\u2212', function () { var r = host.getBoundingClientRect(); zoomAt(0.8, r.width / 2, r.height / 2); }],
     ['\\u2922', fit]].forEach(function (b) {
      var btn = document.createElement('button'); btn.type = 'button'; btn.textContent = b[0]; btn.title = b[0] === '\\u2922' ? 'fit' : 'zoom';
      btn.addEventListener('click', b[1]); bar.appendChild(btn);
    });
    host.appendChild(bar);
    fit();
    window.addEventListener('resize', fit);
  }
  function nodes(id) {
    return Array.prototype.filter.call(document.querySelectorAll('.cf-graph .node'), function (n) { return n.getAttribute('data-id') === id; });
  }
  window.cfViewer = {
    select: function (id) {
      Array.prototype.forEach.call(document.querySelectorAll('.cf-graph .node.selected'), function (n) { n.classList.remove('selected'); });
      nodes(id).forEach(function (n) { n.classList.add('selected'); });
    },
    onNodeClick: function (handler) {
      Array.prototype.forEach.call(document.querySelectorAll('.cf-graph .node'), function (n) {
        n.addEventListener('click', function (e) {
          var host = n.closest('.cf-diagram');
          if (host && host.dataset.justDragged) return;
          e.stopPropagation();
          handler(n.getAttribute('data-id'));
        });
      });
    },
    /** Appends a heading and a preformatted value to el. */
    section: function (el, title, value) {
      var h = document.createElement('h3'); h.textContent = title; el.appendChild(h);
      var pre = document.createElement('pre');
      pre.textContent = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
      el.appendChild(pre);
    }
  };
  Array.prototype.forEach.call(document.querySelectorAll('.cf-diagram'), setup);
})();
`;
