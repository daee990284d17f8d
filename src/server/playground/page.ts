/**
 * The playground's page: a fixed shell (no value from the server is in it) that loads its script
 * and style from /playground/. The script fills it in.
 */
export const PLAYGROUND_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>canvasflow playground</title>
<link rel="stylesheet" href="/playground/app.css">
</head>
<body>
<header class="pg-bar"><h1>canvasflow playground</h1><span class="pg-sub">agents over this server's API</span><button id="pg-logout" type="button" hidden>Log out</button></header>
<main id="pg-login" class="pg-login">
  <form id="pg-login-form" autocomplete="off">
    <h2>Log in</h2>
    <p>Enter an API key of this server (<code>canvasflow keys create --tenant T --name N</code> makes one). It stays in this tab only (sessionStorage) and goes to the server in the Authorization header.</p>
    <label>API key <input id="pg-key" type="password" autocomplete="off" spellcheck="false"></label>
    <button type="submit">Log in</button>
    <p id="pg-login-error" class="pg-error" role="alert"></p>
  </form>
</main>
<main id="pg-app" class="pg-app" hidden>
  <nav class="pg-side">
    <h2>Agents</h2><ul id="pg-agents" class="pg-list"></ul>
    <h2>Sessions</h2><button id="pg-new-chat" type="button">New chat</button><ul id="pg-sessions" class="pg-list"></ul>
  </nav>
  <section class="pg-diagram-pane">
    <h2 id="pg-agent-title">Choose an agent</h2>
    <div id="pg-diagram" class="pg-diagram"></div>
    <div class="pg-keys"><span><i class="k-running"></i>running</span><span><i class="k-done"></i>done</span><span><i class="k-failed"></i>failed</span><span><i class="k-paused"></i>waiting for input</span></div>
  </section>
  <section id="pg-chat" class="pg-chat" hidden>
    <div id="pg-messages" class="pg-messages" aria-live="polite"></div>
    <div id="pg-form-slot"></div>
    <div id="pg-status" class="pg-status"></div>
    <form id="pg-send-form" class="pg-send">
      <textarea id="pg-query" rows="2" placeholder="Message (Enter sends, Shift+Enter for a new line)"></textarea>
      <div class="pg-send-buttons"><button id="pg-send" type="submit">Send</button><button id="pg-cancel" type="button" disabled>Cancel</button></div>
    </form>
  </section>
</main>
<div id="pg-trace" class="pg-trace" hidden>
  <div class="pg-trace-bar"><b>Run trace</b><button id="pg-trace-close" type="button">Close</button></div>
  <iframe id="pg-trace-frame" sandbox="allow-scripts" title="run trace"></iframe>
</div>
<script src="/playground/app.js"></script>
</body></html>
`;
