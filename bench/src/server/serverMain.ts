/**
 * The child process that serves the benchmark conversation: a strict loopback
 * OpenAI-compatible server from @rxagent/core/testing, scripted from each request, so the
 * client's CPU time is measured apart from the server's. Talks to its parent over IPC.
 */
import {
  type RecordedRequest,
  type ScriptedReply,
  startStrictOpenAIServer,
} from '@rxagent/core/testing';
import { scenarioTurn } from '../scenario/conversation.js';
import type { ParentMessage, ServerMessage } from './protocol.js';

let answered = 0;
let parked = 0;
const send = (message: ServerMessage) => process.send?.(message);

// Each reply re-enqueues itself, so the script never runs out however long the bench runs.
const reply: ScriptedReply = (request) => {
  server.enqueue(reply);
  answered++;
  return scenarioTurn(request.messages, () => {
    parked++;
    send({ type: 'parked', count: parked });
  });
};

const server = await startStrictOpenAIServer({ script: Array.from({ length: 4096 }, () => reply) });

// The server records every request; drop the records so a long bench does not grow its heap.
const records = server.requests as RecordedRequest[];
setInterval(() => {
  records.length = 0;
}, 500).unref();

process.on('message', (message: ParentMessage) => {
  if (message.type === 'stats') {
    const rejected = server.rejected.map((r) => r.rejection ?? '');
    send({
      type: 'stats',
      answered,
      parked,
      rejected: rejected.slice(0, 3),
      rejectedCount: rejected.length,
    });
  } else if (message.type === 'resetParked') {
    parked = 0;
    send({ type: 'ok' });
  } else if (message.type === 'close') {
    void server.close().then(() => process.exit(0));
  }
});

send({ type: 'ready', baseURL: server.baseURL });
