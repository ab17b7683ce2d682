/**
 * The right-hand column: the tab row (an ARIA tablist: ←/→/Home/End move between tabs) and its
 * panes (Welcome, Results, Timeline, IR, SQL, Memory, Docs), which one is shown, and two panes of
 * its own:
 *
 * - Welcome (`welcome.ts`, in the `docs-card.ts` chunk, imported the first time it is shown);
 * - Docs: a page picker, the page (the language card or a spec page, rendered by the lazily
 *   imported `docs-card.ts`) in a collapsible box above the frame of railroad diagrams.
 *
 * What goes into the other panes is their own modules' business; this one only hands out their elements.
 */
import { clear, h } from './dom.js';
import diagramsUrl from './diagrams.js';
import type { WelcomeActions } from './welcome.js';

export const TABS = ['Welcome', 'Results', 'Timeline', 'IR', 'SQL', 'Memory', 'Docs'] as const;
export type Tab = (typeof TABS)[number];

/** The Docs tab's pages: the card, the spec pages (`docs-card.ts` SPEC_NAMES), and the diagrams alone. */
const DOC_PAGES: readonly (readonly [page: string, label: string])[] = [
  ['card', 'Language card'], ['syntax', 'Syntax'], ['semantics', 'Semantics'], ['checks', 'Checks'], ['security', 'Security'], ['storage', 'Storage'], ['diagrams', 'Diagrams only'],
];

export class SidePanes {
  readonly tabs = h('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Panes' });
  private readonly panes = new Map<Tab, HTMLElement>();
  private readonly docsFrame = h('iframe', { class: 'docs', src: diagramsUrl, title: 'Railroad diagrams of the grammar' });
  private readonly cardBody = h('div', { class: 'card-body', 'data-testid': 'language-card' }, h('p', { class: 'pane-note' }, 'loading the language card…'));
  private readonly cardTitle = h('span', {}, 'Language card');
  /** The page, collapsible so the diagrams can take the pane (a diagram link collapses it). */
  private readonly card = h('details', { class: 'card', open: true },
    h('summary', { title: 'The language card (what the Ask box sends the model as its system prompt) or a spec page' }, this.cardTitle),
    this.cardBody);
  private readonly docsNav = h('div', { class: 'docs-nav', role: 'toolbar', 'aria-label': 'Docs pages' });
  private docsPage = 'card';
  private docsLoad?: Promise<void>;
  private welcomeLoad?: Promise<void>;
  current: Tab = 'Results';

  /**
   * `shown`: called after a tab is shown, so a pane can render what changed while it was hidden.
   * `welcome`: what the welcome panel's buttons do.
   */
  constructor(private readonly shown: (tab: Tab) => void, private readonly welcome: WelcomeActions) {
    for (const tab of TABS) {
      this.panes.set(tab, h('section', { class: 'pane', 'data-pane': tab, role: 'tabpanel', id: `pane-${tab}`, 'aria-labelledby': `tab-${tab}`, tabindex: 0 }));
      this.tabs.append(h('button', {
        type: 'button', role: 'tab', id: `tab-${tab}`, 'data-tab': tab, 'aria-controls': `pane-${tab}`,
        'aria-selected': 'false', tabindex: -1, onclick: () => this.show(tab),
      }, tab));
    }
    this.tabs.addEventListener('keydown', (e) => {
      const i = TABS.indexOf(this.current);
      const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: TABS.length - 1 }[e.key];
      if (next === undefined) return;
      e.preventDefault();
      this.show(TABS[(next + TABS.length) % TABS.length]);
      this.tabs.querySelector<HTMLElement>(`[data-tab=${this.current}]`)?.focus();
    });
    for (const [page, label] of DOC_PAGES) {
      this.docsNav.append(h('button', { type: 'button', 'data-docs-page': page, onclick: () => void this.openDocs(page) }, label));
    }
    this.pane('Docs').append(this.docsNav, this.card, this.docsFrame);
    this.pane('Welcome').append(h('p', { class: 'pane-note' }, 'loading…'));
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
    for (const b of this.tabs.querySelectorAll<HTMLElement>('[role=tab]')) {
      const selected = b.dataset.tab === tab;
      b.classList.toggle('active', selected);
      b.setAttribute('aria-selected', String(selected));
      b.tabIndex = selected ? 0 : -1;
    }
    for (const [name, pane] of this.panes) pane.classList.toggle('active', name === tab);
    if (tab === 'Docs') void this.loadDocs();
    if (tab === 'Welcome') void this.loadWelcome();
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

  /** Shows a Docs page: `card`, a spec page's name, or `diagrams` (the card box collapsed). */
  async openDocs(page: string): Promise<void> {
    this.show('Docs');
    if (page === 'diagrams') {
      this.card.open = false;
      return;
    }
    if (page !== this.docsPage) {
      this.docsPage = page;
      this.docsLoad = undefined;
    }
    this.card.open = true;
    await this.loadDocs();
  }

  /** Renders the Docs page once per choice (the card, its Markdown reader and the spec pages are chunks of their own). */
  loadDocs(): Promise<void> {
    const page = this.docsPage;
    for (const b of this.docsNav.querySelectorAll<HTMLElement>('button')) b.setAttribute('aria-pressed', String(b.dataset.docsPage === page));
    this.cardTitle.textContent = DOC_PAGES.find(([p]) => p === page)?.[1] ?? page;
    this.docsLoad ??= import('./docs-card.js').then(
      (m) => (page === 'card' ? m.renderCard(this.cardBody) : m.renderSpec(this.cardBody, page)),
    ).catch((e: unknown) => {
      this.docsLoad = undefined;
      clear(this.cardBody, h('p', { class: 'pane-note error' }, `the page could not be loaded: ${(e as Error).message}`));
    });
    return this.docsLoad;
  }

  private loadWelcome(): Promise<void> {
    this.welcomeLoad ??= import('./docs-card.js').then(
      (m) => m.renderWelcome(this.pane('Welcome'), this.welcome),
      (e: unknown) => {
        this.welcomeLoad = undefined;
        clear(this.pane('Welcome'), h('p', { class: 'pane-note error' }, `the welcome page could not be loaded: ${(e as Error).message}`));
      },
    );
    return this.welcomeLoad;
  }
}
