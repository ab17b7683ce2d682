/**
 * The right-hand column: the tab row and its panes (Results, Timeline, IR, SQL, Memory, Docs),
 * which one is shown, and the Docs pane: the language card (src/agents/card.ts, rendered by the
 * lazily imported `docs-card.ts` the first time the tab is shown) above the frame of railroad
 * diagrams. What goes into the other panes is their own modules' business; this one only hands
 * out their elements.
 */
import { h } from './dom.js';
import diagramsUrl from './diagrams.js';

export const TABS = ['Results', 'Timeline', 'IR', 'SQL', 'Memory', 'Docs'] as const;
export type Tab = (typeof TABS)[number];

export class SidePanes {
  readonly tabs = h('div', { class: 'tabs' });
  private readonly panes = new Map<Tab, HTMLElement>();
  private readonly docsFrame = h('iframe', { class: 'docs', src: diagramsUrl, title: 'Railroad diagrams of the grammar' });
  private readonly cardBody = h('div', { class: 'card-body', 'data-testid': 'language-card' }, h('p', { class: 'pane-note' }, 'loading the language card…'));
  /** The card, collapsible so the diagrams can take the pane (a diagram link collapses it). */
  private readonly card = h('details', { class: 'card', open: true },
    h('summary', { title: 'The language card: what the Ask box sends the model as its system prompt' }, 'Language card'),
    this.cardBody);
  private cardLoad?: Promise<void>;
  current: Tab = 'Results';

  /** `shown`: called after a tab is shown, so a pane can render what changed while it was hidden. */
  constructor(private readonly shown: (tab: Tab) => void) {
    for (const tab of TABS) {
      this.panes.set(tab, h('section', { class: 'pane', 'data-pane': tab }));
      this.tabs.append(h('button', { 'data-tab': tab, onclick: () => this.show(tab) }, tab));
    }
    this.pane('Docs').append(this.card, this.docsFrame);
  }

  pane(tab: Tab): HTMLElement {
    return this.panes.get(tab)!;
  }

  /** The panes in tab order, for the page layout. */
  all(): HTMLElement[] {
    return [...this.panes.values()];
  }

  /** A pane that holds an editor below a note line. */
  holdEditor(tab: Tab, note: HTMLElement, host: HTMLElement): void {
    const pane = this.pane(tab);
    pane.classList.add('editor-pane');
    pane.append(note, host);
  }

  show(tab: Tab): void {
    this.current = tab;
    for (const b of this.tabs.querySelectorAll('button')) b.classList.toggle('active', b.dataset.tab === tab);
    for (const [name, pane] of this.panes) pane.classList.toggle('active', name === tab);
    if (tab === 'Docs') void this.loadCard();
    this.shown(tab);
  }

  /** Opens a link to a rule's diagram in the Docs pane rather than a new tab; false for any other link. */
  openDocsLink(url: string): boolean {
    if (!url.startsWith(diagramsUrl)) return false;
    this.docsFrame.src = url;
    this.card.open = false;
    this.show('Docs');
    return true;
  }

  /** Renders the card once, on the Docs tab's first showing (the card and its Markdown reader are a chunk of their own). */
  loadCard(): Promise<void> {
    this.cardLoad ??= import('./docs-card.js').then(
      (m) => m.renderCard(this.cardBody),
      (e: unknown) => {
        this.cardLoad = undefined;
        this.cardBody.replaceChildren(h('p', { class: 'pane-note error' }, `the language card could not be loaded: ${(e as Error).message}`));
      },
    );
    return this.cardLoad;
  }
}
