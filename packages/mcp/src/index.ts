export { contentToText } from './contentToText.js';
export { McpConnectionError } from './mcpConnectionError.js';
export type { McpHttpServer, McpServer, McpStdioServer, McpToolsetOptions } from './mcpServer.js';
export { McpToolset, type SkippedMcpTool } from './mcpToolset.js';
