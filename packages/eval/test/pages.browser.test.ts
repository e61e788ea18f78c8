import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type AgentBase, textOf } from '@rxagent/core';
import { ScriptedChatModel } from '@rxagent/core/testing';
import { evaluate, includes, toolTrajectory, traceHtml, writeReport } from '@rxagent/eval';
import { ReActAgent } from '@rxagent/react-agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, haveChromium, inCi, launchOffline, type OfflineBrowser } from './chromium.js';
import { hubRun, longRun, weatherRun } from './traceScenarios.js';

/** Where the test leaves its screenshots (outside the repo), to look at. */
const SCREENSHOT_DIR = join(tmpdir(), 'rxagent-eval-pages');

if (!haveChromium && !inCi) {
  console.warn(`eval page browser test skipped: no ${CHROMIUM} (apt-get install chromium)`);
}

describe.skipIf(!haveChromium && !inCi)('trace and report pages in headless Chromium', () => {
  let browser: OfflineBrowser;
  let dir: string;

  beforeAll(async () => {
    browser = await launchOffline();
    dir = await mkdtemp(join(tmpdir(), 'rxagent-eval-pages-'));
    await mkdir(SCREENSHOT_DIR, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function save(name: string, html: string): Promise<string> {
    const path = join(dir, name);
    await writeFile(path, html);
    return pathToFileURL(path).href;
  }

  it('sees a request the listener must catch (the check below can fail)', async () => {
    const url = await save('leaky.html', '<img src="http://198.51.100.7/x.png">');
    const { page, requests } = await browser.open(url, 1280);
    expect(requests).toContain('http://198.51.100.7/x.png');
    await page.close();
  });

  it('renders every step and tool call of a run, makes no request, at 1280 and 390 px', async () => {
    const events = await weatherRun();
    const url = await save('weather.html', traceHtml(events, { title: 'weather run' }));
    for (const width of [1280, 390]) {
      const { page, requests } = await browser.open(url, width);
      expect(requests).toEqual([url]);
      expect(await page.locator('[data-kind="step"]').count()).toBe(3);
      const tools = page.locator('[data-kind="tool-call"]');
      expect(await tools.count()).toBe(3);
      expect(await tools.nth(1).locator('[data-kind="arguments"]').textContent()).toContain(
        'Atlantis',
      );
      expect(await tools.nth(0).locator('[data-kind="result"]').textContent()).toBe(
        'Paris: sunny, 21 °C',
      );
      expect(await tools.nth(0).isVisible()).toBe(true);
      // Nothing wider than the window: the page reflows on a phone.
      const overflow = await page.evaluate(
        'document.documentElement.scrollWidth - window.innerWidth',
      );
      expect(Number(overflow)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `trace-${width}.png`), fullPage: true });
      await page.close();
    }
  });

  it('shows one lane per hub participant', async () => {
    const url = await save('hub.html', traceHtml(await hubRun(), { title: 'hub run' }));
    const { page, requests } = await browser.open(url, 1280);
    expect(requests).toEqual([url]);
    expect(await page.locator('.timeline .lane .lane-name').allTextContents()).toEqual([
      'planner',
      'critic',
    ]);
    expect(await page.locator('[data-marker="delivery"]').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'hub-1280.png'), fullPage: true });
    await page.close();
  });

  it('renders a 1,000-event trace in under a second', async () => {
    const events = await longRun(60);
    expect(events.length).toBeGreaterThanOrEqual(1_000);
    const built = performance.now();
    const html = traceHtml(events.slice(0, 1_000));
    const buildMs = performance.now() - built;
    const url = await save('long.html', html);
    const { page } = await browser.open(url, 1280);
    // From the start of navigation to the end of the load event: parsing, layout and paint.
    const renderMs = Number(
      await page.evaluate(
        "(() => { const [n] = performance.getEntriesByType('navigation'); return n.loadEventEnd - n.startTime; })()",
      ),
    );
    expect(await page.locator('[data-kind="event"]').count()).toBe(1_000);
    console.log(
      `1,000-event trace: built in ${buildMs.toFixed(1)} ms, ${(html.length / 1024).toFixed(0)} KiB, loaded in ${renderMs.toFixed(0)} ms`,
    );
    expect(renderMs).toBeLessThan(1_000);
    await page.close();
  });

  it('writes a report page that links each case to its trace page', async () => {
    const agent = (reply: string): AgentBase =>
      new ReActAgent({ name: 'geo', sysPrompt: 'Answer.', model: new ScriptedChatModel([reply]) });
    const report = await evaluate({
      dataset: [
        { id: 'france', input: 'Capital of France?', expected: 'Paris' },
        { id: 'spain/2', input: 'Capital of Spain?', expected: 'Madrid' },
      ],
      agent: (testCase) => agent(testCase.id === 'france' ? 'Paris' : 'Barcelona'),
      scorers: [includes(), toolTrajectory([])],
      progress: false,
    });
    const written = await writeReport(report, join(dir, 'report'));
    expect(written.traces).toHaveLength(2);
    for (const width of [1280, 390]) {
      const url = pathToFileURL(written.html).href;
      const { page, requests } = await browser.open(url, width);
      expect(requests).toEqual([url]);
      const rows = page.locator('[data-kind="case"]');
      expect(await rows.count()).toBe(2);
      expect(await rows.nth(1).getAttribute('data-passed')).toBe('false');
      expect(await page.locator('[data-kind="scorer"]').count()).toBe(2);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `report-${width}.png`), fullPage: true });
      if (width === 1280) {
        await rows.nth(1).locator('a', { hasText: 'trace' }).click();
        await page.waitForURL(/traces\/002-spain_2\.html$/);
        expect(await page.locator('[data-kind="reply"]').textContent()).toBe(
          textOf(report.cases[1]!.reply!),
        );
      }
      await page.close();
    }
  });
});
