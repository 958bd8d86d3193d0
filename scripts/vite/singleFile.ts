import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';

/**
 * Makes a build one self-contained HTML page that works from `file://`: its one script and its
 * stylesheet are written into the page, and any other file the page would load (a lazy chunk, a
 * worker, an asset) fails the build, since opening it would need a server. A Content-Security-
 * Policy lets only that script run (by its hash) and lets the page load nothing at all.
 */
export function singleFile(): Plugin {
  return {
    name: 'policylab:single-file',
    enforce: 'post',
    // After Vite's own work on the chunks (its preload markers), before anything is written.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const pages = Object.values(bundle).filter(
          (file) => file.type === 'asset' && file.fileName.endsWith('.html'),
        );
        const page = pages[0];
        if (pages.length !== 1 || page?.type !== 'asset')
          this.error(`A single-file build has one HTML page; this one has ${pages.length}.`);
        const inlined = new Set([page.fileName]);
        const file = (reference: string) => {
          const name = reference.replace(/^\.?\//, '');
          const found = bundle[name];
          if (!found) this.error(`The page refers to ${reference}, which the build did not emit.`);
          inlined.add(name);
          return found;
        };

        // The page's own tags first, each replaced by a mark (a private-use character, which no
        // HTML Vite writes holds) until the page is checked.
        const contents: string[] = [];
        const hashes: string[] = [];
        const mark = (content: string) => `\uE000${String(contents.push(content) - 1)}\uE000`;
        const skeleton = String(page.source)
          .replace(
            /<script type="module" crossorigin src="([^"]+)"><\/script>/g,
            (_tag, src: string) => {
              const chunk = file(src);
              if (chunk.type !== 'chunk') this.error(`${src} is not a script.`);
              const code = scriptText(chunk.code);
              if (code === undefined)
                this.error(`${src} holds "<!--", which an inline script cannot carry.`);
              hashes.push(`'sha256-${createHash('sha256').update(code).digest('base64')}'`);
              return mark(`<script type="module">${code}</script>`);
            },
          )
          .replace(/<link rel="stylesheet" crossorigin href="([^"]+)">/g, (_tag, href: string) => {
            const sheet = file(href);
            if (sheet.type !== 'asset') this.error(`${href} is not a stylesheet.`);
            return mark(
              `<style>${String(sheet.source).replace(/<\/style/gi, '<\\/style')}</style>`,
            );
          });
        if (/<(script|link|img|iframe)\b[^>]*\b(src|href)=/i.test(skeleton))
          this.error('The page still loads a file after inlining.');
        const policy = [
          "default-src 'none'",
          `script-src ${hashes.join(' ')}`,
          "style-src 'unsafe-inline'",
          'img-src data: blob:',
          "base-uri 'none'",
          "form-action 'none'",
        ].join('; ');
        const withPolicy = skeleton.replace(
          /<meta charset="UTF-8" \/>/i,
          (charset) =>
            `${charset}\n    <meta http-equiv="Content-Security-Policy" content="${policy}" />`,
        );
        if (withPolicy === skeleton)
          this.error('The page has no <meta charset="UTF-8" /> to put its security policy after.');
        const html = withPolicy.replace(
          /\uE000(\d+)\uE000/g,
          (_mark, i: string) => contents[Number(i)] ?? '',
        );

        // A file the code names would fail to load from disk; one it never names (a worker of
        // code the bundler dropped) is left out.
        const left = Object.keys(bundle).filter((name) => !inlined.has(name));
        const named = left.filter((name) => html.includes(name.slice(name.lastIndexOf('/') + 1)));
        if (named.length > 0)
          this.error(
            `A single-file page cannot load other files (a lazy import, a worker or an asset): ${named.join(', ')}`,
          );
        page.source = html;
        for (const name of [...inlined, ...left])
          if (name !== page.fileName) Reflect.deleteProperty(bundle, name);
      },
    },
  };
}

/**
 * Script text that can sit inside `<script>`: a `</script` in it (in a string or a regular
 * expression, the only places it can be) is written `<\/script`, which means the same there.
 * Undefined for `<!--`, which would change how the page's parser reads the rest.
 */
function scriptText(code: string): string | undefined {
  if (code.includes('<!--')) return undefined;
  return code.replace(/<\/(script)/gi, '<\\/$1');
}
