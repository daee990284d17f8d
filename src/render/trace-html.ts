/**
 * `renderTrace(events)`: one self-contained HTML page per run: a Gantt timeline of every component
 * run (overlapping bars are a parallel batch; errors, retries, pauses and repeated rounds marked), the
 * diagram with the path taken highlighted and the rest greyed, each step's inputs, outputs,
 * elapsed time, tokens and error on click, and the streamed messages in order. Opens offline.
 */
import type { CanvasEvent } from "../engine/events.js";
import type { GraphModel } from "./graph-model.js";
import { layoutGraph } from "./layout.js";
import { legendHtml } from "./legend.js";
import { edgeKey, renderSvg, type NodeRunState } from "./svg.js";
import { traceModel, type TraceModel, type TraceStep } from "./trace-model.js";
import { VIEWER_SCRIPT, VIEWER_STYLE } from "./viewer.js";
import { escapeXml, jsonForScript } from "./xml.js";

export interface TraceOptions {
  /** The canvas's graph model: without it the trace has no diagram. */
  readonly graph?: GraphModel;
  readonly title?: string;
  /** The components a pause waits on (a paused canvas's `pending.components`). */
  readonly pausedAt?: readonly string[];
}

const TRACE_STYLE = `
.cf-trace { display: grid; grid-template-columns: minmax(0, 1fr) 400px; gap: 0; min-height: calc(100vh - 44px); }
.cf-trace main { padding: 12px 16px; overflow: hidden; }
.cf-trace aside { position: sticky; top: 0; height: 100vh; }
section h2 { font-size: 14px; margin: 14px 0 6px; color: #334155; text-transform: uppercase; letter-spacing: .04em; }
.status { font-size: 13px; padding: 2px 8px; border-radius: 10px; background: #dcfce7; color: #166534; }
.status.error { background: #fee2e2; color: #991b1b; }
.status.paused { background: #fce7f3; color: #9d174d; }
.gantt { border: 1px solid #e2e8f0; background: #fff; font-size: 12px; }
.gantt .row { display: grid; grid-template-columns: 240px 1fr; border-bottom: 1px solid #f1f5f9; min-height: 24px; }
.gantt .row:hover { background: #f8fafc; }
.gantt .who { padding: 4px 8px; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; border-right: 1px solid #e2e8f0; cursor: pointer; }
.gantt .who small { color: #64748b; margin-left: 4px; }
.gantt .track { position: relative; }
.gantt .bar { position: absolute; top: 5px; height: 14px; min-width: 3px; border-radius: 3px; background: #3b82f6; cursor: pointer; border: 0; padding: 0; }
.gantt .bar.parallel { box-shadow: 0 0 0 1.5px #f59e0b; }
.gantt .bar.error { background: #dc2626; }
.gantt .bar.paused, .gantt .bar.unfinished { background: repeating-linear-gradient(45deg, #db2777, #db2777 4px, #fbcfe8 4px, #fbcfe8 8px); }
.gantt .bar.container { background: #94a3b8; height: 6px; top: 9px; }
.gantt .bar.selected { outline: 2px solid #0f172a; outline-offset: 1px; }
.gantt .axis { display: grid; grid-template-columns: 240px 1fr; font-size: 11px; color: #64748b; border-bottom: 1px solid #e2e8f0; }
.gantt .axis .ticks { position: relative; height: 18px; }
.gantt .axis .ticks span { position: absolute; top: 2px; transform: translateX(-50%); }
.gantt .marker { position: absolute; top: 0; bottom: 0; width: 0; border-left: 2px dashed #db2777; }
.gantt .marker b { position: absolute; left: 4px; top: 2px; font-size: 11px; color: #9d174d; white-space: nowrap; font-weight: 600; }
.gantt .mark { position: absolute; top: 2px; font-size: 11px; font-weight: 700; }
.gantt .mark { color: #b45309; white-space: nowrap; }
.gantt .mark.error { color: #dc2626; }
.gantt .mark.paused { color: #9d174d; }
.keys { font-size: 12px; color: #475569; margin: 4px 0; display: flex; gap: 14px; flex-wrap: wrap; }
.keys i { display: inline-block; width: 16px; height: 10px; border-radius: 2px; margin-right: 4px; vertical-align: middle; }
.cf-trace .cf-diagram { height: 360px; }
.messages { background: #fff; border: 1px solid #e2e8f0; padding: 8px 12px; }
.messages .msg { white-space: pre-wrap; padding: 6px 0; border-bottom: 1px solid #f1f5f9; font-size: 13px; }
.messages .msg small { color: #64748b; display: block; }
.cf-panel dl { display: grid; grid-template-columns: 90px 1fr; gap: 2px 8px; margin: 8px 0; }
.cf-panel dt { color: #64748b; }
.cf-panel dd { margin: 0; word-break: break-all; }
.cf-panel .err { color: #b91c1c; white-space: pre-wrap; }
`;

const TRACE_SCRIPT = `
(function () {
  var data = JSON.parse(document.getElementById('cf-trace-data').textContent);
  var panel = document.getElementById('cf-panel');
  function fmt(s) { return s === undefined || s === null ? '\\u2014' : (s < 1 ? (s * 1000).toFixed(1) + ' ms' : s.toFixed(3) + ' s'); }
  function tokens(t) {
    if (!t || t.total_tokens === undefined) return '\\u2014 (no model call reported)';
    var parts = [];
    if (t.prompt_tokens !== undefined) parts.push(t.prompt_tokens + ' prompt');
    if (t.completion_tokens !== undefined) parts.push(t.completion_tokens + ' completion');
    if (t.calls !== undefined) parts.push(t.calls + (t.calls === 1 ? ' call' : ' calls'));
    return t.total_tokens + (parts.length ? ' (' + parts.join(', ') + ')' : '');
  }
  function row(dl, k, v, cls) {
    var dt = document.createElement('dt'); dt.textContent = k; dl.appendChild(dt);
    var dd = document.createElement('dd'); dd.textContent = v; if (cls) dd.className = cls; dl.appendChild(dd);
  }
  function show(index) {
    var step = data.steps[index];
    if (!step) return;
    Array.prototype.forEach.call(document.querySelectorAll('.bar.selected'), function (b) { b.classList.remove('selected'); });
    Array.prototype.forEach.call(document.querySelectorAll('.bar'), function (b) { if (Number(b.getAttribute('data-step')) === index) b.classList.add('selected'); });
    if (window.cfViewer) window.cfViewer.select(step.componentId);
    panel.textContent = '';
    panel.setAttribute('data-step', String(index));
    var h = document.createElement('h2'); h.textContent = step.name; panel.appendChild(h);
    var sub = document.createElement('div'); sub.className = 'muted'; sub.textContent = step.componentId + ' \\u00b7 ' + step.type + (step.round > 1 ? ' \\u00b7 run ' + step.round : ''); panel.appendChild(sub);
    var dl = document.createElement('dl');
    row(dl, 'status', step.status);
    row(dl, 'started', '+' + fmt(step.start));
    row(dl, 'elapsed', fmt(step.elapsed));
    if (step.attempts > 1) row(dl, 'attempts', step.attempts + ' (retried ' + (step.attempts - 1) + '\\u00d7)');
    row(dl, 'tokens', tokens(step.tokens));
    if (step.alongsideCount) row(dl, 'alongside', step.alongside.map(function (i) { return data.steps[i].componentId; }).join(', ') + (step.alongsideCount > step.alongside.length ? ' and ' + (step.alongsideCount - step.alongside.length) + ' more' : ''));
    panel.appendChild(dl);
    if (step.error) { var e = document.createElement('div'); e.className = 'err'; e.textContent = 'error: ' + step.error; panel.appendChild(e); }
    window.cfViewer.section(panel, 'inputs', step.inputs);
    window.cfViewer.section(panel, 'outputs', step.outputs);
  }
  Array.prototype.forEach.call(document.querySelectorAll('[data-step]'), function (el) {
    if (el === panel) return;
    el.addEventListener('click', function () { show(Number(el.getAttribute('data-step'))); });
  });
  window.cfViewer.onNodeClick(function (id) {
    var steps = data.byComponent[id];
    if (steps && steps.length) show(steps[steps.length - 1]);
    else {
      window.cfViewer.select(id);
      panel.textContent = '';
      var h = document.createElement('h2'); h.textContent = id; panel.appendChild(h);
      var p = document.createElement('p'); p.className = 'muted'; p.textContent = 'This component did not run.'; panel.appendChild(p);
    }
  });
})();
`;

const pct = (value: number, total: number) => (total > 0 ? Math.min(100, (value / total) * 100) : 0);

function seconds(s: number): string {
  return s < 1 ? `${(s * 1000).toFixed(1)} ms` : `${s.toFixed(2)} s`;
}

function ticks(duration: number): string {
  const out: string[] = [];
  for (let i = 0; i <= 4; i++) out.push(`<span style="left:${i * 25}%">${escapeXml(seconds((duration * i) / 4))}</span>`);
  return out.join("");
}

/** The marks after a step's bar: ↻N when it took N attempts, ✕ when it failed, ⏸ when the run paused on it. */
function stepMarks(step: TraceStep): string {
  const marks: string[] = [];
  if (step.attempts > 1) marks.push(`↻${step.attempts}`);
  if (step.status === "error") marks.push("✕");
  if (step.status === "paused") marks.push("⏸");
  return marks.join(" ");
}

function gantt(trace: TraceModel, containers: ReadonlySet<string>, names: ReadonlyMap<string, string>): string {
  const total = trace.duration > 0 ? trace.duration : 1e-3;
  const rows = trace.rows.map((row) => {
    const bars = row.steps.map((i) => {
      const step = trace.steps[i];
      const left = pct(step.start, total);
      const width = Math.max(0.3, pct(step.end - step.start, total));
      const cls = ["bar", step.status, containers.has(step.componentId) ? "container" : "", step.alongsideCount > 0 ? "parallel" : ""].filter(Boolean).join(" ");
      const tip = [
        `${step.componentId}${step.round > 1 ? ` (run ${step.round})` : ""}: ${step.status}, ${step.elapsed !== undefined ? seconds(step.elapsed) : "did not finish"}`,
        step.attempts > 1 ? `, ${step.attempts} attempts` : "",
        step.tokens?.total_tokens !== undefined ? `, ${step.tokens.total_tokens} tokens` : "",
        step.error ? ` — ${step.error}` : "",
      ].join("");
      const mark = stepMarks(step);
      const after = mark ? `<span class="mark${step.status === "error" ? " error" : step.status === "paused" ? " paused" : ""}" style="left:calc(${left + width}% + 3px)">${escapeXml(mark)}</span>` : "";
      return `<button type="button" class="${cls}" data-step="${i}" style="left:${left.toFixed(3)}%;width:${width.toFixed(3)}%" title="${escapeXml(tip)}"></button>${after}`;
    });
    const runs = row.steps.length > 1 ? `<small>×${row.steps.length}</small>` : "";
    return `<div class="row" data-component="${escapeXml(row.componentId)}"><div class="who" data-step="${row.steps[row.steps.length - 1]}" title="${escapeXml(`${row.componentId} · ${row.type}`)}">${escapeXml(row.name)}<small>${escapeXml(row.componentId)}</small>${runs}</div><div class="track">${bars.join("")}</div></div>`;
  });
  // A component the run waits on has no events yet: it gets a row of its own, marked.
  const seen = new Set(trace.rows.map((r) => r.componentId));
  for (const id of trace.pause?.components ?? []) {
    if (seen.has(id)) continue;
    const name = names.get(id) ?? id;
    rows.push(`<div class="row waiting" data-component="${escapeXml(id)}"><div class="who" title="${escapeXml(id)}">${escapeXml(name)}<small>${escapeXml(id)}</small></div><div class="track"><span class="mark paused" style="right:6px">⏸ waiting for input</span></div></div>`);
  }
  const pauseMarker = trace.pause ? `<div class="marker" style="left:100%"><b style="left:auto;right:4px">⏸ paused: waiting for input</b></div>` : "";
  return `<div class="gantt"><div class="axis"><div></div><div class="ticks">${ticks(total)}</div></div>${rows.join("")}<div class="row"><div class="who muted">run ${escapeXml(seconds(trace.duration))}</div><div class="track">${pauseMarker}</div></div></div>`;
}

/** Node states and taken edges for the diagram. */
function pathStates(trace: TraceModel, model: GraphModel): { states: Map<string, NodeRunState>; taken: Set<string> } {
  const states = new Map<string, NodeRunState>();
  const chosen = new Map<string, Set<string>>();
  for (const step of trace.steps) {
    const before = states.get(step.componentId);
    if (step.status === "error") states.set(step.componentId, "error");
    else if (step.status === "paused" || step.status === "unfinished") states.set(step.componentId, before ?? "paused");
    else if (before === undefined) states.set(step.componentId, "ran");
    // Routers name the ids they continued with in `_next`.
    const next = step.outputs._next;
    if (Array.isArray(next)) {
      const set = chosen.get(step.componentId) ?? new Set<string>();
      for (const id of next) if (typeof id === "string") set.add(id);
      chosen.set(step.componentId, set);
    }
  }
  if (trace.pause) {
    const waiting = trace.pause.components.length > 0
      ? trace.pause.components
      : model.nodes.filter((n) => n.family === "input" && !states.has(n.id) && model.edges.some((e) => e.to === n.id && states.has(e.from))).map((n) => n.id);
    for (const id of waiting) states.set(id, "paused");
  }
  const taken = new Set<string>();
  for (const edge of model.edges) {
    const from = states.get(edge.from);
    if (!from || from === "paused" || !states.has(edge.to)) continue;
    const routed = chosen.get(edge.from);
    if (routed && edge.kind === "branch" && !routed.has(edge.to)) continue;
    if (edge.kind === "exception" && from !== "error") continue;
    taken.add(edgeKey(edge.from, edge.to));
  }
  return { states, taken };
}

function statusBadge(trace: TraceModel): string {
  if (trace.pause) return `<span class="status paused">paused: waiting for input</span>`;
  if (trace.end?.error) return `<span class="status error">failed: ${escapeXml(trace.end.error)}</span>`;
  if (trace.end) return `<span class="status">finished</span>`;
  return `<span class="status paused">did not finish</span>`;
}

function messagesHtml(trace: TraceModel): string {
  if (trace.messages.length === 0) return `<p class="muted">No messages were streamed.</p>`;
  return trace.messages.map((m, i) => `<div class="msg"><small>#${i + 1}${m.componentId ? ` · ${escapeXml(m.componentId)}` : ""}</small>${escapeXml(m.text)}</div>`).join("");
}

export async function renderTrace(events: readonly CanvasEvent[], options: TraceOptions = {}): Promise<string> {
  const containers = new Set(options.graph?.nodes.filter((n) => n.isContainer).map((n) => n.id) ?? []);
  const trace = traceModel(events, { containers, pausedAt: options.pausedAt });
  let diagram = `<p class="muted">No diagram: the trace was rendered without the canvas's graph.</p>`;
  if (options.graph) {
    const { states, taken } = pathStates(trace, options.graph);
    diagram = `${legendHtml(options.graph)}<div class="cf-diagram cf-autoheight"><div class="cf-stage">${renderSvg(await layoutGraph(options.graph), { states, takenEdges: taken })}</div></div>`;
  }
  const byComponent = Object.fromEntries(trace.rows.map((r) => [r.componentId, r.steps]));
  const usage = trace.end?.usage;
  const title = options.title ?? "run trace";
  const facts = [
    `${trace.steps.length} steps of ${trace.rows.length} components`,
    trace.end?.elapsed !== undefined ? `${seconds(trace.end.elapsed)}` : `${seconds(trace.duration)} traced`,
    usage ? `${usage.total_tokens} tokens (${usage.prompt_tokens} prompt, ${usage.completion_tokens} completion, ${usage.calls} calls)` : "",
    trace.taskId ? `task ${trace.taskId}` : "",
  ].filter(Boolean);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeXml(title)} · canvasflow trace</title>
<style>${VIEWER_STYLE}${TRACE_STYLE}</style></head>
<body>
<header><h1>${escapeXml(title)}</h1>${statusBadge(trace)}<span class="sub">${escapeXml(facts.join(" · "))}</span></header>
<div class="cf-trace"><main>
<section id="timeline"><h2>Timeline</h2>
<div class="keys"><span><i style="background:#3b82f6"></i>ran</span><span><i style="background:#3b82f6;box-shadow:0 0 0 1.5px #f59e0b"></i>ran alongside others (parallel)</span><span><i style="background:#dc2626"></i>error ✕</span><span>↻N: N attempts (retried)</span><span><i style="background:repeating-linear-gradient(45deg,#db2777,#db2777 3px,#fbcfe8 3px,#fbcfe8 6px)"></i>paused ⏸ / unfinished</span><span><i style="background:#94a3b8;height:5px"></i>container</span><span>×N: ran N times (rounds, items)</span></div>
${gantt(trace, containers, new Map(options.graph?.nodes.map((n) => [n.id, n.name]) ?? []))}</section>
<section id="diagram"><h2>Path taken</h2>${diagram}</section>
<section id="messages"><h2>Messages</h2><div class="messages">${messagesHtml(trace)}</div></section>
${trace.end?.error ? `<section><h2>Error</h2><pre>${escapeXml(trace.end.error)}</pre></section>` : ""}
</main>
<aside class="cf-panel" id="cf-panel"><p class="muted">Click a bar, a row or a component to see its inputs, outputs, elapsed time, tokens and error.</p></aside></div>
<script type="application/json" id="cf-trace-data">${jsonForScript({ steps: trace.steps, byComponent })}</script>
<script>${VIEWER_SCRIPT}</script>
<script>${TRACE_SCRIPT}</script>
</body></html>
`;
}
