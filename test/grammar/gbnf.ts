/**
 * A small GBNF interpreter for tests: reads the subset of llama.cpp's GBNF the generator writes
 * (one rule per line, literals, character classes with ranges and `^`, groups, alternatives,
 * `* + ?`, rule references) and tells whether a text matches `root` in full. It is a memoised
 * set-of-end-positions matcher, so ambiguity and backtracking cost nothing special.
 */

type Node =
  | { readonly k: 'lit'; readonly s: string }
  | { readonly k: 'cls'; readonly neg: boolean; readonly ranges: ReadonlyArray<readonly [number, number]> }
  | { readonly k: 'ref'; readonly name: string }
  | { readonly k: 'alt'; readonly alts: ReadonlyArray<readonly Node[]> }
  | { readonly k: 'rep'; readonly min: 0 | 1; readonly many: boolean; readonly node: Node };

/** One escaped character at `body[i]` (after the backslash): its code and the index after it. */
function escape(body: string, i: number): [number, number] {
  const c = body[i];
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', '"': '"', ']': ']', '[': '[', '-': '-', '/': '/', '^': '^' };
  if (c === 'x') return [parseInt(body.slice(i + 1, i + 3), 16), i + 3];
  if (c === 'u') return [parseInt(body.slice(i + 1, i + 5), 16), i + 5];
  if (simple[c] !== undefined) return [simple[c].charCodeAt(0), i + 1];
  throw new Error(`unknown escape \\${c}`);
}

function tokenize(body: string): Array<{ t: string; v?: Node | string }> {
  const out: Array<{ t: string; v?: Node | string }> = [];
  let i = 0;
  while (i < body.length) {
    const c = body[i];
    if (/\s/.test(c)) { i++; continue; }
    if (c === '"') {
      let s = '';
      i++;
      while (body[i] !== '"') {
        if (i >= body.length) throw new Error(`unterminated literal in ${body}`);
        if (body[i] === '\\') { const [code, next] = escape(body, i + 1); s += String.fromCharCode(code); i = next; } else s += body[i++];
      }
      i++;
      out.push({ t: 'node', v: { k: 'lit', s } });
    } else if (c === '[') {
      i++;
      const neg = body[i] === '^';
      if (neg) i++;
      const ranges: Array<[number, number]> = [];
      const char = (): number => {
        if (body[i] === '\\') { const [code, next] = escape(body, i + 1); i = next; return code; }
        return body.charCodeAt(i++);
      };
      while (body[i] !== ']') {
        if (i >= body.length) throw new Error(`unterminated class in ${body}`);
        const lo = char();
        if (body[i] === '-' && body[i + 1] !== ']') { i++; ranges.push([lo, char()]); } else ranges.push([lo, lo]);
      }
      i++;
      out.push({ t: 'node', v: { k: 'cls', neg, ranges } });
    } else if ('()|*+?'.includes(c)) {
      out.push({ t: c });
      i++;
    } else {
      const m = /^[a-zA-Z0-9-]+/.exec(body.slice(i));
      if (!m) throw new Error(`unexpected '${c}' in ${body}`);
      out.push({ t: 'node', v: { k: 'ref', name: m[0] } });
      i += m[0].length;
    }
  }
  return out;
}

function parseBody(tokens: Array<{ t: string; v?: Node | string }>): Node {
  let i = 0;
  const alternation = (): Node => {
    const alts: Node[][] = [[]];
    while (i < tokens.length && tokens[i].t !== ')') {
      const tok = tokens[i++];
      if (tok.t === '|') { alts.push([]); continue; }
      let node: Node;
      if (tok.t === '(') {
        node = alternation();
        if (tokens[i++]?.t !== ')') throw new Error('unbalanced (');
      } else if (tok.t === 'node') node = tok.v as Node;
      else throw new Error(`unexpected ${tok.t}`);
      while (i < tokens.length && '*+?'.includes(tokens[i].t)) {
        const q = tokens[i++].t;
        node = { k: 'rep', min: q === '+' ? 1 : 0, many: q !== '?', node };
      }
      alts[alts.length - 1].push(node);
    }
    return { k: 'alt', alts };
  };
  const node = alternation();
  if (i !== tokens.length) throw new Error('unbalanced )');
  return node;
}

export class Gbnf {
  readonly rules = new Map<string, Node>();
  private memo = new Map<string, readonly number[]>();
  private text = '';

  constructor(source: string) {
    for (const line of source.split('\n')) {
      if (!line.trim() || line.startsWith('#')) continue;
      const at = line.indexOf('::=');
      if (at < 0) throw new Error(`not a rule: ${line}`);
      this.rules.set(line.slice(0, at).trim(), parseBody(tokenize(line.slice(at + 3))));
    }
    for (const [name, node] of this.rules) this.checkRefs(node, name);
  }

  private checkRefs(node: Node, rule: string): void {
    if (node.k === 'ref' && !this.rules.has(node.name)) throw new Error(`rule ${rule} uses undefined ${node.name}`);
    if (node.k === 'alt') node.alts.forEach((seq) => seq.forEach((n) => this.checkRefs(n, rule)));
    if (node.k === 'rep') this.checkRefs(node.node, rule);
  }

  /** Does all of `text` match `rule`? */
  accepts(text: string, rule = 'root'): boolean {
    this.text = text;
    this.memo = new Map();
    return this.ref(rule, 0).includes(text.length);
  }

  private ref(name: string, pos: number): readonly number[] {
    const key = `${name}@${pos}`;
    let hit = this.memo.get(key);
    if (!hit) {
      this.memo.set(key, []); // no left recursion in the grammar; guard anyway
      hit = [...this.match(this.rules.get(name)!, pos)];
      this.memo.set(key, hit);
    }
    return hit;
  }

  private match(node: Node, pos: number): Set<number> {
    const text = this.text;
    switch (node.k) {
      case 'lit': return text.startsWith(node.s, pos) ? new Set([pos + node.s.length]) : new Set();
      case 'cls': {
        if (pos >= text.length) return new Set();
        const code = text.charCodeAt(pos);
        const inside = node.ranges.some(([lo, hi]) => code >= lo && code <= hi);
        return inside !== node.neg ? new Set([pos + 1]) : new Set();
      }
      case 'ref': return new Set(this.ref(node.name, pos));
      case 'alt': {
        const out = new Set<number>();
        for (const seq of node.alts) {
          let cur = new Set([pos]);
          for (const n of seq) {
            const next = new Set<number>();
            for (const p of cur) for (const q of this.match(n, p)) next.add(q);
            cur = next;
            if (cur.size === 0) break;
          }
          for (const p of cur) out.add(p);
        }
        return out;
      }
      case 'rep': {
        const out = new Set<number>(node.min === 0 ? [pos] : []);
        let frontier = new Set([pos]);
        const seen = new Set<number>();
        for (let round = 0; frontier.size > 0 && (node.many || round < 1); round++) {
          const next = new Set<number>();
          for (const p of frontier) for (const q of this.match(node.node, p)) if (!seen.has(q)) { seen.add(q); next.add(q); }
          for (const q of next) out.add(q);
          frontier = next;
        }
        return out;
      }
    }
  }
}
