/**
 * Emits the railroad diagrams of the grammar as `diagrams/index.html` next to the page, drawn by
 * Chevrotain's diagram scripts served from the bundle (Chevrotain's default page loads them from
 * a CDN, which a playground that must work offline cannot use). Each rule header gets an id, so
 * hover links like `diagrams/index.html#whereClause` land on the rule.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSyntaxDiagramsCode } from 'chevrotain';
import type { Plugin } from 'vite';
import { parser } from '../src/syntax/grammar.js';

// chevrotain's `exports` hide its files from require.resolve; the repository layout is fixed.
const DIAGRAMS_DIR = fileURLToPath(new URL('../node_modules/chevrotain/diagrams/', import.meta.url));
const RESOURCES = ['vendor/railroad-diagrams.js', 'src/diagrams_builder.js', 'src/diagrams_behavior.js', 'src/main.js', 'diagrams.css'];

const ANCHORS = `
<script>
  for (const header of document.querySelectorAll('h2.diagramHeader')) header.id = header.textContent.trim();
  const reveal = () => { const el = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1))); if (el) { el.scrollIntoView(); el.style.background = '#ffe9a8'; } };
  addEventListener('hashchange', reveal);
  reveal();
</script>
`;

export function diagramsPage(): string {
  const html = createSyntaxDiagramsCode(parser.getSerializedGastProductions(), { resourceBase: './', css: './diagrams.css' });
  return html.replace('<!DOCTYPE html>', '<!DOCTYPE html>\n<title>Text2Mem grammar: railroad diagrams</title>') + ANCHORS;
}

export function railroadDiagrams(): Plugin {
  const files = (): Map<string, string> => {
    const out = new Map<string, string>([['diagrams/index.html', diagramsPage()]]);
    for (const r of RESOURCES) out.set(`diagrams/${r}`, readFileSync(join(DIAGRAMS_DIR, r), 'utf8'));
    return out;
  };
  return {
    name: 't2m-railroad-diagrams',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? '').split(/[?#]/)[0].replace(/^\//, '').replace(/^diagrams\/?$/, 'diagrams/index.html');
        const body = path.startsWith('diagrams/') ? files().get(path) : undefined;
        if (body === undefined) return next();
        res.setHeader('Content-Type', path.endsWith('.html') ? 'text/html' : path.endsWith('.css') ? 'text/css' : 'text/javascript');
        res.end(body);
      });
    },
    generateBundle() {
      for (const [fileName, source] of files()) this.emitFile({ type: 'asset', fileName, source });
    },
  };
}
