import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/** Where Debian installs Chromium; the browser tests need it (CI installs it). */
export const CHROMIUM = '/usr/bin/chromium';
export const haveChromium = existsSync(CHROMIUM);
export const inCi = process.env['CI'] === 'true';

/** A headless Chromium with no network at all, and the URL of every request a page made. */
export interface OfflineBrowser {
  readonly context: BrowserContext;
  /** Opens `url` in a new page of `width`×800, recording every request the page makes. */
  open(url: string, width: number): Promise<{ page: Page; requests: string[] }>;
  close(): Promise<void>;
}

/** Launches headless Chromium (the same flags as the web-chat test), offline. */
export async function launchOffline(): Promise<OfflineBrowser> {
  if (!haveChromium)
    throw new Error(`CI needs Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  const profile = await mkdtemp(join(tmpdir(), 'rxagent-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  await context.setOffline(true);
  return {
    context,
    async open(url, width) {
      const page = await context.newPage();
      await page.setViewportSize({ width, height: 800 });
      const requests: string[] = [];
      page.on('request', (request) => requests.push(request.url()));
      await page.goto(url, { waitUntil: 'load' });
      return { page, requests };
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
