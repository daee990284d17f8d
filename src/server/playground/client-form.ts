/**
 * The playground's form for a paused run (browser JS, as text): one control per field of the
 * `user_inputs` event, for every field type RAGFlow's UserFillUp and Begin have (line, paragraph,
 * options, integer, float/number, boolean, file, object; anything else as a line), and the
 * submitted values as the API takes them: `{key: {type, value}}`. Files are read in the browser
 * and sent inline as data URLs (the server has no upload route), within FILE_BYTES in all.
 */
export const CLIENT_FORM = String.raw`
var FILE_BYTES = 512 * 1024;

function fieldType(field) {
  return typeof field.type === 'string' && field.type !== '' ? field.type.toLowerCase() : 'line';
}

function fieldControl(key, field) {
  var type = fieldType(field);
  var control;
  if (type === 'paragraph' || type === 'object') {
    control = document.createElement('textarea');
    control.rows = type === 'object' ? 4 : 3;
    if (type === 'object') control.placeholder = 'JSON, e.g. {"a": 1}';
  } else if (type === 'options') {
    control = document.createElement('select');
    var none = document.createElement('option');
    none.value = '';
    none.textContent = '— choose —';
    control.appendChild(none);
    var options = Array.isArray(field.options) ? field.options : [];
    for (var i = 0; i < options.length; i++) {
      var option = document.createElement('option');
      option.value = String(options[i]);
      option.textContent = String(options[i]);
      control.appendChild(option);
    }
  } else {
    control = document.createElement('input');
    if (type === 'integer') { control.type = 'number'; control.step = '1'; }
    else if (type === 'float' || type === 'number') { control.type = 'number'; control.step = 'any'; }
    else if (type === 'boolean') control.type = 'checkbox';
    else if (type.indexOf('file') >= 0) { control.type = 'file'; control.multiple = true; }
    else control.type = 'text';
  }
  control.name = key;
  control.setAttribute('data-field', key);
  control.setAttribute('data-type', type);
  return control;
}

/** The form's element; onSubmit gets the values once every field is valid. */
function buildForm(fields, tips, onSubmit) {
  var form = document.createElement('form');
  form.className = 'pg-form';
  form.noValidate = true;
  if (tips) {
    var tip = document.createElement('p');
    tip.className = 'pg-tips';
    tip.textContent = tips;
    form.appendChild(tip);
  }
  var keys = Object.keys(fields);
  for (var i = 0; i < keys.length; i++) {
    var key = keys[i];
    var field = fields[key] || {};
    var row = document.createElement('label');
    row.className = 'pg-field';
    var title = document.createElement('span');
    title.className = 'pg-field-name';
    title.textContent = (field.name || key) + (field.optional ? ' (optional)' : '');
    row.appendChild(title);
    var control = fieldControl(key, field);
    row.appendChild(control);
    var error = document.createElement('span');
    // A problem shown for a field goes once the field changes.
    control.addEventListener('input', function (event) {
      var shown = form.querySelector('[data-error-for="' + CSS.escape(event.target.getAttribute('data-field')) + '"]');
      if (shown) shown.textContent = '';
    });
    error.className = 'pg-field-error';
    error.setAttribute('data-error-for', key);
    row.appendChild(error);
    form.appendChild(row);
  }
  var submit = document.createElement('button');
  submit.type = 'submit';
  submit.textContent = 'Submit';
  form.appendChild(submit);
  form.addEventListener('submit', async function (event) {
    event.preventDefault();
    var read = await formValues(form, fields);
    if (read.ok) onSubmit(read.values);
  });
  return form;
}

function readAsDataUrl(file) {
  return new Promise(function (resolve, reject) {
    var reader = new FileReader();
    reader.onload = function () { resolve(reader.result); };
    reader.onerror = function () { reject(reader.error); };
    reader.readAsDataURL(file);
  });
}

/** One field's value, or throws the reason it is not valid. */
async function controlValue(control, field, state) {
  var type = control.getAttribute('data-type');
  if (type === 'boolean') return control.checked;
  if (control.type === 'file') {
    var files = Array.prototype.slice.call(control.files || []);
    if (files.length === 0) return undefined;
    var out = [];
    for (var i = 0; i < files.length; i++) {
      state.bytes += files[i].size;
      if (state.bytes > FILE_BYTES) throw new Error('files may take ' + FILE_BYTES / 1024 + ' KiB in all (the playground sends them inline)');
      out.push({ name: files[i].name, mime_type: files[i].type || 'application/octet-stream', size: files[i].size, data_url: await readAsDataUrl(files[i]) });
    }
    return out;
  }
  var text = control.value;
  if (text.trim() === '') return undefined;
  if (type === 'integer') {
    var whole = Number(text);
    if (!Number.isInteger(whole)) throw new Error('must be a whole number, got "' + text + '"');
    return whole;
  }
  if (type === 'float' || type === 'number') {
    var number = Number(text);
    if (!Number.isFinite(number)) throw new Error('must be a number, got "' + text + '"');
    return number;
  }
  if (type === 'object') {
    try { return JSON.parse(text); } catch (error) { throw new Error('is not valid JSON: ' + error.message); }
  }
  return text;
}

/** The values as the API takes them, with each problem written next to its field. */
async function formValues(form, fields) {
  var values = {};
  var ok = true;
  var state = { bytes: 0 };
  var keys = Object.keys(fields);
  for (var i = 0; i < keys.length; i++) {
    var key = keys[i];
    var field = fields[key] || {};
    var control = form.querySelector('[data-field="' + CSS.escape(key) + '"]');
    var error = form.querySelector('[data-error-for="' + CSS.escape(key) + '"]');
    error.textContent = '';
    try {
      var value = await controlValue(control, field, state);
      if (value === undefined) {
        if (!field.optional) throw new Error('is required');
        continue;
      }
      values[key] = { type: fieldType(field), value: value };
    } catch (problem) {
      ok = false;
      error.textContent = (field.name || key) + ' ' + problem.message;
    }
  }
  return { ok: ok, values: values };
}
`;
