import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

type Content = CallToolResult['content'][number];

/**
 * Turns the content of an MCP tool result into the text a model reads. Text blocks are kept
 * as they are; everything else is summarised in one bracketed line (`[image: image/png, 12
 * KB]`, `[resource link: file:///a.txt (a.txt)]`), since a tool result sent back to a chat
 * model is text. A text resource contributes its text under a `[resource: uri]` line. With
 * no content at all, `structuredContent` (if any) is given as JSON.
 */
export function contentToText(
  result: Pick<CallToolResult, 'content' | 'structuredContent'>,
): string {
  const content = Array.isArray(result.content) ? result.content : [];
  if (content.length === 0) {
    return result.structuredContent === undefined
      ? '(the tool returned no content)'
      : JSON.stringify(result.structuredContent);
  }
  return content.map(blockToText).join('\n');
}

function blockToText(block: Content): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      return `[image: ${block.mimeType}, ${formatBytes(base64Bytes(block.data))}]`;
    case 'audio':
      return `[audio: ${block.mimeType}, ${formatBytes(base64Bytes(block.data))}]`;
    case 'resource_link':
      return `[resource link: ${block.uri}${block.name ? ` (${block.name})` : ''}]`;
    case 'resource': {
      const { resource } = block;
      if ('text' in resource && typeof resource.text === 'string') {
        return `[resource: ${resource.uri}]\n${resource.text}`;
      }
      const blob = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : '';
      const mime = resource.mimeType ?? 'unknown type';
      return `[resource: ${resource.uri}, ${mime}, ${formatBytes(base64Bytes(blob))}]`;
    }
    default:
      return `[${String((block as { type?: unknown }).type)} content]`;
  }
}

/** The decoded size of base64 text, without decoding it. */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
