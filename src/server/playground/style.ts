/** The playground's style: a three-pane layout, and the diagram's run marks. */
export const PLAYGROUND_STYLE = `
* { box-sizing: border-box; }
html, body { height: 100%; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "Noto Sans", sans-serif; color: #0f172a; background: #f8fafc; display: flex; flex-direction: column; }
button { font: inherit; cursor: pointer; border: 1px solid #cbd5e1; background: #fff; border-radius: 6px; padding: 5px 12px; }
button:disabled { cursor: default; opacity: .5; }
button[type=submit] { background: #2563eb; border-color: #2563eb; color: #fff; }
code { background: #f1f5f9; padding: 1px 4px; border-radius: 4px; }
.pg-bar { display: flex; align-items: baseline; gap: 14px; padding: 10px 16px; background: #0f172a; color: #f8fafc; }
.pg-bar h1 { font-size: 16px; margin: 0; }
.pg-bar .pg-sub { color: #94a3b8; font-size: 13px; flex: 1; }
.pg-login { display: flex; justify-content: center; padding: 60px 16px; }
.pg-login form { background: #fff; border: 1px solid #e2e8f0; border-radius: 10px; padding: 20px 24px; max-width: 460px; width: 100%; }
.pg-login h2 { margin-top: 0; }
.pg-login label { display: flex; flex-direction: column; gap: 4px; margin: 12px 0; font-weight: 600; }
.pg-login input { font: inherit; padding: 6px 8px; border: 1px solid #cbd5e1; border-radius: 6px; }
.pg-error, .pg-field-error { color: #b91c1c; }
.pg-app { flex: 1; min-height: 0; display: grid; grid-template-columns: 240px minmax(0, 1fr) 420px; }
.pg-side { border-right: 1px solid #e2e8f0; background: #fff; padding: 8px 10px; overflow: auto; }
.pg-side h2, .pg-diagram-pane h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .05em; color: #475569; margin: 10px 0 6px; }
.pg-diagram-pane h2 { font-size: 15px; text-transform: none; letter-spacing: 0; color: #0f172a; }
.pg-list { list-style: none; margin: 6px 0; padding: 0; }
.pg-list li { margin: 2px 0; }
.pg-list button { width: 100%; text-align: left; border: 1px solid transparent; display: flex; flex-direction: column; }
.pg-list button:hover { background: #f1f5f9; }
.pg-list button.pg-current { border-color: #2563eb; background: #eff6ff; }
.pg-list small, .pg-muted { color: #64748b; font-size: 12px; }
.pg-item-title { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; max-width: 100%; }
.pg-diagram-pane { padding: 4px 14px; overflow: auto; display: flex; flex-direction: column; }
.pg-diagram { background: #fff; border: 1px solid #e2e8f0; border-radius: 8px; padding: 8px; min-height: 120px; }
.pg-diagram svg { width: 100%; height: auto; max-height: calc(100vh - 170px); display: block; }
.pg-keys { display: flex; gap: 14px; font-size: 12px; color: #475569; margin: 6px 2px; }
.pg-keys i { display: inline-block; width: 16px; height: 10px; border-radius: 2px; margin-right: 4px; vertical-align: middle; border: 2px solid; }
.k-running { border-color: #f59e0b !important; } .k-done { border-color: #16a34a !important; } .k-failed { border-color: #dc2626 !important; } .k-paused { border-color: #db2777 !important; border-style: dashed !important; }
.cf-graph .node.pg-running rect.box { stroke: #f59e0b; stroke-width: 4; }
.cf-graph .node.pg-done rect.box { stroke: #16a34a; stroke-width: 3.5; }
.cf-graph .node.pg-failed rect.box { stroke: #dc2626; stroke-width: 4; }
.cf-graph .node.pg-paused rect.box { stroke: #db2777; stroke-width: 4; stroke-dasharray: 6 3; }
.pg-chat { border-left: 1px solid #e2e8f0; background: #fff; display: flex; flex-direction: column; min-height: 0; }
.pg-messages { flex: 1; overflow: auto; padding: 10px 12px; }
.pg-msg { margin: 8px 0; max-width: 92%; }
.pg-msg-text { white-space: pre-wrap; word-break: break-word; padding: 7px 10px; border-radius: 10px; }
.pg-user { margin-left: auto; }
.pg-user .pg-msg-text { background: #2563eb; color: #fff; }
.pg-assistant .pg-msg-text { background: #f1f5f9; }
.pg-notice .pg-msg-text { background: #fef9c3; }
.pg-notice.pg-error .pg-msg-text { background: #fee2e2; color: #991b1b; }
.pg-trace-link { margin-top: 4px; font-size: 12px; padding: 2px 8px; }
.pg-form { margin: 0 12px 8px; padding: 10px 12px; border: 1px solid #f9a8d4; background: #fdf2f8; border-radius: 8px; display: flex; flex-direction: column; gap: 8px; }
.pg-tips { margin: 0; font-weight: 600; }
.pg-field { display: flex; flex-direction: column; gap: 3px; }
.pg-field-name { font-weight: 600; font-size: 13px; }
.pg-field input:not([type=checkbox]), .pg-field textarea, .pg-field select { font: inherit; padding: 5px 7px; border: 1px solid #cbd5e1; border-radius: 6px; }
.pg-field input[type=checkbox] { align-self: flex-start; width: 18px; height: 18px; }
.pg-status { padding: 2px 12px; color: #475569; font-size: 12px; min-height: 18px; }
.pg-send { display: flex; gap: 8px; padding: 8px 12px 12px; border-top: 1px solid #e2e8f0; }
.pg-send textarea { flex: 1; font: inherit; padding: 6px 8px; border: 1px solid #cbd5e1; border-radius: 6px; resize: vertical; }
.pg-send-buttons { display: flex; flex-direction: column; gap: 6px; }
.pg-trace { position: fixed; inset: 24px; background: #fff; border: 1px solid #94a3b8; border-radius: 10px; box-shadow: 0 10px 40px rgba(15, 23, 42, .35); display: flex; flex-direction: column; z-index: 10; }
.pg-trace[hidden], [hidden] { display: none !important; }
.pg-trace-bar { display: flex; justify-content: space-between; align-items: center; padding: 6px 12px; border-bottom: 1px solid #e2e8f0; }
.pg-trace iframe { flex: 1; border: 0; width: 100%; border-radius: 0 0 10px 10px; }
`;
