/**
 * The playground's frame (browser JS, as text): log in with a key (checked by listing the agents),
 * the agents list, opening an agent (its diagram, a new chat), its sessions listed and reopened
 * with their messages, and log out (the key forgotten).
 */
export const CLIENT_APP = String.raw`
function listItem(text, detail, attribute, value, onClick) {
  var item = document.createElement('li');
  var button = document.createElement('button');
  button.type = 'button';
  button.setAttribute(attribute, value);
  var main = document.createElement('span');
  main.className = 'pg-item-title';
  main.textContent = text;
  button.appendChild(main);
  if (detail) {
    var small = document.createElement('small');
    small.textContent = detail;
    button.appendChild(small);
  }
  button.addEventListener('click', onClick);
  item.appendChild(button);
  return item;
}

function when(ms) {
  return typeof ms === 'number' ? new Date(ms).toLocaleString() : '';
}

function showLogin(message) {
  byId('pg-app').hidden = true;
  byId('pg-logout').hidden = true;
  byId('pg-login').hidden = false;
  byId('pg-login-error').textContent = message || '';
  byId('pg-key').value = '';
  byId('pg-key').focus();
}

async function enter() {
  try {
    var answer = await apiCall('GET', '/api/v1/agents?page=1&page_size=100&orderby=update_time&desc=true');
    byId('pg-login').hidden = true;
    byId('pg-app').hidden = false;
    byId('pg-logout').hidden = false;
    showAgents(answer.data.canvas || []);
  } catch (error) {
    forgetKey();
    showLogin(error.status === 401
      ? 'The server refused this key (HTTP 401): it is not a key of this server, or it was revoked. The server said: ' + error.message
      : 'Could not list the agents: ' + error.message);
  }
}

function showAgents(agents) {
  var list = byId('pg-agents');
  list.replaceChildren();
  if (agents.length === 0) {
    var none = document.createElement('li');
    none.className = 'pg-muted';
    none.textContent = 'No agents yet: create one with POST /api/v1/agents, or serve a folder with --agents DIR.';
    list.appendChild(none);
  }
  for (var i = 0; i < agents.length; i++) {
    (function (agent) {
      list.appendChild(listItem(agent.title, agent.description, 'data-agent-id', agent.id, function () { openAgent(agent); }));
    })(agents[i]);
  }
}

function markCurrent(listId, attribute, value) {
  var buttons = byId(listId).querySelectorAll('button[' + attribute + ']');
  for (var i = 0; i < buttons.length; i++) buttons[i].classList.toggle('pg-current', buttons[i].getAttribute(attribute) === value);
}

async function openAgent(agent) {
  if (chat.running) return;
  chat.agent = agent;
  markCurrent('pg-agents', 'data-agent-id', agent.id);
  byId('pg-agent-title').textContent = agent.title;
  byId('pg-chat').hidden = false;
  newChat();
  var host = byId('pg-diagram');
  host.replaceChildren();
  host.textContent = 'Drawing the diagram…';
  try {
    var answer = await apiCall('GET', '/api/v1/agents/' + encodeURIComponent(agent.id) + '/graph?direction=DOWN');
    if (chat.agent !== agent) return;
    showDiagram(host, answer.data.svg);
  } catch (error) {
    host.textContent = 'No diagram: ' + error.message;
  }
  refreshSessions();
}

function newChat() {
  if (chat.running) return;
  chat.sessionId = null;
  byId('pg-messages').replaceChildren();
  clearForm();
  clearMarks();
  setStatus('');
  markCurrent('pg-sessions', 'data-session-id', '');
  byId('pg-query').focus();
}

async function refreshSessions() {
  var agent = chat.agent;
  if (!agent) return;
  try {
    var answer = await apiCall('GET', '/api/v1/agents/' + encodeURIComponent(agent.id) + '/sessions?page=1&page_size=50&orderby=update_time&desc=true');
    if (chat.agent !== agent) return;
    var list = byId('pg-sessions');
    list.replaceChildren();
    var sessions = answer.data || [];
    for (var i = 0; i < sessions.length; i++) {
      (function (session) {
        var firstQuestion = (session.message || []).filter(function (m) { return m.role === 'user' && m.content; })[0];
        var title = session.name || (firstQuestion ? firstQuestion.content : 'session ' + session.id.slice(0, 8));
        list.appendChild(listItem(title, when(session.update_time), 'data-session-id', session.id, function () { reopenSession(session.id); }));
      })(sessions[i]);
    }
    markCurrent('pg-sessions', 'data-session-id', chat.sessionId || '');
  } catch (error) {
    setStatus('Could not list the sessions: ' + error.message);
  }
}

async function reopenSession(sessionId) {
  if (chat.running || !chat.agent) return;
  try {
    var answer = await apiCall('GET', '/api/v1/agents/' + encodeURIComponent(chat.agent.id) + '/sessions/' + encodeURIComponent(sessionId));
    newChat();
    chat.sessionId = sessionId;
    markCurrent('pg-sessions', 'data-session-id', sessionId);
    var messages = answer.data.message || [];
    for (var i = 0; i < messages.length; i++) {
      var message = messages[i];
      if (!message.content && message.role === 'user') continue;
      var item = addMessage(message.role === 'user' ? 'user' : 'assistant', String(message.content || ''));
      if (message.role !== 'user' && message.id) addTraceLink(item, sessionId, message.id);
    }
    // The diagram shows the latest run's path, as its event log has it.
    await replayLatestRun(sessionId, function (event) {
      var data = event.data || {};
      if (chat.sessionId !== sessionId) return;
      if (event.event === 'node_started') markNode(data.component_id, 'running');
      if (event.event === 'node_finished') markNode(data.component_id, data.error ? 'failed' : 'done');
    }).catch(function () { /* marks are a bonus: the messages are shown anyway */ });
    var pending = await pendingOf(sessionId);
    if (pending) {
      pending.components.forEach(function (id) { markNode(id, 'paused'); });
      showPause(pending);
      setStatus('Reopened: the session waits for this form.');
    } else {
      setStatus('Reopened: the next message continues this session.');
    }
  } catch (error) {
    addNotice('error', 'Could not open the session: ' + error.message);
  }
}

function start() {
  byId('pg-login-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var key = byId('pg-key').value.trim();
    if (key === '') { byId('pg-login-error').textContent = 'Enter an API key.'; return; }
    storeKey(key);
    enter();
  });
  byId('pg-logout').addEventListener('click', function () {
    if (chat.controller) chat.controller.abort();
    forgetKey();
    chat.agent = null;
    chat.sessionId = null;
    showLogin('');
  });
  byId('pg-send-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var query = byId('pg-query').value;
    if (query.trim() === '' || !chat.agent) return;
    byId('pg-query').value = '';
    runTurn(query, undefined);
  });
  byId('pg-query').addEventListener('keydown', function (event) {
    if (event.key === 'Enter' && !event.shiftKey) { event.preventDefault(); byId('pg-send-form').requestSubmit(); }
  });
  byId('pg-cancel').addEventListener('click', cancelRun);
  byId('pg-new-chat').addEventListener('click', newChat);
  byId('pg-trace-close').addEventListener('click', function () {
    byId('pg-trace').hidden = true;
    byId('pg-trace-frame').removeAttribute('srcdoc');
  });
  if (storedKey()) enter(); else showLogin('');
}

start();
`;
