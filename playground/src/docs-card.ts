/**
 * The Docs pane's readable pages: the language card (`languageCard()`, src/agents/card.ts, the
 * text the Ask box's planner sends the model as its system prompt) and the spec pages
 * (spec/*.md), rendered from Markdown. Loaded with `import()` the first time the Docs tab is
 * shown, so neither the texts nor the Markdown reader are in the entry chunk; each spec page is
 * a chunk of its own, fetched when opened.
 */
import { languageCard } from '../../src/agents/card.js';
import { renderMarkdown } from './markdown.js';

/** Fills `host` with the card (DSL variant, or the JSON-IR one). */
export function renderCard(host: HTMLElement, options: { ir?: boolean } = {}): void {
  host.replaceChildren(renderMarkdown(languageCard(options), 'card-'));
}

const SPEC_PAGES = import.meta.glob<string>('../../spec/{syntax,semantics,checks,security,storage}.md', { query: '?raw', import: 'default' });

/** The spec pages the Docs tab offers, by name (`syntax` → spec/syntax.md). */
export const SPEC_NAMES: readonly string[] = Object.keys(SPEC_PAGES).map((p) => p.replace(/^.*\/(\w+)\.md$/, '$1'));

export async function renderSpec(host: HTMLElement, name: string): Promise<void> {
  const load = SPEC_PAGES[`../../spec/${name}.md`];
  if (!load) throw new Error(`no spec page "${name}"`);
  host.replaceChildren(renderMarkdown(await load(), `spec-${name}-`));
}

/** The Welcome pane shares this chunk (and its Markdown reader for the verbs' one-liners). */
export { renderWelcome } from './welcome.js';
