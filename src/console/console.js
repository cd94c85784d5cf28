/* global TextDecoderStream */
// The Plumb console: plain browser JavaScript, no framework, no build step.
// Streams turns over WebSocket and falls back to SSE (streaming fetch) when a socket cannot open.

const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') ?? '';
const csrf = meta('plumb-csrf');
const chatUrl = meta('plumb-chat-url') || '/chat/';
const $ = (id) => document.getElementById(id);
const log = $('log');

const state = { thread: undefined, socket: undefined, transport: 'sse', turn: undefined, busy: false, chatEnabled: true, bodyLimit: undefined, tools: new Map(), examples: [], newThread: true };

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === 'class') node.className = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child !== undefined && child !== null) node.append(child);
  return node;
}

function add(node) {
  $('examples').hidden = true;
  const item = el('li', {}, node);
  log.append(item);
  log.scrollTop = log.scrollHeight;
  return node;
}

function json(value) {
  return el('pre', {}, JSON.stringify(value, null, 2));
}

/** Rows of objects as a table; anything else as JSON. */
function rowsOrJson(value) {
  const rows = Array.isArray(value) ? value : value && Array.isArray(value.data) ? value.data : undefined;
  if (!rows || rows.length === 0 || rows.some((row) => row === null || typeof row !== 'object' || Array.isArray(row))) return json(value);
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const cell = (v) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v ?? ''));
  const table = el('table', {}, el('thead', {}, el('tr', {}, ...columns.map((c) => el('th', { scope: 'col' }, c)))), el('tbody', {}, ...rows.map((row) => el('tr', {}, ...columns.map((c) => el('td', {}, cell(row[c])))))));
  const extra = value && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'data')) : undefined;
  const wrap = el('div', {}, table);
  if (extra && Object.keys(extra).length > 0) wrap.append(json(extra));
  return wrap;
}

// ---- turns and events ---------------------------------------------------------------------

function startTurn() {
  state.turn = { assistant: undefined };
  setBusy(true);
}

function assistantBubble() {
  if (!state.turn.assistant) state.turn.assistant = add(el('div', { class: 'msg assistant streaming', 'data-role': 'assistant' }));
  return state.turn.assistant;
}

function onEvent(event) {
  if (!state.turn) startTurn();
  if (event.thread_id) {
    state.thread = event.thread_id;
    state.newThread = false;
  }
  switch (event.type) {
    case 'text_chunk':
      assistantBubble().textContent += event.content;
      break;
    case 'plan':
      add(planRow(event));
      break;
    case 'retry':
      if (state.turn.assistant) state.turn.assistant.textContent = '';
      break;
    case 'tool_call': {
      if (state.turn.assistant) state.turn.assistant.classList.remove('streaming');
      state.turn.assistant = undefined;
      const status = el('span', { class: 'status' }, 'running…');
      const body = el('div', { class: 'body' }, el('div', {}, el('strong', {}, 'Arguments')), json(event.args));
      const row = add(el('details', { class: 'tool', 'data-tool': event.name }, el('summary', {}, `tool ${event.name} `, summarize(event.args), status), body));
      state.tools.set(event.id, { row, status, body });
      break;
    }
    case 'tool_result': {
      const entry = state.tools.get(event.id) ?? (() => {
        const status = el('span', { class: 'status' });
        const body = el('div', { class: 'body' });
        const row = add(el('details', { class: 'tool', 'data-tool': event.name }, el('summary', {}, `tool ${event.name}`, status), body));
        return { row, status, body };
      })();
      const failed = event.result && typeof event.result === 'object' && event.result.error;
      const status = event.result && typeof event.result === 'object' && typeof event.result.status === 'string' ? event.result.status : 'done';
      entry.status.textContent = failed ? `error: ${event.result.error.code}` : status;
      entry.status.className = `status ${failed ? 'err' : 'ok'}`;
      entry.body.append(el('div', {}, el('strong', {}, 'Result')), rowsOrJson(event.result));
      break;
    }
    case 'confirm_mutation':
      for (const entry of state.tools.values()) {
        if (entry.status.textContent === 'running…') entry.status.textContent = 'waiting for your confirmation';
      }
      add(confirmationCard(event));
      finishTurn();
      break;
    case 'error':
      add(errorBox(event));
      finishTurn();
      break;
    case 'done':
      finishTurn();
      break;
    default:
      break;
  }
}

function summarize(args) {
  if (!args || typeof args !== 'object') return '';
  const main = args.manager ?? args.mutation ?? args.query ?? '';
  return main ? `${main} ` : '';
}

/** How the router read the turn: its outcome and the tools it planned. */
function planRow(event) {
  const tools = (event.steps ?? []).map((step) => step.tool).filter(Boolean);
  const said = { run: 'read by the router', ask: 'the router asks', declined: 'the router declines', unread: 'not read by the router' }[event.outcome] ?? event.outcome;
  return el('div', { class: 'plan', 'data-outcome': event.outcome }, `${said}${event.language ? ` (${event.language})` : ''}`, ...tools.map((tool) => el('code', {}, ` ${tool}`)));
}

/** The answer's Markdown tables (the router's answers use them for many rows) as real tables. */
function renderAnswerText(node) {
  const lines = node.textContent.split('\n');
  if (!lines.some((line) => /^\|.*\|$/.test(line.trim()))) return;
  node.replaceChildren();
  let text = [];
  const flush = () => {
    if (text.length > 0) node.append(text.join('\n'));
    text = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const header = lines[i];
    if (/^\|.*\|$/.test(header.trim()) && /^\|(\s*:?-+:?\s*\|)+$/.test((lines[i + 1] ?? '').trim())) {
      flush();
      const cells = (line) => line.trim().slice(1, -1).split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
      const rows = [];
      for (i += 2; i < lines.length && /^\|.*\|$/.test(lines[i].trim()); i++) rows.push(cells(lines[i]));
      i--;
      node.append(el('table', {}, el('thead', {}, el('tr', {}, ...cells(header).map((c) => el('th', { scope: 'col' }, c)))), el('tbody', {}, ...rows.map((row) => el('tr', {}, ...row.map((c) => el('td', {}, c)))))));
    } else text.push(header);
  }
  flush();
}

function finishTurn() {
  if (state.turn?.assistant) renderAnswerText(state.turn.assistant);
  if (state.turn?.assistant) state.turn.assistant.classList.remove('streaming');
  state.turn = undefined;
  setBusy(false);
  void loadThreads();
}

function setBusy(busy) {
  state.busy = busy;
  $('send').disabled = busy;
}

function confirmationCard(event) {
  const actions = el('div', { class: 'actions' });
  const card = el('section', { class: 'card', 'aria-label': `Confirm ${event.mutation}` },
    el('h3', {}, 'Confirm this change?'),
    el('div', {}, 'Mutation: ', el('code', {}, event.mutation)),
    el('div', {}, el('strong', {}, 'Input')), json(event.input),
    event.expires_at ? el('div', { class: 'muted' }, `Expires at ${new Date(event.expires_at).toLocaleTimeString()}`) : undefined,
    actions);
  const answer = (confirmed) => {
    for (const button of actions.querySelectorAll('button')) button.disabled = true;
    card.classList.add('resolved');
    actions.append(el('span', {}, confirmed ? ' Confirmed.' : ' Rejected.'));
    void sendConfirm(event.id, confirmed);
  };
  actions.append(el('button', { type: 'button', class: 'confirm', onclick: () => answer(true) }, 'Confirm'), el('button', { type: 'button', class: 'reject', onclick: () => answer(false) }, 'Reject'));
  setTimeout(() => actions.querySelector('button')?.focus(), 0);
  return card;
}

function errorBox(event) {
  const box = el('div', { class: 'error', role: 'alert' }, el('code', {}, event.code), ': ', event.message ?? '');
  if (event.code === 'rate_limited' && typeof event.retry_after_seconds === 'number') {
    let left = Math.ceil(event.retry_after_seconds);
    const counter = el('span', { class: 'countdown' }, ` Retry in ${left} s.`);
    box.append(counter);
    const timer = setInterval(() => {
      left -= 1;
      counter.textContent = left > 0 ? ` Retry in ${left} s.` : ' You can retry now.';
      if (left <= 0) clearInterval(timer);
    }, 1000);
  }
  return box;
}

// ---- transports ---------------------------------------------------------------------------

function connectSocket() {
  if ($('force-sse').checked || !state.chatEnabled) return useSse();
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${chatUrl}`;
  let opened = false;
  const socket = new WebSocket(url);
  socket.addEventListener('open', () => {
    opened = true;
    state.socket = socket;
    state.transport = 'websocket';
    $('transport').textContent = 'WebSocket';
  });
  socket.addEventListener('message', (message) => {
    try {
      onEvent(JSON.parse(message.data));
    } catch {
      // not an event
    }
  });
  socket.addEventListener('close', () => {
    state.socket = undefined;
    if (state.turn) add(errorBox({ code: 'disconnected', message: 'The connection closed; the turn continues on the server. Reload its thread to see the end.' }));
    if (state.turn) finishTurn();
    if (!opened) useSse();
    else setTimeout(connectSocket, 1000);
  });
}

function useSse() {
  state.transport = 'sse';
  $('transport').textContent = 'SSE (streaming fetch)';
}

async function post(path, body) {
  return fetch(path, { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json', 'x-csrf-token': csrf }, body: JSON.stringify(body) });
}

async function streamSse(response) {
  if (!response.ok || !response.body) {
    const body = await response.json().catch(() => ({}));
    for (const event of body.events ?? [{ type: 'error', code: body.error?.code ?? `http_${response.status}`, message: body.error?.message ?? response.statusText }]) onEvent(event);
    return;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let cut;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const data = block.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).join('\n');
      if (data) onEvent(JSON.parse(data));
    }
  }
  if (state.turn) finishTurn();
}

/** The language the person chose for the router (never guessed from what they type); kept in this browser. */
function language() {
  return $('language').value;
}

/** The open thread, or (after "New conversation") a request for a new one. */
function threadFields() {
  if (state.thread) return { thread: state.thread };
  return state.newThread ? { new_thread: true } : {};
}

async function sendMessage(text) {
  add(el('div', { class: 'msg user', 'data-role': 'user' }, text));
  startTurn();
  if (state.transport === 'websocket' && state.socket?.readyState === WebSocket.OPEN) {
    state.socket.send(JSON.stringify({ type: 'message', text, language: language(), ...threadFields() }));
    return;
  }
  try {
    await streamSse(await post(`${chatUrl}stream/`, { text, language: language(), ...threadFields() }));
  } catch (error) {
    onEvent({ type: 'error', code: 'network', message: String(error) });
  }
}

async function sendConfirm(id, confirmed) {
  startTurn();
  if (state.transport === 'websocket' && state.socket?.readyState === WebSocket.OPEN) {
    state.socket.send(JSON.stringify({ type: 'confirm', confirmation_id: id, confirmed }));
    return;
  }
  const response = await post(`${chatUrl}confirm/`, { confirmation_id: id, confirmed });
  const body = await response.json().catch(() => ({}));
  for (const event of body.events ?? []) onEvent(event);
  if (state.turn) finishTurn();
}

// ---- threads, session, sign-in ------------------------------------------------------------

async function loadThreads() {
  if (!state.chatEnabled) return;
  const response = await fetch(`${chatUrl}threads/`, { credentials: 'same-origin' });
  if (!response.ok) return;
  const { threads } = await response.json();
  const list = $('thread-list');
  list.replaceChildren(...threads.map((thread) => el('li', {}, el('button', {
    type: 'button',
    'aria-current': String(thread.id === state.thread),
    onclick: () => openThread(thread.id),
  }, thread.title || thread.id))));
  $('no-threads').hidden = threads.length > 0;
}

async function openThread(id) {
  const response = await fetch(`${chatUrl}threads/${encodeURIComponent(id)}`, { credentials: 'same-origin' });
  if (!response.ok) return;
  const { items } = await response.json();
  state.thread = id;
  log.replaceChildren();
  for (const item of items) {
    const data = item.data ?? {};
    if (item.kind === 'user_text') add(el('div', { class: 'msg user', 'data-role': 'user' }, data.text ?? ''));
    else if (item.kind === 'assistant_text') renderAnswerText(add(el('div', { class: 'msg assistant', 'data-role': 'assistant' }, data.text ?? '')));
    else if (item.kind === 'tool_call') {
      let args = data.arguments;
      try { args = JSON.parse(data.arguments); } catch { /* raw text */ }
      add(el('details', { class: 'tool', 'data-tool': data.name }, el('summary', {}, `tool ${data.name} `, summarize(args)), el('div', { class: 'body' }, json(args))));
    } else if (item.kind === 'tool_result') add(el('details', { class: 'tool', 'data-tool': data.name }, el('summary', {}, `result of ${data.name}`), el('div', { class: 'body' }, rowsOrJson(data.result))));
    else if (item.kind === 'error') add(errorBox({ code: data.code, message: data.message }));
  }
  void loadThreads();
}

async function loadSession() {
  const response = await fetch('/console/session', { credentials: 'same-origin' });
  const session = await response.json();
  state.chatEnabled = session.chat_enabled;
  state.bodyLimit = session.body_limit_bytes;
  $('provider').textContent = session.provider ?? 'none';
  $('model').textContent = session.model ?? '—';
  $('router').textContent = session.router === 'on' ? 'on (reads each turn first)' : 'off';
  state.examples = session.examples ?? [];
  $('chat-url').textContent = session.chat_url;
  const select = $('user');
  for (const name of session.users) select.append(el('option', { value: name }, name));
  select.value = session.actor.kind === 'user' ? session.actor.id : 'anonymous';
}

$('login').addEventListener('submit', async (submit) => {
  submit.preventDefault();
  const user = $('user').value;
  const response = await post('/console/login', { user: user === 'anonymous' ? null : user });
  if (response.ok) location.reload();
  else add(errorBox((await response.json()).error));
});

$('composer').addEventListener('submit', (submit) => {
  submit.preventDefault();
  const prompt = $('prompt');
  const text = prompt.value.trim();
  if (!text || state.busy) return;
  // Refused here, with the text left in the box to shorten, rather than sent to be refused.
  const size = new TextEncoder().encode(JSON.stringify({ type: 'message', text, language: language(), ...threadFields() })).length;
  if (state.bodyLimit !== undefined && size > state.bodyLimit) {
    add(errorBox({ code: 'payload_too_large', message: `This message is ${size} bytes; the server takes at most ${state.bodyLimit}. Shorten it and send it again.` }));
    return;
  }
  prompt.value = '';
  void sendMessage(text);
});

$('prompt').addEventListener('keydown', (key) => {
  if (key.key === 'Enter' && !key.shiftKey && !key.isComposing) {
    key.preventDefault();
    $('composer').requestSubmit();
  }
});

/** On an empty conversation: the questions the demo answers without a model, one click each. */
function showExamples() {
  const box = $('examples');
  box.replaceChildren(el('p', {}, 'Try asking:'), ...(state.examples ?? []).map((question) => el('button', { type: 'button', onclick: () => { if (!state.busy) void sendMessage(question); } }, question)));
  box.hidden = (state.examples ?? []).length === 0 || log.children.length > 0;
}

$('new-thread').addEventListener('click', () => {
  state.thread = undefined;
  state.newThread = true;
  state.tools.clear();
  log.replaceChildren();
  showExamples();
  void loadThreads();
  $('prompt').focus();
});

$('language').value = localStorage.getItem('plumb.language') ?? 'en';
$('language').addEventListener('change', () => localStorage.setItem('plumb.language', language()));

$('force-sse').addEventListener('change', () => {
  if ($('force-sse').checked) {
    state.socket?.close();
    useSse();
  } else connectSocket();
});

await loadSession();
connectSocket();
await loadThreads();
showExamples();
$('prompt').focus();
