/**
 * The language card in the Docs pane: `languageCard()` (src/agents/card.ts, the text the Ask box's
 * planner sends the model as its system prompt) rendered from Markdown. Loaded with `import()` the
 * first time the Docs tab is shown, so neither the card nor the Markdown reader is in the entry chunk.
 */
import { languageCard } from '../../src/agents/card.js';
import { renderMarkdown } from './markdown.js';

/** Fills `host` with the card (DSL variant, or the JSON-IR one). */
export function renderCard(host: HTMLElement, options: { ir?: boolean } = {}): void {
  host.replaceChildren(renderMarkdown(languageCard(options), 'card-'));
}
