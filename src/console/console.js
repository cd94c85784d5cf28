// The Plumb console: plain browser JavaScript, no framework, no build step. This file is the page —
// layout, behaviour, the keyboard; every request and socket lives in console-transport.js.
import { createTransport } from './console-transport.js';
import { confirmationSentence } from './client/index.js';

const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.getAttribute('content') ?? '';
const $ = (id) => document.getElementById(id);
const log = $('log');
const prompt = $('prompt');

const state = {
  thread: undefined,
  newThread: true,
  /**
   * The turn this tab streams (its message, a retry, an answer to a card): `{ id, text, entry,
   * assistant, unread }` — its id once an event names it, its message and that message's entry,
   * its assistant bubble, and whether the router left it unread.
   */
  turn: undefined,
  /** A turn the live view shows (another tab's, or one that ran before a reload), shown the same way. */
  watched: undefined,
  /** The turns this tab streams itself: the view skips their items, so that nothing shows twice. */
  own: new Set(),
  /** Messages sent while a turn ran, not yet queued or started. */
  sent: [],
  /** The thread's active turn as its view reports it, whichever tab runs it: Stop shows meanwhile. */
  active: undefined,
  /** The thread's queue, head first (`[{ id, text, position, steer }]`), and the ids of this tab's messages in it. */
  queue: [],
  mine: new Set(),
  /** Queued messages seen leaving the queue: a change's answer from before they left does not bring them back. */
  left: new Set(),
  /** Stops following the open thread's live view. */
  stopView: undefined,
  /** The Retry button of the latest turn that failed or was stopped (a newer turn takes it away). */
  retry: undefined,
  /** The Regenerate button under the latest completed answer (a newer turn takes it away). */
  regenerate: undefined,
  /** The active turn a person asked to stop, until it ended: Stop says Stopping… meanwhile. */
  stopping: undefined,
  /** The thread's latest turn, when a stop ended it: its queue waits for the person (send now, or remove). */
  held: undefined,
  busy: false,
  chatEnabled: true,
  bodyLimit: undefined,
  tools: new Map(),
  /** `[{ text, language }]`: the questions the host offers. */
  examples: [],
  /** The confirmation card waiting for the person, or for the server's answer to them. */
  card: undefined,
  /** The question card waiting for an answer. */
  question: undefined,
};

const transport = createTransport({
  chatUrl: meta('plumb-chat-url') || '/chat/',
  csrf: meta('plumb-csrf'),
  onEvent: (event) => onEvent(event),
  onTransport: (name) => ($('transport').textContent = name === 'websocket' ? 'WebSocket' : 'SSE (streaming fetch)'),
  onDisconnect: () => {
    if (!state.turn) return;
    addEntry(errorBox({ code: 'disconnected', message: 'The connection closed; the turn goes on on the server. Open its thread again to see the end.' }));
    finishTurn();
  },
});

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined) continue;
    if (key === 'class') node.className = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child !== undefined && child !== null) node.append(child);
  return node;
}

// ---- the log ------------------------------------------------------------------------------

/** Whether the log shows its end (within a line): new content then keeps it there. */
function atEnd() {
  return log.scrollHeight - log.scrollTop - log.clientHeight < 48;
}

function scrollToEnd() {
  log.scrollTop = log.scrollHeight;
}

/**
 * Appends an entry. `from` places it: the person's on the right, the assistant's (answers, tools,
 * cards, errors) on the left; each gets a visible label, so that the two differ in more than colour.
 */
function addEntry(node, from = 'assistant', label) {
  $('examples').hidden = true;
  const follow = atEnd() || from === 'user';
  const item = el('li', { class: `entry from-${from}` }, label === undefined ? undefined : el('span', { class: 'who' }, label), node);
  log.append(item);
  if (follow) scrollToEnd();
  return node;
}

function addUserMessage(text) {
  dropRegenerate();
  return addEntry(el('div', { class: 'msg user', 'data-role': 'user' }, text), 'user', 'You');
}

/** The bubble an answer streams into. */
function addAssistantMessage() {
  return addEntry(el('div', { class: 'msg assistant streaming', 'data-role': 'assistant' }), 'assistant', 'Assistant');
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
  const wrap = el('div', { class: 'table-wrap' }, table);
  if (extra && Object.keys(extra).length > 0) wrap.append(json(extra));
  return wrap;
}

/**
 * The answer as it should read: an empty example in the router's rephrase hint (`for example: ""`,
 * from a host with no tools to give one) is dropped, and Markdown tables become real tables.
 */
function renderAnswerText(node) {
  const text = node.textContent.replace(/,\s*(for example|por exemplo):\s*""/g, '');
  const lines = text.split('\n');
  node.replaceChildren();
  if (!lines.some((line) => /^\|.*\|$/.test(line.trim()))) {
    node.append(text);
    return;
  }
  let run = [];
  const flush = () => {
    if (run.length > 0) node.append(run.join('\n'));
    run = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const header = lines[i];
    if (/^\|.*\|$/.test(header.trim()) && /^\|(\s*:?-+:?\s*\|)+$/.test((lines[i + 1] ?? '').trim())) {
      flush();
      const cells = (line) => line.trim().slice(1, -1).split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, '|'));
      const rows = [];
      for (i += 2; i < lines.length && /^\|.*\|$/.test(lines[i].trim()); i++) rows.push(cells(lines[i]));
      i--;
      const table = el('table', {}, el('thead', {}, el('tr', {}, ...cells(header).map((c) => el('th', { scope: 'col' }, c)))), el('tbody', {}, ...rows.map((row) => el('tr', {}, ...row.map((c) => el('td', {}, c))))));
      node.append(el('div', { class: 'table-wrap' }, table));
    } else run.push(header);
  }
  flush();
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

/** Codes that end a turn which may run again; the server decides (after `effect_outcome_unknown` it refuses, and says why). */
function retryable(event) {
  return Boolean(event.turn_id) && (/^provider_/.test(event.code) || ['cancelled', 'effect_outcome_unknown', 'interrupted', 'deadline_exceeded', 'rate_limited'].includes(event.code));
}

function dropRetry() {
  state.retry?.remove();
  state.retry = undefined;
}

function errorBox(event) {
  const box = el('div', { class: 'error', role: 'alert' }, el('code', {}, event.code), event.reason ? ` (${event.reason})` : '', ': ', event.message ?? '');
  if (retryable(event)) {
    dropRetry();
    state.retry = el('button', { type: 'button', class: 'retry', onclick: () => {
      dropRetry();
      takeTurn(event.turn_id);
      void transport.retry(event.turn_id).then(endIfStreamEnded, networkFailure);
    } }, 'Retry');
    box.append(' ', state.retry);
  }
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

// ---- regenerate -----------------------------------------------------------------------------

function dropRegenerate() {
  state.regenerate?.closest('li')?.remove();
  state.regenerate = undefined;
}

/** The latest turn completed: its answer may be regenerated (the server refuses any other turn, and says why). */
function offerRegenerate(turnId) {
  dropRegenerate();
  state.regenerate = el('button', { type: 'button', class: 'regenerate', onclick: () => {
    dropRegenerate();
    markSuperseded();
    takeTurn(turnId);
    void transport.retry(turnId, true).then(endIfStreamEnded, networkFailure);
  } }, 'Regenerate');
  addEntry(el('div', { class: 'regenerate-row' }, state.regenerate));
}

/**
 * The latest turn's answer is being regenerated (here, or in the journal: its `regenerate` mark):
 * what it showed after the person's message stays, folded as superseded.
 */
function markSuperseded(on = true) {
  const entries = [...log.children];
  const from = entries.findLastIndex((entry) => entry.classList.contains('from-user'));
  for (const entry of entries.slice(from + 1)) {
    if (on && !entry.classList.contains('superseded')) entry.prepend(el('span', { class: 'superseded-label' }, 'Superseded'));
    if (!on) entry.querySelector('.superseded-label')?.remove();
    entry.classList.toggle('superseded', on);
  }
}

// ---- the confirmation card ------------------------------------------------------------------

function clock(ms) {
  return new Date(ms).toLocaleTimeString();
}

function timeLeft(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return seconds >= 120 ? `${Math.floor(seconds / 60)} min ${seconds % 60} s` : `${seconds} s`;
}

/**
 * A card for a held write: `{ id, mutation, input, expires_at, message? }`. It counts down to its
 * expiry and then says so itself; once answered it says what came of it, in the server's words.
 */
function confirmationCard(event, waitingRows = []) {
  const expiresAt = Date.parse(event.expires_at);
  const sentence = confirmationSentence(event.mutation, event.input, event.message);
  const expiry = el('p', { class: 'expiry', role: 'timer' });
  const outcome = el('p', { class: 'outcome', 'aria-live': 'polite' });
  const confirm = el('button', { type: 'button', class: 'confirm' }, 'Confirm');
  const reject = el('button', { type: 'button', class: 'reject' }, 'Reject');
  const title = el('h3', {}, 'Confirm this change');
  const node = el('section', { class: 'card', 'aria-label': `Confirm: ${sentence}`, 'data-confirmation': event.id },
    title,
    el('p', { class: 'sentence' }, sentence),
    expiry,
    el('div', { class: 'actions' }, confirm, reject),
    outcome,
    el('details', { class: 'request' }, el('summary', {}, 'The exact request'), el('div', {}, el('code', {}, event.mutation)), json(event.input)));

  const card = { id: event.id, turn: event.turn_id, thread: state.thread, expiresAt, node, phase: 'open', confirmed: undefined, timer: undefined };
  const buttons = [confirm, reject];
  const setButtons = (enabled) => buttons.forEach((button) => (button.disabled = !enabled));

  card.settle = (kind, text) => {
    card.phase = 'settled';
    // The tool rows that waited for this answer say what came of it (a write that ran gets its own result).
    for (const row of waitingRows) {
      if (row.status.textContent !== 'waiting for your confirmation' || kind === 'done') continue;
      row.status.textContent = kind;
      row.status.className = 'status err';
    }
    clearInterval(card.timer);
    setButtons(false);
    expiry.hidden = true;
    node.classList.add(kind === 'done' || kind === 'rejected' ? 'resolved' : kind === 'expired' ? 'expired' : 'failed');
    title.textContent = { done: 'Change made', rejected: 'Change rejected', expired: 'Change expired' }[kind] ?? 'Change not made';
    node.dataset.outcome = kind;
    outcome.textContent = text;
    if (state.card === card) state.card = undefined;
    clearNotice();
  };
  card.expire = () => card.settle('expired', `Expired at ${clock(expiresAt)}: nobody confirmed it in time, so nothing was changed. Ask again to make the change.`);
  card.reopen = (text) => {
    card.phase = 'open';
    setButtons(true);
    outcome.textContent = text;
  };

  const tick = () => {
    const left = expiresAt - Date.now();
    if (card.phase === 'settled') return;
    if (left <= 0) {
      // Answered just in time: the server decides; otherwise the card says it lapsed.
      if (card.phase === 'open') card.expire();
      return;
    }
    expiry.textContent = `Expires in ${timeLeft(left)} (at ${clock(expiresAt)}).`;
    expiry.classList.toggle('soon', left <= 10_000);
  };
  const answer = (confirmed) => {
    if (card.phase !== 'open') return;
    if (Date.now() >= expiresAt) return card.expire();
    card.phase = 'answering';
    card.confirmed = confirmed;
    setButtons(false);
    outcome.textContent = confirmed ? 'Confirming…' : 'Rejecting…';
    takeTurn(card.turn);
    void transport.sendConfirmation(card.id, confirmed).then(endIfStreamEnded, networkFailure);
  };
  confirm.addEventListener('click', () => answer(true));
  reject.addEventListener('click', () => answer(false));
  // Typing while a card has the focus goes to the message box, never to the card's buttons.
  node.addEventListener('keydown', (key) => {
    if (key.key.length === 1 && key.key !== ' ' && !key.ctrlKey && !key.metaKey && !key.altKey) prompt.focus();
  });

  tick();
  if (!Number.isNaN(expiresAt) && expiresAt > Date.now()) card.timer = setInterval(tick, 1000);
  else if (!Number.isNaN(expiresAt)) card.expire();
  return card;
}

/** Shows a held write's card; the Confirm button takes the focus unless the person is typing. */
function showCard(event, waitingRows = []) {
  const card = confirmationCard(event, waitingRows);
  addEntry(card.node);
  if (card.phase === 'settled') return card;
  state.card = card;
  if (prompt.value.trim() === '' && (document.activeElement === document.body || document.activeElement === prompt)) {
    setTimeout(() => {
      if (state.card === card && prompt.value.trim() === '') card.node.querySelector('button.confirm')?.focus();
    }, 0);
  }
  return card;
}

/**
 * What the server's answer to a confirmation did to its card. Returns true when the card tells
 * the whole story of an error event (no error box is needed beside it).
 */
function settleCard(event) {
  const card = state.card;
  if (!card || card.phase !== 'answering') return false;
  if (event.type === 'tool_result') {
    const failure = event.result && typeof event.result === 'object' ? event.result.error : undefined;
    if (failure?.code === 'confirmation_expired') card.expire();
    else if (failure) card.settle('failed', `Not done: ${failure.message ?? failure.code}`);
    else if (!card.confirmed) card.settle('rejected', 'Rejected: nothing was changed.');
    else card.settle('done', 'Confirmed and done.');
    return false;
  }
  if (event.type === 'error' && event.code === 'confirmation_unavailable') {
    card.phase = 'checking';
    void explainUnavailable(card);
    return true;
  }
  if (event.type === 'error') card.reopen(`Not sent: ${event.message ?? event.code}. Try again.`);
  return false;
}

/**
 * The server no longer holds the confirmation: its thread's journal says why (it lapsed, or was
 * answered elsewhere), so the card gives the real reason rather than "unavailable".
 */
async function explainUnavailable(card) {
  const items = card.thread ? await transport.readThread(card.thread) : undefined;
  const resolution = items?.find((item) => item.kind === 'confirmation_resolution' && item.data?.confirmationId === card.id)?.data?.outcome;
  if (resolution === 'expired' || (resolution === undefined && Date.now() >= card.expiresAt)) return card.expire();
  if (resolution === 'approved') return card.settle('done', 'This change was already confirmed (perhaps in another tab).');
  if (resolution === 'rejected') return card.settle('rejected', 'This change was already rejected (perhaps in another tab): nothing was changed.');
  return card.settle('failed', 'This change is no longer waiting for an answer, so nothing more happens here.');
}

/**
 * A resolution the view reports for a card still open here: it was answered in another tab (or
 * lapsed, or its turn was stopped). True when it settled the card.
 */
function resolveCard(data) {
  const card = state.card;
  if (!card || card.id !== data?.confirmationId || card.phase !== 'open') return false;
  if (data.outcome === 'approved') card.settle('done', 'Confirmed (perhaps in another tab).');
  else if (data.outcome === 'rejected') card.settle('rejected', 'Rejected (perhaps in another tab): nothing was changed.');
  else if (data.outcome === 'expired') card.expire();
  else card.settle('failed', 'Not made: the turn was stopped, so nothing was changed.');
  return true;
}

// ---- the question card ----------------------------------------------------------------------

/**
 * A card for a question the turn waits on (`question` from a model's `ask_user` or a host tool):
 * its text, a button per choice, and a field for free text when the question takes it. An answer
 * resumes the turn, which this tab then streams.
 */
function showQuestion(event) {
  const title = el('h3', {}, event.header || 'A question for you');
  const outcome = el('p', { class: 'outcome', 'aria-live': 'polite' });
  const field = event.free_text ? el('input', { type: 'text', name: 'answer', 'aria-label': 'Your answer', autocomplete: 'off' }) : undefined;
  const choices = (event.choices ?? []).map((choice) => el('button', { type: 'button', class: 'choice', title: choice.description, onclick: () => answer({ choice: choice.id }, choice.label) }, choice.label));
  const free = field && el('form', { class: 'free-text', onsubmit: (submit) => {
    submit.preventDefault();
    if (field.value.trim() !== '') answer({ text: field.value.trim() }, field.value.trim());
  } }, field, el('button', { type: 'submit' }, 'Answer'));
  const node = el('section', { class: 'card question', 'aria-label': `Question: ${event.text}`, 'data-question': event.id }, title, el('p', { class: 'sentence' }, event.text), choices.length > 0 ? el('div', { class: 'actions' }, ...choices) : undefined, free, outcome);
  const card = { id: event.id, turn: event.turn_id, phase: 'open', words: '' };
  const setControls = (enabled) => node.querySelectorAll('button, input').forEach((control) => (control.disabled = !enabled));
  card.settle = (text) => {
    card.phase = 'settled';
    setControls(false);
    node.classList.add('resolved');
    node.dataset.outcome = 'answered';
    title.textContent = 'Answered';
    outcome.textContent = text;
    if (state.question === card) state.question = undefined;
  };
  card.reopen = (text) => {
    card.phase = 'open';
    setControls(true);
    outcome.textContent = text;
  };
  function answer(reply, words) {
    if (card.phase !== 'open') return;
    card.phase = 'answering';
    card.words = words;
    setControls(false);
    outcome.textContent = 'Answering…';
    takeTurn(card.turn);
    void transport.answerQuestion(card.id, reply).then(endIfStreamEnded, networkFailure);
  }
  state.question = card;
  addEntry(node);
  (choices[0] ?? field)?.focus();
}

/** What the server's answer to this tab's answer did to its card; true when the card tells the whole story of an error. */
function settleQuestion(event) {
  const card = state.question;
  if (!card || card.phase !== 'answering') return false;
  if (event.type === 'error' && event.code === 'bad_answer') {
    card.reopen(`Not taken: ${event.message}`);
    return true;
  }
  if (event.type === 'error' && event.code === 'question_unavailable') {
    card.settle('This question is no longer waiting for an answer.');
    return true;
  }
  card.settle(`Answered: ${card.words}`);
  return false;
}

/** An answer the view reports for a question still open here (answered in another tab, or its turn stopped). */
function resolveQuestion(data) {
  const card = state.question;
  if (!card || card.id !== data?.questionId || card.phase !== 'open') return false;
  card.settle(data.via === 'cancelled' ? 'Not answered: the turn was stopped.' : `Answered: ${data.text}`);
  return true;
}

// ---- turns and events -----------------------------------------------------------------------

function startTurn(id, text) {
  dropRetry();
  dropRegenerate();
  state.turn = { id, text, entry: undefined, assistant: undefined, unread: false };
  if (id !== undefined) state.own.add(id);
  setBusy(true);
  return state.turn;
}

/** This tab answers for a turn (a card, a question, a retry): it streams the rest, and the view stops showing it. */
function takeTurn(id) {
  if (state.watched?.id === id) finishWatched();
  if (state.turn) finishTurn();
  startTurn(id);
}

function bubble(display) {
  if (!display.assistant) display.assistant = addAssistantMessage();
  return display.assistant;
}

function closeBubble(display) {
  if (display.assistant) display.assistant.classList.remove('streaming');
  display.assistant = undefined;
}

/** The own turn an event belongs to; an event of another turn means the one shown ended unseen. */
function ownTurn(turnId) {
  if (state.turn?.id !== undefined && state.turn.id !== turnId) finishTurn();
  if (!state.turn) {
    // A message sent while a turn ran, which the server started rather than queued.
    const text = state.sent.shift();
    if (text !== undefined) addUserMessage(text);
    startTurn(turnId);
  } else if (state.turn.id === undefined) {
    state.turn.id = turnId;
    state.own.add(turnId);
  }
}

/** An event of this tab's own streams (its socket, its SSE answers). */
function onEvent(event) {
  if (event.thread_id && event.thread_id !== state.thread) {
    rememberThread(event.thread_id);
    follow(event.thread_id);
    // A new thread shows in the list while its first answer streams, not only once it is done.
    void loadThreads();
  }
  if (event.type === 'queued') return queued(event);
  if (event.type === 'unqueued') return unqueued(event);
  if (event.turn_id) ownTurn(event.turn_id);
  else if (!state.turn) startTurn();
  const settling = event.type === 'tool_result' || event.type === 'error';
  const explained = (settling && settleCard(event)) || (state.question?.phase === 'answering' && settleQuestion(event));
  if (explained && event.type === 'error') return finishTurn();
  showEvent(event, state.turn, finishTurn);
}

/**
 * Shows one event of a turn in `display` (its assistant bubble and rows): this tab's own turn, or
 * one the live view shows. `finish` ends what the display shows for now.
 */
function showEvent(event, display, finish) {
  switch (event.type) {
    case 'text_chunk': {
      const follow = atEnd();
      bubble(display).textContent += event.content;
      if (follow) scrollToEnd();
      break;
    }
    case 'plan':
      display.unread = event.outcome === 'unread';
      addEntry(planRow(event));
      break;
    case 'retry':
      if (display.assistant) display.assistant.textContent = '';
      showRetry(event, display);
      break;
    case 'phase':
      showPhase(event.phase);
      break;
    case 'steer':
      closeBubble(display);
      addUserMessage(event.text);
      break;
    case 'tool_call': {
      closeBubble(display);
      const status = el('span', { class: 'status' }, 'running…');
      const body = el('div', { class: 'body' }, el('div', {}, el('strong', {}, 'Arguments')), json(event.args));
      const row = addEntry(el('details', { class: 'tool', 'data-tool': event.name }, el('summary', {}, `tool ${event.name} `, summarize(event.args), status), body));
      state.tools.set(event.id, { row, status, body });
      break;
    }
    case 'tool_result': {
      const entry = state.tools.get(event.id) ?? (() => {
        const status = el('span', { class: 'status' });
        const body = el('div', { class: 'body' });
        const row = addEntry(el('details', { class: 'tool', 'data-tool': event.name }, el('summary', {}, `tool ${event.name}`, status), body));
        return { row, status, body };
      })();
      const failed = event.result && typeof event.result === 'object' && event.result.error;
      const status = event.result && typeof event.result === 'object' && typeof event.result.status === 'string' ? event.result.status : 'done';
      entry.status.textContent = failed ? `error: ${event.result.error.code}` : status;
      entry.status.className = `status ${failed ? 'err' : 'ok'}`;
      entry.body.append(el('div', {}, el('strong', {}, 'Result')), rowsOrJson(event.result));
      break;
    }
    case 'confirm_mutation': {
      const waiting = [...state.tools.values()].filter((entry) => entry.status.textContent === 'running…');
      for (const entry of waiting) entry.status.textContent = 'waiting for your confirmation';
      finish();
      showCard(event, waiting);
      break;
    }
    case 'question':
      // A router's question is its answer, already shown, and the next message replies to it; the others wait on a card.
      if (event.source === 'router') break;
      finish();
      showQuestion(event);
      break;
    case 'error':
      if (event.code === 'no_provider' && display.unread) {
        // The router could not read the turn and there is no model to hand it to: say what works instead.
        finish();
        addHint(`I could not read that, and no language model is set up here to try (${event.code}).`);
        break;
      }
      // Nothing was regenerated: what it showed is the answer still.
      if (event.code === 'not_regenerable') markSuperseded(false);
      addEntry(errorBox(event));
      finish();
      break;
    case 'done':
      finish();
      if (event.turn_id) offerRegenerate(event.turn_id);
      break;
    default:
      break;
  }
}

/** Words for what a turn's run is doing (docs/protocol.md, "Run phase"); none once it is done. */
const phaseWords = {
  queued: 'Waiting for a free slot…',
  reading: 'Reading your message…',
  calling_model: 'Asking the model…',
  running_tool: 'Running a tool…',
  awaiting_approval: 'Waiting for your confirmation.',
  awaiting_answer: 'Waiting for your answer.',
  retrying: 'Retrying…',
  stopping: 'Stopping…',
  compacting: 'Summarizing the earlier conversation…',
};

function showPhase(phase) {
  const line = $('phase');
  const words = phase ? phaseWords[phase] : undefined;
  line.hidden = words === undefined;
  line.textContent = words ?? '';
  line.dataset.phase = phase ?? '';
}

/** One line per turn that says which retry runs, when, and why: "retrying 2 of 3 at 12:04:05 — rate limited". */
function showRetry(event, display) {
  if (typeof event.attempt !== 'number' || event.attempt < 1) return;
  const of = typeof event.limit === 'number' && event.limit > 0 ? ` of ${event.limit}` : '';
  const next = typeof event.next_at === 'string' ? Date.parse(event.next_at) : Number.NaN;
  const at = Number.isNaN(next) ? '' : clock(next);
  const text = `retrying ${event.attempt}${of}${at === '' ? '' : ` at ${at}`}${event.reason ? ` — ${event.reason}` : ''}`;
  if (display.retryLine?.isConnected) display.retryLine.textContent = text;
  else display.retryLine = addEntry(el('div', { class: 'retry-line', role: 'status' }, text));
}

function finishDisplay(display) {
  if (!display.assistant) return;
  renderAnswerText(display.assistant);
  display.assistant.classList.remove('streaming');
}

function finishTurn() {
  const turn = state.turn;
  if (turn) finishDisplay(turn);
  if (turn?.id !== undefined && state.stopping === turn.id) {
    // Its stream ended after a stop: the queue waits for the person.
    state.stopping = undefined;
    state.held = turn.id;
    showQueue(state.queue);
  }
  state.turn = undefined;
  setBusy(false);
  if (turn?.unread) addHint();
  void loadThreads();
}

function finishWatched() {
  if (state.watched) finishDisplay(state.watched);
  state.watched = undefined;
}

/** An SSE answer is over: the turn it showed, if it did not end by itself (the server went away), ends here. */
function endIfStreamEnded(outcome) {
  if (outcome.ended && state.turn && (state.turn.id === undefined || state.turn.id === outcome.turn)) finishTurn();
}

function networkFailure(error) {
  onEvent({ type: 'error', code: 'network', message: String(error) });
}

/** While this tab streams a turn, Send gives way to Queue (the message waits for the turn) and Stop. */
function setBusy(busy) {
  state.busy = busy;
  $('send').disabled = busy;
  $('send').hidden = busy;
  $('queue-send').hidden = !busy;
  showStop();
}

/** Stop while a turn runs; Stopping… (not clickable) from the person's stop until the turn ended, whichever tab asked. */
function showStop() {
  const stop = $('stop');
  stop.hidden = !(state.busy || state.active || state.stopping);
  stop.disabled = state.stopping !== undefined;
  stop.textContent = state.stopping === undefined ? 'Stop' : 'Stopping…';
  stop.dataset.state = state.stopping === undefined ? 'running' : 'stopping';
}

$('stop').addEventListener('click', () => {
  if (!state.thread) return;
  const stopping = state.active ?? state.turn?.id;
  if (stopping !== undefined) state.stopping = stopping;
  showStop();
  transport.cancel(state.thread).catch((error) => {
    state.stopping = undefined;
    showStop();
    showNotice(`Not stopped: ${error.message}`);
  });
});

// ---- the live view --------------------------------------------------------------------------

/** The display of the turn the view shows; another turn's item starts a new one. */
function watching(turnId) {
  if (state.watched?.id !== turnId) {
    finishWatched();
    dropRetry();
    state.watched = { id: turnId, assistant: undefined, unread: false, drafts: new Map() };
  }
  return state.watched;
}

function parsed(value) {
  try {
    return typeof value === 'string' ? JSON.parse(value) : value;
  } catch {
    return value;
  }
}

/**
 * A journal item shown as its turn's events showed it (a thread's history, and the live view of
 * turns this tab does not stream). A round's text streams as drafts; its own text adds only what
 * they did not carry. `settled`: ids of confirmations and questions already answered, which get no card.
 */
function showItem(item, settled = new Set()) {
  const data = item.data ?? {};
  const display = watching(item.turnId);
  const show = (type, fields) => showEvent({ type, thread_id: item.threadId, turn_id: item.turnId, ...fields }, display, finishWatched);
  const step = data.step ?? 0;
  switch (item.kind) {
    case 'user_text':
      closeBubble(display);
      addUserMessage(data.text ?? '');
      break;
    case 'text_draft':
      display.drafts.set(step, (display.drafts.get(step) ?? '') + (data.text ?? ''));
      show('text_chunk', { content: data.text ?? '' });
      break;
    case 'assistant_text': {
      const before = display.drafts.get(step) ?? '';
      const whole = data.text ?? '';
      display.drafts.delete(step);
      const rest = whole.startsWith(before) ? whole.slice(before.length) : whole;
      if (rest !== '') show('text_chunk', { content: rest });
      break;
    }
    case 'retry_marker':
      if (data.reason === 'provider') {
        display.drafts.delete(step);
        show('retry', { attempt: data.attempt, limit: data.limit, reason: data.why, next_at: data.nextAt });
      } else if (data.reason === 'regenerate') {
        closeBubble(display);
        markSuperseded();
      } else if (data.reason === 'plan' && data.plan) {
        show('plan', { outcome: data.plan.outcome, language: data.plan.language, steps: (data.plan.steps ?? []).map((planned) => ({ tool: planned.selection?.tool })) });
      }
      break;
    case 'tool_call':
      show('tool_call', { id: data.callId, name: data.name, args: parsed(data.arguments) });
      break;
    case 'tool_result':
      show('tool_result', { id: data.callId, name: data.name, result: data.result });
      break;
    case 'confirmation_request':
      if (!settled.has(data.confirmationId)) show('confirm_mutation', { id: data.confirmationId, ...describeCall(data.name, data.arguments), expires_at: data.expiresAt, message: data.message });
      break;
    case 'confirmation_resolution':
      resolveCard(data);
      break;
    case 'question':
      if (!settled.has(data.questionId)) show('question', { id: data.questionId, text: data.text, choices: data.choices, free_text: data.freeText, source: data.source, header: data.header });
      break;
    case 'answer':
      resolveQuestion(data);
      break;
    case 'error':
      show('error', { code: data.code, message: data.message });
      break;
    default:
      break;
  }
}

/** A message this tab sent whose turn the view names before this tab's own stream does: that turn is this tab's. */
function claimed(item) {
  if (item.kind !== 'user_text') return false;
  const text = item.data?.text;
  const current = state.turn?.id === undefined && state.turn?.text === text;
  if (!current && !state.sent.includes(text) && !state.queue.some((entry) => state.mine.has(entry.id) && entry.text === text)) return false;
  if (current) state.turn.id = item.turnId;
  state.own.add(item.turnId);
  return true;
}

/** An event of the open thread's live view: what other tabs (and turns from before a reload) do on it. */
function onView(event) {
  if (event.type === 'resubscribe') {
    // A gap the journal cannot replay: show the thread afresh. After an overflow the client resumes from the last seq by itself.
    if (event.reason === 'gap') void openThread(state.thread);
    return;
  }
  if (event.type === 'view') {
    showPhase(event.phase);
    return showState(event);
  }
  if (event.type === 'phase') return showPhase(event.phase);
  if (event.type === 'turn') return turnChanged(event);
  if (event.type === 'thread_deleted') return threadDeleted();
  if (event.type !== 'item') return;
  const item = event.item;
  // A stop, from this tab or any other: the turn shows stopping until it ended.
  if (item.kind === 'retry_marker' && item.data?.reason === 'stop' && state.active === item.turnId) {
    state.stopping = item.turnId;
    showStop();
  }
  // A card of this tab's turn answered elsewhere: the rest of that turn streams there, and shows here from the view.
  if ((item.kind === 'confirmation_resolution' && resolveCard(item.data)) || (item.kind === 'answer' && resolveQuestion(item.data))) state.own.delete(item.turnId);
  if (state.own.has(item.turnId) || claimed(item)) return;
  showItem(item);
}

const activeStatuses = ['accepted', 'running', 'waiting'];

/** The thread as the view says it is now: whether a turn is active (any tab's), and its queue. */
function showState(view) {
  const active = view.turn !== null && activeStatuses.includes(view.turn.status);
  state.active = active ? view.turn.id : undefined;
  state.stopping = active && view.stopping ? view.turn.id : undefined;
  state.held = view.queue_held === true ? view.turn.id : undefined;
  if (!active || state.watched?.id !== view.turn.id) finishWatched();
  // A thread opened on its completed answer (not one this tab just streamed, which offered it already).
  if (view.turn?.status === 'completed' && !state.busy && !state.regenerate) offerRegenerate(view.turn.id);
  showQueue(view.queue ?? []);
  showStop();
}

function turnChanged(event) {
  if (activeStatuses.includes(event.status)) {
    state.active = event.turn_id;
    // Another turn began (a late status of the stopped one changes nothing).
    if (state.held !== event.turn_id) state.held = undefined;
  } else {
    if (state.active === event.turn_id) state.active = undefined;
    // A turn a person stopped (cancelled, or failed when a write was cut off at the graceful deadline) holds the queue.
    if (state.stopping === event.turn_id || event.status === 'cancelled') state.held = event.turn_id;
    if (state.stopping === event.turn_id) state.stopping = undefined;
    if (state.watched?.id === event.turn_id) finishWatched();
    if (!state.own.has(event.turn_id)) {
      if (event.status === 'completed') offerRegenerate(event.turn_id);
      void loadThreads();
    }
  }
  showQueue(state.queue);
  showStop();
}

/**
 * The open thread was deleted (in another tab, or by retention): the log says so and keeps what it
 * showed, the view stops (nothing more comes for it), and the next message starts a new thread.
 */
function threadDeleted() {
  state.stopView?.();
  state.stopView = undefined;
  finishWatched();
  state.active = undefined;
  state.stopping = undefined;
  state.held = undefined;
  dropRegenerate();
  state.thread = undefined;
  state.newThread = true;
  sessionStorage.removeItem('plumb.thread');
  showQueue([]);
  showStop();
  addEntry(el('div', { class: 'gone', role: 'status' }, 'This conversation was deleted.'));
  void loadThreads();
}

/** Follows the open thread's view from `after` (the last journal ordinal shown; none: from now). */
function follow(id, after) {
  state.stopView?.();
  state.stopView = transport.follow(id, after, onView, finishWatched);
}

// ---- the queue ------------------------------------------------------------------------------

/**
 * The thread's queue above the composer: each message with its place, to edit, remove or send now.
 * After a stop nothing in it runs by itself: it says so, and waits for the person.
 */
function showQueue(queue) {
  state.queue = queue.filter((entry) => !state.left.has(entry.id)).sort((a, b) => a.position - b.position);
  const held = state.held !== undefined && state.active === undefined && state.queue.length > 0;
  $('queue').replaceChildren(...(held ? [el('li', { class: 'queue-held', role: 'status' }, 'Stopped. These wait for you: send one now, or remove it.')] : []), ...state.queue.map(queuedEntry));
  $('queue').hidden = state.queue.length === 0;
}

function queuedEntry(entry) {
  const text = el('span', { class: 'queued-text' }, entry.text);
  const input = el('input', { type: 'text', value: entry.text, 'aria-label': 'Edit the queued message' });
  const editor = el('form', { class: 'queued-edit', hidden: '', onsubmit: (submit) => {
    submit.preventDefault();
    if (input.value.trim() !== '') change(() => transport.editQueued(entry.id, input.value.trim(), entry.text));
  } }, input, el('button', { type: 'submit' }, 'Save'));
  const edit = el('button', { type: 'button', onclick: () => {
    editor.hidden = false;
    text.hidden = true;
    edit.hidden = true;
    input.focus();
  } }, 'Edit');
  return el('li', { 'data-queue': entry.id },
    el('span', { class: 'position' }, entry.steer ? 'Next, sent now' : `Queued · ${entry.position}`),
    text,
    editor,
    el('span', { class: 'queued-actions' },
      edit,
      el('button', { type: 'button', onclick: () => change(() => transport.removeQueued(entry.id)) }, 'Remove'),
      entry.steer ? undefined : el('button', { type: 'button', onclick: () => change(() => transport.sendQueuedNow(entry.id)) }, 'Send now')));
}

/** A change to the queue: the queue after it, or the server's reason for refusing it. */
function change(call) {
  call().then((answer) => showQueue(answer.queue), (error) => showNotice(`The queue did not change: ${error.message}`));
}

/** This tab's message waits in the queue (`queued`): it leaves the log, if it was shown there, for the queue. */
function queued(event) {
  if (state.turn?.id === undefined && state.turn?.text === event.text) {
    state.turn.entry?.remove();
    state.turn = undefined;
    setBusy(false);
  } else if (state.sent.includes(event.text)) state.sent.splice(state.sent.indexOf(event.text), 1);
  state.mine.add(event.queue_id);
  showQueue([...state.queue.filter((entry) => entry.id !== event.queue_id), { id: event.queue_id, text: event.text, position: event.position, steer: false }]);
}

/** A queued message left the queue: `started` (its turn streams here) or `removed` (`steered` only replayed from older journals). */
function unqueued(event) {
  state.left.add(event.queue_id);
  const entry = state.queue.find((candidate) => candidate.id === event.queue_id);
  showQueue(state.queue.filter((candidate) => candidate !== entry).map((candidate, index) => ({ ...candidate, position: index + 1 })));
  if (event.reason !== 'started') return;
  if (state.turn) finishTurn();
  addUserMessage(entry?.text ?? '');
  startTurn(event.turn_id);
}

// ---- what the assistant can do --------------------------------------------------------------

function exampleButton(example) {
  const other = example.language && example.language !== language();
  return el('button', { type: 'button', class: 'example', lang: example.language ?? undefined, onclick: () => askExample(example) }, example.text, other ? el('span', { class: 'language' }, example.language) : undefined);
}

/** After an answer the router could not read: the questions it can, one click each. */
function addHint(lead) {
  const intro = lead === undefined ? '' : `${lead} `;
  const box = state.examples.length > 0
    ? el('div', { class: 'hint' }, el('p', {}, `${intro}I answer questions about the data like these:`), ...state.examples.map(exampleButton))
    : el('div', { class: 'hint' }, el('p', {}, `${intro}Ask about the data: say what to list, count or change, and which records — by name, status, number or date.`));
  addEntry(box);
}

/** On an empty conversation: the host's example questions. */
function showExamples() {
  const box = $('examples');
  box.replaceChildren(el('p', {}, 'Try asking:'), ...state.examples.map(exampleButton));
  box.hidden = state.examples.length === 0 || log.children.length > 0;
}

/** An example is asked in its own language: choosing it switches the router's reading language. */
function askExample(example) {
  if (state.busy || state.card) return;
  if (example.language && example.language !== language()) {
    setLanguage(example.language);
    showNotice(`Reading in ${$('language').selectedOptions[0]?.textContent ?? example.language} from now on (change it in Settings).`);
  }
  void sendMessage(example.text);
}

// ---- the composer ---------------------------------------------------------------------------

/** The language the person chose for the router (never guessed from what they type); kept in this browser. */
function language() {
  return $('language').value;
}

function setLanguage(value) {
  $('language').value = value;
  localStorage.setItem('plumb.language', value);
  showExamples();
}

/** The open thread, or (after "New conversation") a request for a new one. */
function threadFields() {
  if (state.thread) return { thread: state.thread };
  return state.newThread ? { newThread: true } : {};
}

function showNotice(text) {
  $('notice').textContent = text;
  $('notice').hidden = false;
}

function clearNotice() {
  $('notice').hidden = true;
  $('notice').textContent = '';
}

/** Sends a message; while a turn runs the server queues it, and the queue shows it until it starts. */
async function sendMessage(text) {
  if (state.busy) state.sent.push(text);
  else startTurn(undefined, text).entry = addUserMessage(text).parentElement;
  try {
    endIfStreamEnded(await transport.sendTurn({ text, language: language(), ...threadFields() }));
  } catch (error) {
    networkFailure(error);
  }
}

function fitPrompt() {
  prompt.style.height = 'auto';
  prompt.style.height = `${prompt.scrollHeight + 2}px`;
}

$('composer').addEventListener('submit', (submit) => {
  submit.preventDefault();
  const text = prompt.value.trim();
  if (!text) return;
  // Whatever stops a message from going keeps it in the box.
  if (state.card) {
    showNotice('Confirm or reject the change above first. Your message stays here until then.');
    return;
  }
  const size = new TextEncoder().encode(JSON.stringify({ type: 'message', text, language: language(), ...threadFields() })).length;
  if (state.bodyLimit !== undefined && size > state.bodyLimit) {
    addEntry(errorBox({ code: 'payload_too_large', message: `This message is ${size} bytes; the server takes at most ${state.bodyLimit}. Shorten it and send it again.` }));
    return;
  }
  clearNotice();
  prompt.value = '';
  fitPrompt();
  void sendMessage(text);
});

prompt.addEventListener('keydown', (key) => {
  if (key.key === 'Enter' && !key.shiftKey && !key.isComposing) {
    key.preventDefault();
    $('composer').requestSubmit();
  }
});
prompt.addEventListener('input', fitPrompt);

// ---- threads, session, sign-in --------------------------------------------------------------

function rememberThread(id) {
  state.thread = id;
  state.newThread = false;
  sessionStorage.setItem('plumb.thread', id);
}

async function loadThreads() {
  if (!state.chatEnabled) return;
  const threads = await transport.listThreads();
  $('thread-list').replaceChildren(...threads.map((thread) => el('li', {}, el('button', {
    type: 'button',
    'aria-current': String(thread.id === state.thread),
    title: thread.title || thread.id,
    onclick: () => {
      closeThreads();
      void openThread(thread.id);
    },
  }, thread.title || thread.id))));
  $('no-threads').hidden = threads.length > 0;
}

/** The mutation and input a held call asks for, as `confirm_mutation` names them. */
function describeCall(name, args) {
  if (name === 'mutate' && args && typeof args === 'object' && typeof args.mutation === 'string') return { mutation: args.mutation, input: args.input ?? {} };
  return { mutation: name, input: args };
}

/**
 * Shows a thread's journal as its turns showed it (a write or a question still waiting comes back
 * as a live card), then follows its live view from there: a turn still running goes on streaming.
 */
async function openThread(id) {
  const items = await transport.readThread(id);
  if (items === undefined) {
    if (sessionStorage.getItem('plumb.thread') === id) sessionStorage.removeItem('plumb.thread');
    return;
  }
  rememberThread(id);
  clearThread();
  const settled = new Set(items.map((item) => (item.kind === 'confirmation_resolution' ? item.data?.confirmationId : item.kind === 'answer' ? item.data?.questionId : undefined)));
  for (const item of items) showItem(item, settled);
  scrollToEnd();
  follow(id, items.at(-1)?.ordinal);
  void loadThreads();
}

/** An empty log, with nothing of the thread shown before it. */
function clearThread() {
  state.stopView?.();
  state.stopView = undefined;
  log.replaceChildren();
  state.tools.clear();
  state.card = undefined;
  state.question = undefined;
  state.watched = undefined;
  state.active = undefined;
  state.stopping = undefined;
  state.held = undefined;
  state.regenerate = undefined;
  showQueue([]);
  showStop();
  clearNotice();
}

async function loadSession() {
  const session = await transport.readSession();
  state.chatEnabled = session.chat_enabled;
  state.bodyLimit = session.body_limit_bytes;
  $('provider').textContent = session.provider ?? 'none';
  $('model').textContent = session.model ?? '—';
  $('router').textContent = session.router === 'on' ? 'on (reads each turn first)' : 'off';
  state.examples = (session.examples ?? []).map((example) => (typeof example === 'string' ? { text: example, language: null } : example));
  $('chat-url').textContent = session.chat_url;
  const select = $('user');
  for (const name of session.users) select.append(el('option', { value: name }, name));
  select.value = session.actor.kind === 'user' ? session.actor.id : 'anonymous';
}

$('login').addEventListener('submit', async (submit) => {
  submit.preventDefault();
  const user = $('user').value;
  const outcome = await transport.signIn(user === 'anonymous' ? null : user);
  if (outcome.ok) {
    sessionStorage.removeItem('plumb.thread');
    location.reload();
  } else addEntry(errorBox(outcome.error));
});

$('new-thread').addEventListener('click', () => {
  state.thread = undefined;
  state.newThread = true;
  sessionStorage.removeItem('plumb.thread');
  clearThread();
  showExamples();
  closeThreads();
  void loadThreads();
  prompt.focus();
});

// ---- panels and the keyboard ----------------------------------------------------------------

function closeThreads() {
  $('threads').classList.remove('open');
  $('threads-toggle').setAttribute('aria-expanded', 'false');
}

$('threads-toggle').addEventListener('click', () => {
  const open = !$('threads').classList.contains('open');
  $('threads').classList.toggle('open', open);
  $('threads-toggle').setAttribute('aria-expanded', String(open));
  if (open) $('new-thread').focus();
});

// Escape closes what is open (the settings, the threads drawer), else brings the focus back to the message box.
document.addEventListener('keydown', (key) => {
  if (key.key !== 'Escape' || key.isComposing) return;
  if ($('settings').open) {
    $('settings').open = false;
    $('settings').querySelector('summary').focus();
    return;
  }
  if ($('threads').classList.contains('open')) {
    closeThreads();
    $('threads-toggle').focus();
    return;
  }
  prompt.focus();
});

// A click outside the settings panel or the drawer closes it.
document.addEventListener('click', (click) => {
  if ($('settings').open && !$('settings').contains(click.target)) $('settings').open = false;
  if ($('threads').classList.contains('open') && !$('threads').contains(click.target) && !$('threads-toggle').contains(click.target)) closeThreads();
});

$('language').value = localStorage.getItem('plumb.language') ?? 'en';
$('language').addEventListener('change', () => setLanguage(language()));

$('force-sse').addEventListener('change', () => transport.preferSse($('force-sse').checked));

await loadSession();
if (state.chatEnabled) transport.connect();
else $('transport').textContent = 'none (chat is off)';
const reopen = sessionStorage.getItem('plumb.thread');
if (reopen && state.chatEnabled) await openThread(reopen);
else await loadThreads();
showExamples();
prompt.focus();
