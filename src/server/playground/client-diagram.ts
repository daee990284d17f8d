/**
 * The playground's diagram (browser JS, as text): the agent's SVG from src/render (escaped there),
 * parsed as XML and stripped of anything active before it joins the page, then its nodes marked
 * as a run's events arrive: running, done, failed, paused.
 */
export const CLIENT_DIAGRAM = String.raw`
var NODE_STATES = ['running', 'done', 'failed', 'paused'];

/** Drop what could run code: script and foreignObject elements, on* attributes, javascript: links. */
function inertSvg(root) {
  var active = root.querySelectorAll('script, foreignObject');
  for (var i = 0; i < active.length; i++) active[i].remove();
  var all = [root].concat(Array.prototype.slice.call(root.querySelectorAll('*')));
  for (var j = 0; j < all.length; j++) {
    var attributes = Array.prototype.slice.call(all[j].attributes);
    for (var k = 0; k < attributes.length; k++) {
      var name = attributes[k].name.toLowerCase();
      var value = attributes[k].value.replace(/\s+/g, '').toLowerCase();
      if (name.indexOf('on') === 0 || ((name === 'href' || name === 'xlink:href') && value.indexOf('javascript:') === 0)) all[j].removeAttribute(attributes[k].name);
    }
  }
  return root;
}

function showDiagram(host, svgText) {
  var doc = new DOMParser().parseFromString(svgText, 'image/svg+xml');
  var svg = doc.documentElement;
  if (!svg || svg.nodeName.toLowerCase() !== 'svg' || doc.querySelector('parsererror')) throw new Error('The server sent a diagram that is not an SVG document.');
  inertSvg(svg);
  var shown = document.importNode(svg, true);
  // Scaled to the pane: the viewBox keeps the proportions.
  shown.removeAttribute('width');
  shown.removeAttribute('height');
  shown.setAttribute('preserveAspectRatio', 'xMidYMin meet');
  host.replaceChildren(shown);
}

function diagramNode(id) {
  return document.querySelector('#pg-diagram g.node[data-id="' + CSS.escape(id) + '"]');
}

function markNode(id, state) {
  var node = diagramNode(id);
  if (!node) return;
  for (var i = 0; i < NODE_STATES.length; i++) node.classList.remove('pg-' + NODE_STATES[i]);
  node.classList.add('pg-' + state);
  node.setAttribute('data-run-state', state);
}

function clearMarks() {
  var marked = document.querySelectorAll('#pg-diagram g.node[data-run-state]');
  for (var i = 0; i < marked.length; i++) {
    for (var j = 0; j < NODE_STATES.length; j++) marked[i].classList.remove('pg-' + NODE_STATES[j]);
    marked[i].removeAttribute('data-run-state');
  }
}

/** A pause: what was still running waits on the user. */
function markRunningAsPaused() {
  var running = document.querySelectorAll('#pg-diagram g.node[data-run-state="running"]');
  for (var i = 0; i < running.length; i++) markNode(running[i].getAttribute('data-id'), 'paused');
}
`;
