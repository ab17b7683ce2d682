/**
 * A small Markdown reader for the language card (src/agents/card.ts) in the Docs pane: ATX
 * headings, paragraphs, `-`/`*`/`1.` lists, fenced code blocks, pipe tables, and inline code,
 * **bold** and *emphasis*. It builds DOM nodes with `textContent` only (never `innerHTML`), so
 * whatever the text holds is shown as text: there is nothing to escape and nothing to inject.
 *
 * A list item's indented continuation lines are shown on lines of their own in monospace: in the
 * card they are clause → IR-path lists and the DSL of worked examples, not prose.
 */

type Inline = Node | string;

/** `code`, **bold**, *emphasis* (or _emphasis_); everything else is text. */
export function inline(text: string): Inline[] {
  const out: Inline[] = [];
  const pattern = /`([^`]+)`|\*\*(.+?)\*\*|(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])|(?<!\w)_(?!\s)(.+?)(?<!\s)_(?!\w)/g;
  let last = 0;
  for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    if (m[1] !== undefined) out.push(el('code', m[1]));
    else if (m[2] !== undefined) out.push(el('strong', ...inline(m[2])));
    else out.push(el('em', ...inline(m[3] ?? m[4])));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, ...children: Inline[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  e.append(...children);
  return e;
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^(`{3,}|~{3,})\s*([\w-]*)/;
const BULLET = /^(\s*)([-*+]|\d+[.)])\s+(.*)$/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;

const cells = (row: string): string[] => row.trim().replace(/^\||\|$/g, '').split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));

/** A slug for a heading's id (so a heading can be linked to). */
export function slug(text: string): string {
  return text.toLowerCase().replace(/[`*_]/g, '').replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '');
}

/** Markdown → a fragment of safe DOM nodes. */
export function renderMarkdown(source: string, idPrefix = ''): DocumentFragment {
  const out = document.createDocumentFragment();
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  let paragraph: string[] = [];
  let list: HTMLUListElement | HTMLOListElement | undefined;
  let item: HTMLLIElement | undefined;
  const flushParagraph = () => {
    if (paragraph.length) out.append(el('p', ...inline(paragraph.join(' '))));
    paragraph = [];
  };
  const closeList = () => {
    list = undefined;
    item = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line.trim()) {
      flushParagraph();
      // A blank line ends a list unless the next line continues it.
      if (list && !BULLET.test(lines[i + 1] ?? '')) closeList();
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      flushParagraph();
      closeList();
      const body: string[] = [];
      for (i++; i < lines.length && !lines[i].trimStart().startsWith(fence[1]); i++) body.push(lines[i]);
      const code = el('code', body.join('\n'));
      if (fence[2]) code.dataset.lang = fence[2];
      out.append(el('pre', code));
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flushParagraph();
      closeList();
      const h = el(`h${heading[1].length}` as 'h1', ...inline(heading[2]));
      h.id = idPrefix + slug(heading[2]);
      out.append(h);
      continue;
    }
    if (line.includes('|') && TABLE_RULE.test(lines[i + 1] ?? '')) {
      flushParagraph();
      closeList();
      const table = el('table');
      table.append(el('thead', el('tr', ...cells(line).map((c) => el('th', ...inline(c))))));
      const body = el('tbody');
      for (i += 2; i < lines.length && lines[i].includes('|') && lines[i].trim(); i++) {
        body.append(el('tr', ...cells(lines[i]).map((c) => el('td', ...inline(c)))));
      }
      i--;
      table.append(body);
      out.append(table);
      continue;
    }
    const bullet = BULLET.exec(line);
    if (bullet) {
      flushParagraph();
      const ordered = /\d/.test(bullet[2]);
      if (!list || (list.tagName === 'OL') !== ordered) {
        list = ordered ? el('ol') : el('ul');
        out.append(list);
      }
      item = el('li', ...inline(bullet[3]));
      list.append(item);
      continue;
    }
    if (item && /^\s+\S/.test(line)) {
      const more = el('div', line.trim());
      more.className = 'md-continued';
      item.append(more);
      continue;
    }
    closeList();
    paragraph.push(line.trim());
  }
  flushParagraph();
  return out;
}
