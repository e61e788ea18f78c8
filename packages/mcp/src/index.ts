export { contentToText } from './contentToText.js';
export { McpConnectionError } from './mcpConnectionError.js';
export type { McpHttpServer, McpServer, McpStdioServer, McpToolsetOptions } from './mcpServer.js';
export { McpToolset, type SkippedMcpTool } from './mcpToolset.js';
export { type McpServeOptions, mcpServer } from './server/mcpServer.js';
