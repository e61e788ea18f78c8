/**
 * web-chat: a browser chat that talks AG-UI to a ReActAgent, served by node:http.
 *
 *   npx -y pnpm@10.34.9 --filter @rxagent/example-web-chat start    # then open the URL
 *
 * Offline (default) a scripted model answers; with OPENAI_API_KEY or OPENAI_BASE_URL set,
 * a real model does. PORT picks the port (default 8787).
 */
import { isEntryPoint } from '@rxagent/example-kit';
import { startWebChat } from './server.js';

export { startWebChat, type WebChat, type WebChatOptions } from './server.js';

if (isEntryPoint(import.meta.url)) {
  const port = Number(process.env['PORT'] ?? 8787);
  startWebChat({ port }).then(
    (chat) => {
      process.stdout.write(`${chat.banner}\n\nweb chat on ${chat.url}  (Ctrl+C to stop)\n`);
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
