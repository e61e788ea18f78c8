import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { textOf } from '@rxagent/core';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebChat, type WebChat } from '../src/main.js';

const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
const inCi = process.env['CI'] === 'true';

/** Where the test leaves its screenshots (outside the repo). */
const SCREENSHOT_DIR = join(tmpdir(), 'rxagent-web-chat');

if (!haveChromium && !inCi) {
  console.warn(
    `web-chat browser test skipped: no ${CHROMIUM} (install it with: apt-get install chromium)`,
  );
}

describe.skipIf(!haveChromium && !inCi)('web-chat example in headless Chromium', () => {
  let chat: WebChat;
  let context: BrowserContext;
  let profile: string;
  const blocked: string[] = [];

  beforeAll(async () => {
    if (!haveChromium) {
      throw new Error(`CI needs Chromium at ${CHROMIUM}: apt-get install -y chromium`);
    }
    chat = await startWebChat({ env: {}, paceMs: 5 });
    profile = await mkdtemp(join(tmpdir(), 'rxagent-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
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
      viewport: { width: 1000, height: 760 },
    });
    // Nothing leaves the loopback interface.
    await context.route('**/*', (route) => {
      const { hostname } = new URL(route.request().url());
      if (hostname === '127.0.0.1' || hostname === 'localhost') return route.continue();
      blocked.push(route.request().url());
      return route.abort();
    });
  });

  afterAll(async () => {
    await context?.close();
    await chat?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  /** Waits until the page says the conversation is in `state` (idle, running, stopped, …). */
  async function waitForState(page: Page, state: string): Promise<void> {
    await page.locator(`body[data-state="${state}"]`).waitFor({ state: 'attached' });
  }

  async function ask(page: Page, question: string): Promise<void> {
    await page.fill('#input', question);
    await page.click('#send');
  }

  it('streams an answer with a tool card for the weather question', async () => {
    const page = await context.newPage();
    await page.goto(chat.url);
    expect(await page.locator('.banner').textContent()).toMatch(/^mode: offline/);
    await ask(page, "What's the weather in London?");
    const card = page.locator('.tool-card', { hasText: 'get_weather' });
    await card.locator('.result').waitFor();
    expect(await card.locator('.status').textContent()).toBe('✓ done');
    expect(await card.locator('.args').textContent()).toContain('"city": "London"');
    expect(await card.locator('.result').textContent()).toBe('Showers, 14 °C, take an umbrella');
    await waitForState(page, 'idle');
    const answers = await page.locator('.bubble.assistant').allTextContents();
    expect(answers).toEqual([
      'Let me check the weather in London.',
      'The forecast says: Showers, 14 °C, take an umbrella. Enjoy your day!',
    ]);
    expect(await page.locator('.bubble.streaming').count()).toBe(0);
    // The answer arrived token by token, not at once.
    const chunks = await page.locator('.bubble.assistant').last().getAttribute('data-chunks');
    expect(Number(chunks)).toBeGreaterThan(5);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'weather.png') });
    await page.close();
  });

  it('serves two tabs with their own conversations, and a second tab follows a run', async () => {
    const first = await context.newPage();
    const second = await context.newPage();
    await first.goto(chat.url);
    await second.goto(chat.url);
    const firstThread = await first.getAttribute('body', 'data-thread-id');
    const secondThread = await second.getAttribute('body', 'data-thread-id');
    expect(firstThread).not.toBe(secondThread);

    // Each tab its own conversation: what one asks, the other's agent never hears.
    await ask(first, "What's the weather in Paris?");
    await ask(second, 'Hello');
    await waitForState(first, 'idle');
    await waitForState(second, 'idle');
    const heard = (thread: string | null) =>
      chat.agents
        .get(thread ?? '')
        ?.memory.messages()
        .filter((msg) => msg.role === 'user')
        .map(textOf);
    expect(heard(firstThread)).toEqual(["What's the weather in Paris?"]);
    expect(heard(secondThread)).toEqual(['Hello']);

    // A long story in the first tab; a third tab follows that conversation while it streams.
    await ask(first, 'Tell me a long story');
    await first.waitForFunction(
      "(document.querySelector('.bubble.streaming')?.textContent ?? '').split(' ').length > 3",
    );
    const follower = await context.newPage();
    await follower.goto(`${chat.url}?follow=${encodeURIComponent(firstThread ?? '')}`);
    await follower.locator('.bubble.assistant').waitFor();
    expect(await follower.getAttribute('body', 'data-mode')).toBe('follow');
    expect(await follower.locator('#input').isDisabled()).toBe(true);
    await waitForState(first, 'idle');
    await waitForState(follower, 'idle');
    const story = (page: Page) => page.locator('.bubble.assistant').last().textContent();
    // The follower saw the run from its start: the same whole story as the tab that asked.
    expect(await story(follower)).toBe(await story(first));
    expect((await story(first))?.split(' ').length).toBeGreaterThan(20);
    await first.screenshot({ path: join(SCREENSHOT_DIR, 'two-tabs-asker.png') });
    await follower.screenshot({ path: join(SCREENSHOT_DIR, 'two-tabs-follower.png') });
    await second.screenshot({ path: join(SCREENSHOT_DIR, 'two-tabs-other.png') });
    for (const page of [first, second, follower]) await page.close();
  });

  it('stops a long answer in a second conversation: the agent is interrupted', async () => {
    const page = await context.newPage();
    await page.goto(chat.url);
    await ask(page, 'Hello');
    await waitForState(page, 'idle');
    await page.click('#new');
    const threadId = await page.getAttribute('body', 'data-thread-id');
    await ask(page, 'Tell me a long story');
    const story = page.locator('.bubble.assistant.streaming');
    await story.waitFor();
    // A few words in, the story is still streaming.
    await page.waitForFunction(
      "(document.querySelector('.bubble.streaming')?.textContent ?? '').split(' ').length > 3",
    );
    // Server side: the disconnect must interrupt this conversation's agent.
    const agent = chat.agents.get(threadId ?? '');
    if (agent === undefined) throw new Error(`no agent for thread ${threadId}`);
    const interrupted = new Promise<string>((resolve) => {
      const remove = agent.addHook({
        onEvent: (event) => {
          if (event.type !== 'postCall') return;
          remove();
          resolve(String(event.reply.metadata['generateReason']));
        },
      });
    });
    await page.click('#stop');
    await page.locator('.notice.stopped').waitFor();
    expect(await page.locator('.notice.stopped').textContent()).toBe(
      '■ Stopped — the agent was interrupted.',
    );
    expect(await page.getAttribute('body', 'data-state')).toBe('stopped');
    const shown = (await page.locator('.bubble.assistant').last().textContent()) ?? '';
    expect(shown.length).toBeGreaterThan(0);
    expect(await interrupted).toBe('interrupted');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'stopped.png') });
    // The conversation goes on after a stop.
    await ask(page, 'Are you still there?');
    await waitForState(page, 'idle');
    expect(await page.locator('.bubble.assistant').last().textContent()).toMatch(/^I can check/);
    await page.close();
  });

  it('holds a booking for approval and runs it once approved', async () => {
    const page = await context.newPage();
    await page.goto(chat.url);
    const threadId = await page.getAttribute('body', 'data-thread-id');
    await ask(page, 'Book a hotel in Paris');
    const card = page.locator('.tool-card', { hasText: 'book_hotel' });
    await card.locator('button.approve').waitFor();
    expect(await page.getAttribute('body', 'data-state')).toBe('awaiting-approval');
    expect(await card.locator('.status').textContent()).toBe('waiting for approval');
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'approval.png') });
    await card.locator('button.approve').click();
    await card.locator('.result').waitFor();
    expect(await card.locator('.result').textContent()).toMatch(
      /^Booked: Hôtel du Parc, Paris, 2 nights/,
    );
    await waitForState(page, 'idle');
    expect(await page.locator('.bubble.assistant').last().textContent()).toMatch(/^Done\. Booked:/);
    const reply = chat.agents
      .get(threadId ?? '')
      ?.memory.messages()
      .at(-1);
    expect(reply && textOf(reply)).toMatch(/^Done\. Booked:/);
    await page.close();
  });

  it('moves on without a decision when the user asks something else', async () => {
    const page = await context.newPage();
    await page.goto(chat.url);
    await ask(page, 'Book a hotel in London');
    const card = page.locator('.tool-card', { hasText: 'book_hotel' });
    await card.locator('button.approve').waitFor();
    await ask(page, 'Hello');
    await waitForState(page, 'idle');
    expect(await card.locator('button').count()).toBe(0);
    expect(await card.locator('.approval-box p').textContent()).toBe('No decision: you moved on.');
    expect(await page.locator('.bubble.assistant').last().textContent()).toMatch(/^I can check/);
    await page.close();
  });

  it('answers a denied booking without running it', async () => {
    const page = await context.newPage();
    await page.goto(chat.url);
    await ask(page, 'Book a hotel in Tokyo');
    const card = page.locator('.tool-card', { hasText: 'book_hotel' });
    await card.locator('button.deny').click();
    await waitForState(page, 'idle');
    expect(await card.locator('.status').textContent()).toBe('✗ denied');
    expect(await card.locator('.result').textContent()).toBe('[denied] the user said no');
    expect(await page.locator('.bubble.assistant').last().textContent()).toBe(
      'Understood, I did not book anything (the user said no).',
    );
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'denied.png'), fullPage: true });
    expect(blocked).toEqual([]);
    await page.close();
  });
});
