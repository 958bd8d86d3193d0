import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SimEvent } from './events.ts';
import {
  STANDALONE_RUN_ID,
  readStandaloneRun,
  standaloneFileName,
  standaloneRunHtml,
} from './standalone.ts';
import type { Draft } from '../testing/reportLogs.ts';
import { dialogue, scenario, stamp, start } from '../testing/reportLogs.ts';
import { hostileText } from '../testing/markdown.ts';
import { REFUND_PLAN, simulateRefunds } from '../../test/refundDesk.ts';

/** The viewer's template as the build writes it: the run's place, then the inlined code. */
const TEMPLATE = [
  '<!doctype html><html><head><meta charset="UTF-8" /><title>PolicyLab run</title>',
  `<script type="application/json" id="${STANDALONE_RUN_ID}"></script>`,
  '<script type="module">document.title;</script></head>',
  '<body><div id="root"></div></body></html>',
].join('\n');

const ESCAPE = '</script><script>alert(1)</script>';

/** A one-dialogue log whose customer says `text`. */
function logSaying(text: string): SimEvent[] {
  const drafts: Draft[] = [start, scenario('s', ['privacy']), ...dialogue('s#1', 's', 0)];
  return stamp(drafts).map((e) =>
    e.type === 'message' && e.speaker === 'user' ? { ...e, text } : e,
  );
}

/** The text of the page's data element, as a browser's parser hands it to the page. */
function embedded(html: string): string {
  const open = `<script type="application/json" id="${STANDALONE_RUN_ID}">`;
  const from = html.indexOf(open) + open.length;
  // Script data ends at the first `</script`, whatever it is in: that is the property under test.
  return html.slice(from, html.toLowerCase().indexOf('</script', from));
}

/** The page's script elements, by a search for their opening tags. */
const scripts = (html: string) => html.toLowerCase().split('<script').length - 1;

describe('standaloneRunHtml', () => {
  it('keeps a log that tries to close the element inside its JSON, and reads it back whole', () => {
    const events = logSaying(ESCAPE);
    const html = standaloneRunHtml(TEMPLATE, events, 'Refund desk');
    expect(scripts(html)).toBe(scripts(TEMPLATE));
    expect(html).not.toContain('alert(1)</script>');
    const read = readStandaloneRun(embedded(html));
    expect(read).toEqual({ ok: true, title: 'Refund desk', events });
  });

  it('reads back a recorded run exactly, with the page around it unchanged', async () => {
    const { events } = await simulateRefunds(REFUND_PLAN);
    const html = standaloneRunHtml(TEMPLATE, events, 'A run');
    expect(readStandaloneRun(embedded(html))).toEqual({ ok: true, title: 'A run', events });
    const [before, after] = TEMPLATE.split(`</script>\n<script type="module">`);
    expect(html.endsWith(`</script>\n<script type="module">${after ?? ''}`)).toBe(true);
    expect(html.startsWith(before?.slice(0, before.indexOf('<title>')) ?? '')).toBe(true);
  });

  it('keeps any text a model could write inside the data, as the same text', () => {
    fc.assert(
      fc.property(
        hostileText,
        fc.constantFrom(ESCAPE, '<!--', '<script>', '</SCRIPT >', '$&$`'),
        (text, nasty) => {
          const events = logSaying(`${text}${nasty}${text}`);
          const html = standaloneRunHtml(TEMPLATE, events, `${nasty}${text}`);
          expect(scripts(html)).toBe(scripts(TEMPLATE));
          expect(embedded(html)).not.toContain('<');
          const read = readStandaloneRun(embedded(html));
          expect(read.ok && read.events).toEqual(events);
          expect(read.ok && read.title).toBe(`${nasty}${text}`);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('writes the title as text', () => {
    const html = standaloneRunHtml(
      TEMPLATE,
      logSaying('hi'),
      '</title><script>alert(1)</script> & "x"',
    );
    expect(html).toContain(
      '<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;</title>',
    );
    expect(scripts(html)).toBe(scripts(TEMPLATE));
  });

  it('refuses a page that is not the viewer', () => {
    expect(() => standaloneRunHtml('<html></html>', [], 'x')).toThrow(/not PolicyLab’s viewer/);
    const twice = TEMPLATE.replace(
      '</head>',
      `<script type="application/json" id="${STANDALONE_RUN_ID}"></script></head>`,
    );
    expect(() => standaloneRunHtml(twice, [], 'x')).toThrow(/no single place/);
  });
});

describe('readStandaloneRun', () => {
  it('says why a page cannot show its run', () => {
    const error = (text: string) => {
      const read = readStandaloneRun(text);
      return read.ok ? 'read' : read.error;
    };
    expect(error('')).toBe('This page holds no run.');
    expect(error('{')).toMatch(/not JSON/);
    expect(error('[]')).toMatch(/no log/);
    expect(error('{"events":[{"type":"nonsense","at":0}]}')).toMatch(
      /^The run in this page cannot be shown\. ./,
    );
  });
});

describe('standaloneFileName', () => {
  it('is the title without what file systems refuse', () => {
    expect(standaloneFileName('Imported: airline-run')).toBe('Imported airline-run.html');
    expect(standaloneFileName('a/b\\c?*<>|"d')).toBe('a b c d.html');
    expect(standaloneFileName('...')).toBe('run.html');
    expect(standaloneFileName('  ')).toBe('run.html');
  });
});
