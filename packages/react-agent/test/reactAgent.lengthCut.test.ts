import { type ChatChunk, type ChatModel, textOf } from '@rxagent/core';
import { ReActAgent } from '@rxagent/react-agent';
import { lastValueFrom, type Observable, of } from 'rxjs';
import { describe, expect, it } from 'vitest';

/** A model whose every answer ends with `finishReason`. */
function modelEnding(finishReason: string): ChatModel {
  return {
    modelName: 'cut-model',
    stream: (): Observable<ChatChunk> => of({ text: 'The first half of' }, { finishReason }),
  };
}

describe('ReActAgent answer cut by the output-token limit', () => {
  it("ends with generateReason 'length' and keeps the finish reason", async () => {
    const agent = new ReActAgent({ name: 'a', sysPrompt: 'Answer.', model: modelEnding('length') });
    const reply = await lastValueFrom(agent.call('Write a long essay.'));
    expect(textOf(reply)).toBe('The first half of');
    expect(reply.metadata).toMatchObject({ generateReason: 'length', finishReason: 'length' });
  });

  it("ends with 'stop' for a whole answer", async () => {
    const agent = new ReActAgent({ name: 'a', sysPrompt: 'Answer.', model: modelEnding('stop') });
    const reply = await lastValueFrom(agent.call('Write a short essay.'));
    expect(reply.metadata['generateReason']).toBe('stop');
  });
});
