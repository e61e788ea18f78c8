import { toTraceEntry, traceHtml } from '@rxagent/eval';
import { describe, expect, it } from 'vitest';
import { approvalRun, hubRun, weatherRun } from './traceScenarios.js';

const count = (html: string, pattern: RegExp) => (html.match(pattern) ?? []).length;

describe('traceHtml', () => {
  it('renders every step and every tool call with its arguments and result', async () => {
    const events = await weatherRun();
    const html = traceHtml(events, { title: 'weather <run>' });
    expect(html).toContain('<title>weather &lt;run&gt;</title>');
    expect(count(html, /data-kind="step"/g)).toBe(3);
    expect(count(html, /data-kind="tool-call"/g)).toBe(3);
    expect(count(html, /data-kind="model-request"/g)).toBe(3);
    expect(count(html, /data-kind="call"/g)).toBe(1);
    expect(count(html, /class="lane" data-lane="/g)).toBe(1);
    expect(count(html, /data-kind="reply"/g)).toBe(1);
    expect(html).toContain('&quot;city&quot;: &quot;Atlantis&quot;');
    expect(html).toContain('Paris: sunny, 21 °C');
    expect(html).toMatch(/data-tool="get_weather"[^>]*>[\s\S]*?badge bad">error/);
    expect(count(html, /data-kind="event"/g)).toBe(events.length);
    // Plain events carry no time: no latency is made up.
    expect(html).not.toMatch(/\d+ ms/);
  });

  it('shows latency and tokens for timed entries', async () => {
    const events = await weatherRun();
    const entries = events.map((event, i) => toTraceEntry(event, i * 10));
    const html = traceHtml(entries);
    expect(html).toMatch(/model request · \d+ ms · .*\d+ in \/ \d+ out tokens/);
    expect(html).toMatch(
      /<b>get_weather<\/b> <span class="badge ok">ok<\/span> <span class="meta">\d+ ms<\/span>/,
    );
  });

  it('shows the share of input a prompt cache served, per request and for the run', async () => {
    const events = await weatherRun();
    // The model requests of the run, with the cache counts a provider would report.
    let request = 0;
    const cached = events.map((event) =>
      event.type === 'postReasoning' && event.usage
        ? {
            ...event,
            usage: {
              inputTokens: 1000,
              outputTokens: 5,
              totalTokens: 1005,
              cachedInputTokens: request++ * 400,
            },
          }
        : event,
    );
    const html = traceHtml(cached);
    expect(html).toContain('1000 in / 5 out tokens'); // the first request: nothing cached
    expect(html).toContain('1000 in (40% cached) / 5 out tokens');
    expect(html).toContain('1000 in (80% cached) / 5 out tokens');
    expect(html).toContain('<b>40%</b><span>input from cache</span>');
    expect(traceHtml(events)).not.toContain('input from cache');
  });

  it('marks an approval, and lanes with hub deliveries', async () => {
    const approval = traceHtml(await approvalRun());
    expect(approval).toContain('data-marker="approval"');
    expect(approval).toContain('approval required: pay({&quot;amount&quot;:500})');
    const hub = traceHtml(await hubRun());
    expect(count(hub, /class="lane" data-lane="/g)).toBe(2);
    expect(hub).toContain('data-lane="planner"');
    expect(hub).toContain('data-lane="critic"');
    expect(hub).toMatch(/data-lane="critic"[\s\S]*data-marker="delivery"[^>]*>↘ heard planner/);
  });

  it('escapes what the run said, and has no script and a CSP that forbids fetches', async () => {
    const events = await weatherRun();
    const evil = [{ type: 'text' as const, text: '<script>alert(1)</script>' }];
    const html = traceHtml(
      events.map((event) =>
        event.type === 'postCall' ? { ...event, reply: { ...event.reply, content: evil } } : event,
      ),
    );
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain("default-src 'none'");
  });

  it('escapes an event type read back from JSON, in the event table', async () => {
    const events = await weatherRun();
    const entries = events.map((event, i) => toTraceEntry(event, i * 10));
    const read = JSON.parse(JSON.stringify(entries)) as typeof entries;
    const forged = {
      ...read[0]!,
      event: { ...read[0]!.event, type: '<img src=x onerror=alert(1)>' },
    };
    const html = traceHtml([...read, forged as (typeof entries)[number]]);
    expect(html).not.toContain('<img');
    expect(html).toContain('<td>&lt;img src=x onerror=alert(1)&gt;</td>');
  });

  it('labels the card of a stream() run (untimed) "events", and of a timed run "duration"', async () => {
    const events = await weatherRun();
    const untimed = traceHtml(events);
    expect(untimed).toContain(`<b>${events.length}</b><span>events</span>`);
    expect(untimed).not.toContain('<span>duration</span>');
    const timed = traceHtml(events.map((event, i) => toTraceEntry(event, i * 10)));
    expect(timed).toMatch(/<b>\d+ ms<\/b><span>duration<\/span>/);
    expect(timed).not.toContain('<span>events</span>');
  });
});
