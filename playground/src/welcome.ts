/**
 * The Welcome pane: what Text2Mem is, the twelve verbs one line each (from the language's own
 * keyword docs) with an example to try (opened as a new script on its own fresh store, and run),
 * the shortcuts, and where to read on (the language card, the spec pages and the railroad
 * diagrams, all in the Docs tab). In the `docs-card.ts` chunk, imported the first time the tab is shown.
 */
import { KEYWORD_DOCS } from '../../src/language/index.js';
import { h } from './dom.js';
import { inline } from './markdown.js';
import { shortcutTable } from './shortcuts.js';
import { VERB_EXAMPLES } from './welcome-examples.js';

export interface WelcomeActions {
  /** Opens `script` as a new script named `name` and runs it on its own store. */
  tryExample(name: string, script: string): void;
  /** Opens a page of the Docs tab: the card, a spec page, or the diagrams. */
  openDocs(page: string): void;
}

/** The summary without its bold verb name (the row shows the verb already). */
function summary(verb: string): string {
  return (KEYWORD_DOCS[verb]?.summary ?? '').replace(/^\*\*\w+\*\*\s*/, '');
}

export function renderWelcome(host: HTMLElement, actions: WelcomeActions): void {
  const link = (page: string, text: string) => h('button', { type: 'button', class: 'link', 'data-docs': page, onclick: () => actions.openDocs(page) }, text);
  host.replaceChildren(
    h('h2', {}, 'Text2Mem: a language for what an agent remembers'),
    h('p', {},
      'Text2Mem scripts say what to do with memory records — store, organise, govern, find, summarise — in twelve verbs. ',
      'A script (the DSL on the left) compiles to a JSON instruction per statement (the IR tab) and then to parameterised SQL (the SQL tab), ',
      'which runs here on SQLite in your browser. Nothing leaves the page.'),
    h('p', {},
      'Each script runs on ', h('b', {}, 'its own store'), ', emptied before every run, so a run sees only what the script itself wrote; ',
      'pick a ', h('b', {}, 'named store'), ' in the bar above the editor to keep rows across runs or share them between scripts. ',
      'The bar shows which store the script uses and how many rows it holds.'),
    h('h3', {}, 'The twelve verbs'),
    h('table', { class: 'verbs', 'data-testid': 'welcome-verbs' },
      h('tbody', {}, ...VERB_EXAMPLES.map((ex) => h('tr', { 'data-verb': ex.verb },
        h('th', { scope: 'row' }, ex.verb),
        h('td', {}, h('div', {}, ...inline(summary(ex.verb))), h('code', { class: 'example' }, ex.statement)),
        h('td', {}, h('button', {
          type: 'button', 'data-try': ex.verb, title: `Open this ${ex.verb} example as a new script and run it on its own store`,
          onclick: () => actions.tryExample(`Try ${ex.verb}`, ex.script),
        }, 'Try ▶')))))),
    h('h3', {}, 'Shortcuts'),
    shortcutTable(),
    h('h3', {}, 'Read on'),
    h('ul', {},
      h('li', {}, link('card', 'The language card'), ': every verb, clause, enum value and a few worked examples on one page.'),
      h('li', {}, link('syntax', 'spec/syntax.md'), ': the syntax, clause by clause; ', link('semantics', 'spec/semantics.md'), ': what each verb does to the store; ',
        link('checks', 'spec/checks.md'), ': every diagnostic code; ', link('security', 'spec/security.md'), ': actors, permissions and locks.'),
      h('li', {}, link('diagrams', 'Railroad diagrams'), ' of the grammar (hovers link to them too).'),
      h('li', {}, 'The examples menu in the header holds the paper\'s workflows and the upstream scenarios.')),
  );
}
