/**
 * The playground's chat (browser JS, as text): a turn sent over the streaming completion, its
 * events drawn as they come (the reply, the diagram's marks, a pause's form, the run's end), a
 * Cancel while it streams, and a link to each finished run's trace. Every value from a run goes
 * into the page with textContent.
 */
export const CLIENT_CHAT = String.raw`
var chat = { agent: null, sessionId: null, controller: null, running: false };

function byId(id) { return document.getElementById(id); }

function addMessage(role, text) {
  var item = document.createElement('div');
  item.className = 'pg-msg pg-' + role;
  item.setAttribute('data-role', role);
  var body = document.createElement('div');
  body.className = 'pg-msg-text';
  body.textContent = text;
  item.appendChild(body);
  byId('pg-messages').appendChild(item);
  item.scrollIntoView({ block: 'end' });
  return item;
}

function addNotice(kind, text) {
  var item = addMessage('notice', text);
  item.classList.add('pg-' + kind);
  return item;
}

function appendText(item, text) {
  item.querySelector('.pg-msg-text').textContent += text;
}

function setStatus(text) { byId('pg-status').textContent = text; }

function setRunning(running) {
  chat.running = running;
  byId('pg-send').disabled = running;
  byId('pg-cancel').disabled = !running;
}

/** A button under a run's last message that opens the run's trace. */
function addTraceLink(item, sessionId, messageId) {
  if (!item || !messageId || item.querySelector('.pg-trace-link')) return;
  var button = document.createElement('button');
  button.type = 'button';
  button.className = 'pg-trace-link';
  button.textContent = 'Trace of this run';
  button.setAttribute('data-message-id', messageId);
  button.addEventListener('click', function () { openTrace(sessionId, messageId); });
  item.appendChild(button);
}

async function openTrace(sessionId, messageId) {
  try {
    var html = await apiHtml('/api/v1/sessions/' + encodeURIComponent(sessionId) + '/trace?message_id=' + encodeURIComponent(messageId));
    // A sandbox without allow-same-origin: the trace's script cannot reach this page or its key.
    byId('pg-trace-frame').srcdoc = html;
    byId('pg-trace').hidden = false;
  } catch (error) {
    addNotice('error', 'The trace could not be opened: ' + error.message);
  }
}

function clearForm() { byId('pg-form-slot').replaceChildren(); }

function showPause(data) {
  var form = buildForm(data.inputs || {}, data.tips || '', function (values) {
    clearForm();
    runTurn('', values);
  });
  byId('pg-form-slot').replaceChildren(form);
  var first = form.querySelector('[data-field]');
  if (first) first.focus();
}

/** The form a session waits on, or null (the user_inputs event does not name its components). */
async function pendingOf(sessionId) {
  var answer = await apiCall('GET', '/api/v1/sessions/' + encodeURIComponent(sessionId) + '/pending');
  return answer.data && Array.isArray(answer.data.components) ? answer.data : null;
}

async function markPending(sessionId) {
  try {
    var pending = await pendingOf(sessionId);
    if (pending && chat.sessionId === sessionId) pending.components.forEach(function (id) { markNode(id, 'paused'); });
  } catch (error) {
    setStatus('Waiting for your answer (the session could not be read: ' + error.message + ').');
  }
}

/** One turn: a question, or a paused run's form values (the run resumes). */
async function runTurn(query, inputs) {
  if (!chat.agent || chat.running) return;
  var body = { agent_id: chat.agent.id, query: query, stream: true };
  if (chat.sessionId) body.session_id = chat.sessionId;
  if (inputs) body.inputs = inputs;
  // A resume keeps the marks of the run it continues; a new question starts a fresh picture.
  if (!inputs) clearMarks();
  clearForm();
  if (query) addMessage('user', query);
  var reply = null;
  var last = null;
  var run = { messageId: null, sessionId: chat.sessionId, outcome: 'finished' };
  chat.controller = new AbortController();
  setRunning(true);
  setStatus('Running…');
  try {
    await streamCompletion(body, function (event) {
      if (event.session_id && chat.sessionId !== event.session_id) {
        chat.sessionId = event.session_id;
        run.sessionId = event.session_id;
        refreshSessions();
      }
      run.messageId = run.messageId || event.message_id;
      var data = event.data || {};
      switch (event.event) {
        case 'node_started':
          markNode(data.component_id, 'running');
          break;
        case 'node_finished':
          markNode(data.component_id, data.error ? 'failed' : 'done');
          break;
        case 'message':
          if (data.start_to_think || data.end_to_think || !data.content) break;
          if (!reply) reply = addMessage('assistant', '');
          appendText(reply, data.content);
          last = reply;
          break;
        case 'message_end':
          reply = null;
          break;
        case 'user_inputs':
          run.outcome = 'paused';
          markRunningAsPaused();
          showPause(data);
          break;
        case 'workflow_finished':
          if (data.error) {
            run.outcome = data.error === 'cancelled' ? 'cancelled' : 'failed';
            last = addNotice(run.outcome === 'cancelled' ? 'cancelled' : 'error', run.outcome === 'cancelled' ? 'The run was cancelled.' : 'The run failed: ' + data.error);
          }
          break;
      }
    }, chat.controller.signal);
  } catch (error) {
    run.outcome = 'failed';
    last = addNotice('error', error.name === 'AbortError' ? 'The run was stopped.' : error.message);
  } finally {
    chat.controller = null;
    setRunning(false);
    setStatus({ finished: 'Finished.', paused: 'Waiting for your answer.', cancelled: 'Cancelled.', failed: 'Failed.' }[run.outcome]);
    if (run.sessionId) addTraceLink(last || byId('pg-messages').lastElementChild, run.sessionId, run.messageId);
    if (run.outcome === 'paused' && run.sessionId) await markPending(run.sessionId);
    refreshSessions();
  }
}

/** Cancel the streaming run: through the API once its session is known, else by dropping the stream. */
async function cancelRun() {
  if (!chat.running) return;
  if (!chat.sessionId) { if (chat.controller) chat.controller.abort(); return; }
  try {
    await apiCall('POST', '/api/v1/tasks/' + encodeURIComponent(chat.sessionId) + '/cancel');
  } catch (error) {
    addNotice('error', 'Cancel failed: ' + error.message);
  }
}
`;
