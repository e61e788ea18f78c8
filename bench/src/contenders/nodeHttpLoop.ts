import { Agent, type IncomingMessage, request } from 'node:http';
import { TOOL_SCHEMAS } from '../scenario/tools.js';
import type { Contender } from './contender.js';
import { handWrittenLoop } from './handWrittenLoop.js';
import { WireAccumulator, type WireDelta } from './wireAccumulator.js';

/**
 * The hand-written baseline on plain `node:http`: a keep-alive agent, the same request
 * bodies as every contender, the SSE stream parsed by hand from the response's chunks and
 * accumulated by hand, both tool calls run in parallel (validated with zod). The floor a
 * framework's transport is measured against: no `fetch`, no web streams, no SDK.
 */
export function nodeHttpLoop(baseURL: string, label = 'node:http loop'): Contender {
  const url = new URL(`${baseURL}/chat/completions`);
  const agent = new Agent({ keepAlive: true, timeout: 4_000 });
  return {
    label,
    run: (prompt, signal) =>
      handWrittenLoop('nodeHttpLoop', prompt, (messages) => {
        const body = JSON.stringify({
          model: 'bench-model',
          messages,
          stream: true,
          stream_options: { include_usage: true },
          tools: TOOL_SCHEMAS,
        });
        return new Promise((resolve, reject) => {
          const req = request(
            {
              hostname: url.hostname,
              port: url.port,
              path: url.pathname,
              method: 'POST',
              agent,
              headers: {
                'content-type': 'application/json',
                authorization: 'Bearer bench-key',
                'content-length': Buffer.byteLength(body),
              },
              ...(signal && { signal }),
            },
            (res) => {
              if (res.statusCode !== 200) {
                readAll(res).then(
                  (text) => reject(new Error(`nodeHttpLoop: HTTP ${res.statusCode}: ${text}`)),
                  reject,
                );
                return;
              }
              const acc = new WireAccumulator();
              readEvents(
                res,
                (data) => {
                  const chunk = JSON.parse(data) as { choices: { delta?: WireDelta }[] };
                  acc.add(chunk.choices[0]?.delta);
                },
                () => resolve({ text: acc.text(), calls: acc.toolCalls() }),
                reject,
              );
            },
          );
          req.on('error', reject);
          req.end(body);
        });
      }),
  };
}

/**
 * Calls `onData` with the `data:` payload of every server-sent event, then `onDone` at
 * `[DONE]` (the rest of the body drained) or at the end of the body.
 */
function readEvents(
  res: IncomingMessage,
  onData: (data: string) => void,
  onDone: () => void,
  onError: (error: Error) => void,
): void {
  res.setEncoding('utf8');
  let buffer = '';
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    onDone();
  };
  res.on('data', (text: string) => {
    if (done) return;
    buffer = buffer === '' ? text : buffer + text;
    let start = 0;
    let end = buffer.indexOf('\n\n', start);
    while (end !== -1) {
      // One event: its `data:` lines (the bench server sends one per event).
      let line = start;
      while (line < end) {
        let eol = buffer.indexOf('\n', line);
        if (eol === -1 || eol > end) eol = end;
        if (buffer.startsWith('data: ', line)) {
          const data = buffer.slice(line + 6, eol);
          if (data === '[DONE]') {
            finish();
            return;
          }
          try {
            onData(data);
          } catch (error) {
            done = true;
            res.destroy();
            onError(error as Error);
            return;
          }
        }
        line = eol + 1;
      }
      start = end + 2;
      end = buffer.indexOf('\n\n', start);
    }
    buffer = start === 0 ? buffer : buffer.slice(start);
  });
  res.on('end', finish);
  // Aborted after the headers: the response may only close, with neither 'end' nor 'error'.
  res.on('close', () => {
    if (done) return;
    done = true;
    onError(new Error('nodeHttpLoop: the response closed before [DONE]'));
  });
  res.on('error', (error) => {
    if (done) return;
    done = true;
    onError(error);
  });
}

function readAll(res: IncomingMessage): Promise<string> {
  res.setEncoding('utf8');
  let text = '';
  return new Promise((resolve, reject) => {
    res.on('data', (part: string) => {
      text += part;
    });
    res.on('end', () => resolve(text));
    res.on('error', reject);
  });
}
