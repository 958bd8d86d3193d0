import fc from 'fast-check';
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import { parseProject } from '../format/parseProject.ts';
import { miniProject } from '../testing/miniProject.ts';
import { hoverText, plainMarkdown } from './hover.ts';

// A hover is Markdown; what a file says goes into it. Rendered as the editor renders Markdown
// (GitHub's flavour, autolinks on), it must draw no image (the editor would fetch it), no link and
// no HTML, and read as the words the file holds.

const HOSTILE = [
  '![tracker](https://evil.example/pixel.png?from=policylab)',
  '[click here](https://evil.example/login)',
  'Visit https://evil.example or www.evil.example today.',
  '<img src="https://evil.example/x.png"><a href="https://evil.example">a</a>',
  '<https://evil.example/auto>',
  '# Heading *bold* `code` | table | ~~strike~~ > quote',
  '[ref]: https://evil.example/ref\n\n[ref]',
].join('\n');

const render = (markdown: string) => marked.parse(markdown, { gfm: true, async: false });
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

describe('hovers over what a file says', () => {
  it('draw no image, link or HTML from a policy’s, a tool’s or a table’s words', () => {
    const project = miniProject();
    const files = {
      ...project.files,
      'policies.yaml': project.files['policies.yaml'].replace(
        /text: .*/,
        `text: ${JSON.stringify(HOSTILE)}`,
      ),
    };
    const model = parseProject({ ...project, files }).model;
    const policy = model.policies[0];
    if (!policy) throw new Error('no policy');
    const html = render(hoverText(model, { kind: 'policy', name: policy.id }) ?? '');
    expect(html).not.toMatch(/<img|<a\b|<h1|<table|<blockquote/);
    expect(textOf(html)).toContain('![tracker](https://evil.example/pixel.png?from=policylab)');
  });

  it('shows any text as written, with nothing rendered from it', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 80 }),
          // Mostly what Markdown gives meaning to, so its constructs come up often.
          fc.string({
            unit: fc.constantFrom(...' \n\t    ![]()<>:/.*_`#-+|~=1aphtsw&;"\''.split('')),
            maxLength: 60,
          }),
        ),
        (text) => {
          const html = render(plainMarkdown(text));
          expect(html).not.toMatch(/<(img|a|h\d|table|blockquote|ul|ol|pre|code|em|strong|del)\b/);
          // What is shown is the text itself (white space aside).
          expect(textOf(html).replace(/\s+/g, ' ').trim()).toBe(text.replace(/\s+/g, ' ').trim());
        },
      ),
    );
  });
});
