// The web chat's page script: a small AG-UI client over fetch and server-sent events.
// One conversation = one AG-UI thread; each question (or approval answer) is one run.

const log = document.getElementById('log');
const form = document.getElementById('composer');
const input = document.getElementById('input');
const sendButton = document.getElementById('send');
const stopButton = document.getElementById('stop');
const newButton = document.getElementById('new');

const followLink = document.getElementById('follow');

/** A conversation to follow read-only (`?follow=<threadId>`: another tab's run), if any. */
const followed = new URLSearchParams(location.search).get('follow');

/** The open conversation. */
let chat = newChat(followed ?? undefined);
/** The run in flight: its AbortController (Stop aborts it, the server then interrupts the agent). */
let running;

function newChat(threadId = uuid()) {
  document.body.dataset.threadId = threadId;
  if (followLink) followLink.href = `?follow=${encodeURIComponent(threadId)}`;
  return {
    threadId,
    /** The conversation as AG-UI messages (sent with each run; the server keeps its own memory). */
    messages: [],
    /** Elements of the streaming text and reasoning messages, and tool cards, by id. */
    bubbles: new Map(),
    cards: new Map(),
    /** Decisions collected for the open approval interrupts, by interrupt id. */
    pending: new Map(),
  };
}

function uuid() {
  if (globalThis.crypto?.randomUUID) return crypto.randomUUID();
  return `id-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}

function setState(state) {
  document.body.dataset.state = state;
  const busy = state === 'running';
  sendButton.disabled = busy;
  stopButton.disabled = !busy;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function append(node) {
  log.querySelector('.hint')?.remove();
  log.append(node);
  log.scrollTop = log.scrollHeight;
  return node;
}

function notice(text, kind = '') {
  return append(element('p', `notice ${kind}`.trim(), text));
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = input.value.trim();
  if (text === '' || running) return;
  input.value = '';
  dropOpenApprovals(chat);
  const message = { id: uuid(), role: 'user', content: text };
  chat.messages.push(message);
  append(element('div', 'bubble user', text));
  void run();
});

input.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey) {
    event.preventDefault();
    form.requestSubmit();
  }
});

stopButton.addEventListener('click', () => running?.abort());

newButton.addEventListener('click', () => {
  running?.abort();
  chat = newChat();
  log.replaceChildren(element('p', 'hint', 'New conversation. Ask away.'));
  setState('idle');
  input.focus();
});

/**
 * Follows the run going on in another tab's conversation (`GET /agent?threadId=`): its
 * events from its start, then live, shown like this tab's own. Read-only: this tab asks
 * nothing.
 */
async function follow(threadId) {
  document.body.dataset.mode = 'follow';
  input.disabled = true;
  input.placeholder = 'Following another tab’s conversation (read-only)';
  sendButton.disabled = true;
  log.replaceChildren(element('p', 'notice', `Following conversation ${threadId}.`));
  const current = chat;
  setState('running');
  try {
    const response = await fetch(`/agent?threadId=${encodeURIComponent(threadId)}`, {
      headers: { accept: 'text/event-stream' },
    });
    if (response.status === 204) {
      notice('Nothing is running in that conversation right now.');
      setState('idle');
      return;
    }
    if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
    for await (const event of sseEvents(response.body)) handle(current, event);
    if (document.body.dataset.state === 'running') setState('idle');
  } catch (error) {
    notice(`Error: ${error instanceof Error ? error.message : String(error)}`, 'error');
    setState('error');
  } finally {
    sendButton.disabled = true;
    stopButton.disabled = true;
  }
}

if (followed) void follow(followed);

/** Runs the agent once (a new question, or `resume` answers to approval interrupts). */
async function run(resume) {
  const controller = new AbortController();
  running = controller;
  const current = chat;
  setState('running');
  const body = {
    threadId: current.threadId,
    runId: uuid(),
    messages: current.messages,
    tools: [],
    context: [],
    state: {},
    forwardedProps: {},
    ...(resume && { resume }),
  };
  let finished = false;
  try {
    const response = await fetch('/agent', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
    for await (const event of sseEvents(response.body)) {
      if (chat !== current) return;
      if (handle(current, event)) finished = true;
    }
    if (!finished) throw new Error('The connection closed before the run finished.');
  } catch (error) {
    if (chat !== current) return;
    if (controller.signal.aborted) {
      stopOpenStreams(current);
      notice('■ Stopped — the agent was interrupted.', 'stopped');
      setState('stopped');
    } else {
      notice(`Error: ${error instanceof Error ? error.message : String(error)}`, 'error');
      setState('error');
    }
  } finally {
    if (running === controller) running = undefined;
    if (chat === current && document.body.dataset.state === 'running') setState('idle');
  }
}

/** Parses a server-sent event stream of AG-UI events (`data: {json}` blocks). */
async function* sseEvents(stream) {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      if (data !== '') yield JSON.parse(data);
      end = buffer.indexOf('\n\n');
    }
  }
}

/** Applies one AG-UI event to the page; true when it ends the run. */
function handle(current, event) {
  switch (event.type) {
    case 'TEXT_MESSAGE_START': {
      const bubble = append(element('div', 'bubble assistant streaming'));
      current.bubbles.set(event.messageId, bubble);
      current.messages.push({ id: event.messageId, role: 'assistant', content: '' });
      return false;
    }
    case 'TEXT_MESSAGE_CONTENT': {
      const bubble = current.bubbles.get(event.messageId);
      if (bubble) {
        bubble.append(event.delta);
        // How many pieces the answer arrived in (the browser test checks it streamed).
        bubble.dataset.chunks = String(Number(bubble.dataset.chunks ?? 0) + 1);
      }
      const message = current.messages.find((m) => m.id === event.messageId);
      if (message) message.content += event.delta;
      log.scrollTop = log.scrollHeight;
      return false;
    }
    case 'TEXT_MESSAGE_END':
      current.bubbles.get(event.messageId)?.classList.remove('streaming');
      return false;
    case 'REASONING_MESSAGE_START':
      current.bubbles.set(event.messageId, append(element('div', 'thinking', 'thinking: ')));
      return false;
    case 'REASONING_MESSAGE_CONTENT':
      current.bubbles.get(event.messageId)?.append(event.delta);
      return false;
    case 'TOOL_CALL_START':
      startToolCard(current, event);
      return false;
    case 'TOOL_CALL_ARGS': {
      const card = current.cards.get(event.toolCallId);
      if (card) {
        card.args += event.delta;
        card.argsView.textContent = card.args;
      }
      return false;
    }
    case 'TOOL_CALL_END': {
      const card = current.cards.get(event.toolCallId);
      if (card) {
        card.argsView.textContent = pretty(card.args);
        card.call.function.arguments = card.args;
      }
      return false;
    }
    case 'TOOL_CALL_RESULT':
      finishToolCard(current, event);
      return false;
    case 'RUN_FINISHED':
      finishRun(current, event);
      return true;
    case 'RUN_ERROR':
      stopOpenStreams(current);
      notice(`Error: ${event.message}${event.code ? ` (${event.code})` : ''}`, 'error');
      setState('error');
      return true;
    default:
      return false;
  }
}

function startToolCard(current, event) {
  const node = append(element('section', 'tool-card'));
  node.dataset.toolCallId = event.toolCallId;
  const header = element('header');
  const title = element('span', 'name');
  title.append(element('span', 'badge', 'tool'), event.toolCallName);
  header.append(title, element('span', 'status', 'running…'));
  const argsView = element('pre', 'args');
  node.append(header, argsView);
  const call = {
    id: event.toolCallId,
    type: 'function',
    function: { name: event.toolCallName, arguments: '' },
  };
  // The call belongs to the assistant message that made it (a new one when it had no text).
  let parent = current.messages.find((m) => m.id === event.parentMessageId);
  if (!parent) {
    parent = { id: event.parentMessageId ?? uuid(), role: 'assistant', content: '' };
    current.messages.push(parent);
  }
  parent.toolCalls = [...(parent.toolCalls ?? []), call];
  current.cards.set(event.toolCallId, { node, argsView, args: '', call, status: header.lastChild });
}

function finishToolCard(current, event) {
  const card = current.cards.get(event.toolCallId);
  const content = typeof event.content === 'string' ? event.content : JSON.stringify(event.content);
  current.messages.push({
    id: event.messageId,
    role: 'tool',
    toolCallId: event.toolCallId,
    content,
  });
  if (!card) return;
  const failed = event.metadata?.isError === true;
  card.node.classList.remove('approval');
  card.node.classList.add(failed ? 'failed' : 'done');
  if (!failed) card.status.textContent = '✓ done';
  else card.status.textContent = content.startsWith('[denied]') ? '✗ denied' : '✗ failed';
  card.node.append(element('pre', 'result', content));
}

function finishRun(current, event) {
  stopOpenStreams(current);
  const outcome = event.outcome ?? { type: 'success' };
  if (outcome.type === 'cancelled') {
    notice('■ Stopped — the agent was interrupted.', 'stopped');
    setState('stopped');
  } else if (outcome.type === 'interrupt') {
    for (const interrupt of outcome.interrupts) askApproval(current, interrupt);
    setState('awaiting-approval');
  } else {
    setState('idle');
  }
}

/** Approve/Deny on the tool card; once every open interrupt is answered, the run resumes. */
function askApproval(current, interrupt) {
  const card = current.cards.get(interrupt.toolCallId ?? interrupt.id);
  const host = card?.node ?? append(element('section', 'tool-card'));
  host.classList.add('approval');
  if (card) card.status.textContent = 'waiting for approval';
  const box = element('div', 'approval-box');
  const approve = element('button', 'ok approve', 'Approve');
  const deny = element('button', 'danger deny', 'Deny');
  approve.type = 'button';
  deny.type = 'button';
  box.append(element('p', '', interrupt.message ?? 'Allow this tool call?'), approve, deny);
  host.append(box);
  current.pending.set(interrupt.id, undefined);
  const decide = (approved) => {
    approve.remove();
    deny.remove();
    box.querySelector('p').textContent = approved
      ? 'You approved this call.'
      : 'You denied this call.';
    if (card) card.status.textContent = approved ? 'approved' : 'denied';
    current.pending.set(interrupt.id, {
      interruptId: interrupt.id,
      status: 'resolved',
      payload: approved ? { approved: true } : { approved: false, reason: 'the user said no' },
    });
    if ([...current.pending.values()].every(Boolean)) {
      const resume = [...current.pending.values()];
      current.pending.clear();
      void run(resume);
    }
  };
  approve.addEventListener('click', () => decide(true));
  deny.addEventListener('click', () => decide(false));
}

/**
 * A new message while approvals are open moves on without them: the agent answers those calls
 * with error results itself, so their buttons go away.
 */
function dropOpenApprovals(current) {
  if (current.pending.size === 0) return;
  current.pending.clear();
  for (const box of log.querySelectorAll('.approval-box')) {
    if (box.querySelector('button') === null) continue;
    for (const button of box.querySelectorAll('button')) button.remove();
    box.querySelector('p').textContent = 'No decision: you moved on.';
  }
}

/** Ends the streaming look of whatever was still open (a stopped or failed run). */
function stopOpenStreams(current) {
  for (const bubble of current.bubbles.values()) bubble.classList.remove('streaming');
  for (const card of current.cards.values()) {
    if (card.status.textContent === 'running…') card.status.textContent = 'not run';
  }
}

function pretty(json) {
  try {
    return JSON.stringify(JSON.parse(json), null, 2);
  } catch {
    return json;
  }
}

setState('idle');
input.focus();
