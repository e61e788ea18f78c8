/**
 * A plain Node program (no test runner to catch what escapes) that runs one ReActAgent
 * turn per case against the server at argv[2], whose answers are hostile. It prints one
 * JSON line per case and then ends by itself: if anything the server sent crashed the
 * process or left a timer or socket behind, the test that spawns it sees that.
 */
import { textOf, userMsg } from '@rxagent/core';
import { OpenAIChatModel, ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom } from 'rxjs';

const [baseURL, casesArg] = process.argv.slice(2);
const cases = Number(casesArg);
const agent = new ReActAgent({
  name: 'assistant',
  sysPrompt: 'Be brief.',
  model: new OpenAIChatModel({
    model: 'hostile',
    baseURL: baseURL ?? '',
    apiKey: 'k',
    maxRetries: 0,
    timeoutMs: 1_000,
  }),
});

for (let n = 1; n <= cases; n += 1) {
  try {
    const reply = await lastValueFrom(agent.call(userMsg(`case ${n}`)));
    console.log(JSON.stringify({ n, ok: true, text: textOf(reply) }));
  } catch (error) {
    const { name, message } = error as Error;
    console.log(JSON.stringify({ n, ok: false, name, message }));
  }
}
const polluted = ['id', 'name', 'args'].filter((key) => key in Array.prototype);
console.log(JSON.stringify({ done: true, polluted }));
