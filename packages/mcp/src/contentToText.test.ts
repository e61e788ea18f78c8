import { describe, expect, it } from 'vitest';
import { contentToText } from './contentToText.js';

const base64Of = (bytes: number): string => Buffer.alloc(bytes).toString('base64');

describe('contentToText', () => {
  it('joins text blocks with newlines', () => {
    const text = contentToText({
      content: [
        { type: 'text', text: 'one' },
        { type: 'text', text: 'two' },
      ],
    });
    expect(text).toBe('one\ntwo');
  });

  it('summarises images and audio by type and decoded size', () => {
    const text = contentToText({
      content: [
        { type: 'image', mimeType: 'image/png', data: base64Of(12 * 1024) },
        { type: 'audio', mimeType: 'audio/wav', data: base64Of(100) },
        { type: 'image', mimeType: 'image/jpeg', data: base64Of(3 * 1024 * 1024) },
      ],
    });
    expect(text).toBe(
      '[image: image/png, 12 KB]\n[audio: audio/wav, 100 B]\n[image: image/jpeg, 3.0 MB]',
    );
  });

  it('gives a text resource its text and summarises a blob resource and a link', () => {
    const text = contentToText({
      content: [
        { type: 'resource', resource: { uri: 'file:///a.txt', text: 'hello' } },
        {
          type: 'resource',
          resource: { uri: 'file:///b.bin', mimeType: 'application/zip', blob: base64Of(2048) },
        },
        { type: 'resource_link', uri: 'file:///c.md', name: 'c.md' },
      ],
    });
    expect(text).toBe(
      '[resource: file:///a.txt]\nhello\n[resource: file:///b.bin, application/zip, 2 KB]\n[resource link: file:///c.md (c.md)]',
    );
  });

  it('falls back to structured content, then to a note, when there is no content', () => {
    expect(contentToText({ content: [], structuredContent: { temperature: 21 } })).toBe(
      '{"temperature":21}',
    );
    expect(contentToText({ content: [] })).toBe('(the tool returned no content)');
  });
});
