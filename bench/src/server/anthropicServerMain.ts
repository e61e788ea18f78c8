/**
 * The child process that serves the benchmark conversation over Anthropic's Messages API:
 * the strict loopback server of @rxagent/anthropic/testing, scripted from each request with
 * the same scenario as the OpenAI-compatible server, so the client's CPU time is measured
 * apart from the server's. Speaks the IPC protocol of `serverMain.ts`.
 */
import {
  type AnthropicRecordedRequest,
  type AnthropicScriptedReply,
  startStrictAnthropicServer,
} from '@rxagent/anthropic/testing';
import { scenarioTurn } from '../scenario/conversation.js';
import type { ParentMessage, ServerMessage } from './protocol.js';

let answered = 0;
const send = (message: ServerMessage) => process.send?.(message);

// Each reply re-enqueues itself, so the script never runs out however long the bench runs.
const reply: AnthropicScriptedReply = (request) => {
  server.enqueue(reply);
  answered++;
  return scenarioTurn(request.messages);
};

const server = await startStrictAnthropicServer(Array.from({ length: 4096 }, () => reply));

const records = server.requests as AnthropicRecordedRequest[];
const rejections = server.rejected as AnthropicRecordedRequest[];
setInterval(() => {
  records.length = 0;
}, 500).unref();

process.on('message', (message: ParentMessage) => {
  if (message.type === 'stats') {
    const rejected = rejections.map((r) => r.rejection ?? '');
    send({
      type: 'stats',
      answered,
      parked: 0,
      rejected: rejected.slice(0, 3),
      rejectedCount: rejected.length,
    });
  } else if (message.type === 'resetParked') {
    send({ type: 'ok' });
  } else if (message.type === 'close') {
    void server.close().then(() => process.exit(0));
  }
});

send({ type: 'ready', baseURL: server.baseURL });
