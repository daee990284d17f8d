/**
 * The playground's talk with the server (browser JS, as text): the key kept in sessionStorage,
 * JSON calls that turn RAGFlow's envelope into values or errors, and the streaming completion
 * read frame by frame (`data:` lines, `[DONE]` last). The key only ever travels in the
 * Authorization header.
 */
export const CLIENT_API = String.raw`
var KEY_SLOT = 'canvasflow.playground.key';

function storedKey() {
  try { return sessionStorage.getItem(KEY_SLOT) || ''; } catch (e) { return ''; }
}
function storeKey(key) { sessionStorage.setItem(KEY_SLOT, key); }
function forgetKey() { sessionStorage.removeItem(KEY_SLOT); }

function apiFailure(message, code, status) {
  var error = new Error(message);
  error.code = code;
  error.status = status;
  return error;
}

function authHeaders(json) {
  var headers = { Authorization: 'Bearer ' + storedKey() };
  if (json) headers['Content-Type'] = 'application/json';
  return headers;
}

async function send(method, path, body, signal) {
  var init = { method: method, headers: authHeaders(body !== undefined), cache: 'no-store' };
  if (body !== undefined) init.body = JSON.stringify(body);
  if (signal) init.signal = signal;
  try {
    return await fetch(path, init);
  } catch (error) {
    if (error && error.name === 'AbortError') throw error;
    throw apiFailure('The server did not answer (' + (error && error.message) + ').', -1, 0);
  }
}

/** An answer that is not the data asked for: the envelope's message, or what the status says. */
async function failureOf(response) {
  var text = await response.text();
  try {
    var json = JSON.parse(text);
    if (json && typeof json.message === 'string') return apiFailure(json.message, json.code, response.status);
  } catch (e) { /* not JSON: described below */ }
  return apiFailure('The server answered HTTP ' + response.status + ' without an explanation.', -1, response.status);
}

/** A JSON call; resolves to the whole envelope when its code is 0. */
async function apiCall(method, path, body) {
  var response = await send(method, path, body);
  var text = await response.text();
  var json;
  try { json = JSON.parse(text); } catch (e) {
    throw apiFailure('The server answered HTTP ' + response.status + ' with something that is not JSON.', -1, response.status);
  }
  if (!json || json.code !== 0) throw apiFailure((json && json.message) || ('The server answered code ' + (json && json.code) + '.'), json && json.code, response.status);
  return json;
}

/** A call answered with HTML (a run's trace). */
async function apiHtml(path) {
  var response = await send('GET', path);
  var type = response.headers.get('content-type') || '';
  if (!response.ok || type.indexOf('text/html') !== 0) throw await failureOf(response);
  return response.text();
}

/** The data of one SSE frame (its data: lines joined), or undefined for a frame without any. */
function frameData(frame) {
  var parts = [];
  var lines = frame.split('\n');
  for (var i = 0; i < lines.length; i++) {
    var line = lines[i].replace(/\r$/, '');
    if (line.indexOf('data:') === 0) parts.push(line.slice(5).replace(/^ /, ''));
  }
  return parts.length > 0 ? parts.join('\n') : undefined;
}

/**
 * A streaming completion: each event of the run to onEvent, in order, until [DONE]. An answer
 * that is not a stream (a refusal) and a failure frame ({code, message}) reject with their message.
 */
async function streamCompletion(body, onEvent, signal) {
  return readEvents(await send('POST', '/api/v1/agents/chat/completions', body, signal), onEvent);
}

/** A session's latest run again, from its event log (the re-attach stream). */
async function replayLatestRun(sessionId, onEvent) {
  return readEvents(await send('GET', '/api/v1/sessions/' + encodeURIComponent(sessionId) + '/events'), onEvent);
}

async function readEvents(response, onEvent) {
  var type = response.headers.get('content-type') || '';
  if (type.indexOf('text/event-stream') !== 0) throw await failureOf(response);
  var reader = response.body.getReader();
  var decoder = new TextDecoder();
  var buffer = '';
  for (;;) {
    var chunk = await reader.read();
    if (chunk.done) break;
    buffer += decoder.decode(chunk.value, { stream: true });
    var cut;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      var data = frameData(buffer.slice(0, cut));
      buffer = buffer.slice(cut + 2);
      if (data === undefined) continue;
      if (data === '[DONE]') { reader.cancel().catch(function () {}); return; }
      var value = JSON.parse(data);
      if (typeof value.event !== 'string') throw apiFailure(value.message || 'The stream failed.', value.code, 200);
      onEvent(value);
    }
  }
  throw apiFailure('The stream ended before the run did (the connection was cut).', -1, 200);
}
`;
