/**
 * The VS Code extension in editors/vscode: its generated grammar and language configuration are
 * current, the grammar highlights a script as the lexer reads it (run on VS Code's own TextMate
 * engine, vscode-textmate on Oniguruma), the layout is one `vsce package` accepts, the client
 * starts `t2m lsp --stdio`, and none of it reaches the root package or its install.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { runInThisContext } from 'node:vm';
import oniguruma from 'vscode-oniguruma';
import textmate from 'vscode-textmate';
import { beforeAll, describe, expect, it } from 'vitest';
import { KEYWORDS, VERB_NAMES } from '../../src/language/index.js';
import { editorArtefacts, TM_GRAMMAR_PATH } from '../../scripts/tmgrammar.js';

const ROOT = resolve(import.meta.dirname, '../..');
const EXT = join(ROOT, 'editors/vscode');
const require = createRequire(import.meta.url);
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const manifest = JSON.parse(readFileSync(join(EXT, 'package.json'), 'utf8'));

describe('generated files', () => {
  it('match the vocabulary (run `npx tsx scripts/gen-tmgrammar.ts` after changing it)', () => {
    for (const [path, text] of Object.entries(editorArtefacts())) expect(read(path), path).toBe(text);
  });
});

describe('the TextMate grammar on VS Code\'s engine', () => {
  let grammar: textmate.IGrammar;
  beforeAll(async () => {
    await oniguruma.loadWASM(readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm')).buffer as ArrayBuffer);
    const registry = new textmate.Registry({
      onigLib: Promise.resolve({ createOnigScanner: (p: string[]) => new oniguruma.OnigScanner(p), createOnigString: (s: string) => new oniguruma.OnigString(s) }),
      loadGrammar: async () => textmate.parseRawGrammar(read(TM_GRAMMAR_PATH), 't2m.tmLanguage.json'),
    });
    grammar = (await registry.loadGrammar('source.t2m'))!;
  });

  /** [text, innermost scope] per token of each line, whitespace left out. */
  function tokens(source: string): Array<[string, string]> {
    let state = textmate.INITIAL;
    const out: Array<[string, string]> = [];
    for (const line of source.split('\n')) {
      const r = grammar.tokenizeLine(line, state);
      for (const t of r.tokens) {
        const text = line.slice(t.startIndex, t.endIndex);
        if (text.trim()) out.push([text, t.scopes.at(-1)!]);
      }
      state = r.ruleStack;
    }
    return out;
  }

  it('scopes verbs, keywords, literals, references, enum values and comments', () => {
    expect(tokens('LET $todo = encode "Book \\u00e9 \\q" TYPE task TTL P30D TIME 2025-04-10T15:30:00+08:00; # note\nlock ID $todo MODE read_only WEIGHT 0.9 SOFT true;')).toEqual([
      ['LET', 'keyword.other.t2m'],
      ['$todo', 'variable.other.reference.t2m'],
      ['=', 'keyword.operator.comparison.t2m'],
      ['encode', 'keyword.control.verb.t2m'],
      ['"', 'punctuation.definition.string.begin.t2m'],
      ['Book ', 'string.quoted.double.t2m'],
      ['\\u00e9', 'constant.character.escape.t2m'],
      ['\\q', 'invalid.illegal.escape.t2m'],
      ['"', 'punctuation.definition.string.end.t2m'],
      ['TYPE', 'keyword.other.t2m'],
      ['task', 'source.t2m'],
      ['TTL', 'keyword.other.t2m'],
      ['P30D', 'constant.numeric.duration.t2m'],
      ['TIME', 'keyword.other.t2m'],
      ['2025-04-10T15:30:00+08:00', 'constant.numeric.datetime.t2m'],
      [';', 'punctuation.terminator.statement.t2m'],
      ['# note', 'comment.line.number-sign.t2m'],
      ['lock', 'keyword.control.verb.t2m'],
      ['ID', 'keyword.other.t2m'],
      ['$todo', 'variable.other.reference.t2m'],
      ['MODE', 'keyword.other.t2m'],
      ['read_only', 'support.constant.enum.t2m'],
      ['WEIGHT', 'source.t2m'],
      ['0.9', 'constant.numeric.t2m'],
      ['SOFT', 'keyword.other.t2m'],
      ['true', 'constant.language.t2m'],
      [';', 'punctuation.terminator.statement.t2m'],
    ]);
  });

  it('gives every keyword of the vocabulary its scope, in any case, and not inside longer words', () => {
    for (const k of KEYWORDS) {
      const scope = (VERB_NAMES as readonly string[]).includes(k) ? 'keyword.control.verb.t2m' : 'keyword.other.t2m';
      expect(tokens(k), k).toEqual([[k, scope]]);
      expect(tokens(k.toLowerCase()), k).toEqual([[k.toLowerCase(), scope]]);
      expect(tokens(`${k}x ${k}_1 x${k}`), k).toEqual([[`${k}x`, 'source.t2m'], [`${k}_1`, 'source.t2m'], [`x${k}`, 'source.t2m']]);
    }
  });

  it('ends an unclosed string at its line', () => {
    expect(tokens('ENCODE "open\nRETRIEVE ALL;').slice(-3)).toEqual([['RETRIEVE', 'keyword.control.verb.t2m'], ['ALL', 'keyword.other.t2m'], [';', 'punctuation.terminator.statement.t2m']]);
  });
});

describe('the extension\'s layout (what `vsce package` checks)', () => {
  it('has the manifest fields vsce requires', () => {
    expect(manifest.name).toMatch(/^[a-z0-9][a-z0-9-]*$/);
    expect(manifest.publisher).toMatch(/^[a-z0-9][a-z0-9-]*$/);
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(manifest.engines.vscode).toMatch(/^\^\d+\.\d+\.\d+$/);
    expect(manifest.license).toBe('MIT');
    expect(manifest.activationEvents).toEqual(['onLanguage:t2m']);
    expect(existsSync(join(EXT, manifest.main))).toBe(true);
    for (const file of ['README.md', 'LICENSE', '.vscodeignore']) expect(existsSync(join(EXT, file)), file).toBe(true);
  });

  it('contributes the language, its configuration and the grammar, for .t2m files', () => {
    const [language] = manifest.contributes.languages;
    expect(language).toMatchObject({ id: 't2m', extensions: ['.t2m'] });
    expect(JSON.parse(readFileSync(join(EXT, language.configuration), 'utf8')).comments).toEqual({ lineComment: '#' });
    const [grammar] = manifest.contributes.grammars;
    expect(grammar.language).toBe('t2m');
    expect(JSON.parse(readFileSync(join(EXT, grammar.path), 'utf8')).scopeName).toBe(grammar.scopeName);
  });

  it('has a README vsce can publish: no relative links (there is no repository to resolve them against)', () => {
    const links = [...readFileSync(join(EXT, 'README.md'), 'utf8').matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]);
    expect(links.filter((l) => !/^https:\/\//.test(l))).toEqual([]);
  });

  it('pins vscode-languageclient in the extension only: the root package neither ships nor installs it', () => {
    expect(manifest.dependencies).toEqual({ 'vscode-languageclient': expect.stringMatching(/^\d+\.\d+\.\d+$/) });
    const root = JSON.parse(read('package.json'));
    expect({ ...root.dependencies, ...root.devDependencies }).not.toHaveProperty('vscode-languageclient');
    expect(read('package-lock.json')).not.toContain('node_modules/vscode-languageclient');
    // Only dist/ is shipped (an exclusion inside it, `!dist/…`, ships nothing more).
    expect(root.files.every((f: string) => /^!?dist\//.test(f))).toBe(true);
  });
});

describe('the extension\'s client', () => {
  /** extension.js loaded with stand-ins for `vscode` and `vscode-languageclient/node`. */
  function load(settings: Record<string, unknown>, folders: string[] = []) {
    const started: Array<{ id: string; server: { command: string; args: string[] }; client: { documentSelector: unknown } }> = [];
    const commands = new Map<string, () => Promise<void>>();
    const fakes: Record<string, unknown> = {
      vscode: {
        window: { createOutputChannel: () => ({ appendLine() {}, dispose() {} }), showErrorMessage: async () => undefined },
        workspace: {
          getConfiguration: () => ({ get: (key: string) => settings[key] }),
          workspaceFolders: folders.map((fsPath) => ({ uri: { fsPath } })),
          onDidChangeConfiguration: () => ({ dispose() {} }),
        },
        commands: { registerCommand: (name: string, run: () => Promise<void>) => (commands.set(name, run), { dispose() {} }), executeCommand: async () => undefined },
      },
      'vscode-languageclient/node': {
        LanguageClient: class {
          constructor(id: string, _name: string, server: { command: string; args: string[] }, client: { documentSelector: unknown }) {
            started.push({ id, server, client });
          }
          async start() {}
          async stop() {}
        },
      },
    };
    const module = { exports: {} as { activate: (c: unknown) => Promise<void>; deactivate: () => Promise<void> } };
    const wrapper = runInThisContext(`(function (exports, require, module, __filename, __dirname) {${readFileSync(join(EXT, 'extension.js'), 'utf8')}\n})`);
    wrapper(module.exports, (id: string) => fakes[id] ?? require(id), module, join(EXT, 'extension.js'), EXT);
    return { extension: module.exports, started, commands };
  }

  it('starts `t2m lsp --stdio` for t2m documents, and restarts it on command', async () => {
    const { extension, started, commands } = load({ path: '', args: ['--strict'] });
    await extension.activate({ subscriptions: [] });
    expect(started).toEqual([{ id: 't2m', server: { command: 't2m', args: ['lsp', '--stdio', '--strict'], options: { shell: process.platform === 'win32' } }, client: expect.objectContaining({ documentSelector: [{ language: 't2m' }] }) }]);
    await commands.get('t2m.restartServer')!();
    expect(started).toHaveLength(2);
    await extension.deactivate();
  });

  it('runs a configured .js CLI with node, and prefers the workspace\'s node_modules/.bin/t2m', async () => {
    const js = load({ path: '/opt/text2mem/dist/cli/t2m.js' });
    await js.extension.activate({ subscriptions: [] });
    expect(js.started[0].server).toMatchObject({ command: 'node', args: ['/opt/text2mem/dist/cli/t2m.js', 'lsp', '--stdio'] });
    const workspace = mkdtempSync(join(tmpdir(), 't2m-vscode-'));
    try {
      const bin = join(workspace, 'node_modules/.bin', process.platform === 'win32' ? 't2m.cmd' : 't2m');
      mkdirSync(dirname(bin), { recursive: true });
      writeFileSync(bin, '');
      const local = load({}, ['/nowhere', workspace]);
      await local.extension.activate({ subscriptions: [] });
      expect(local.started[0].server).toMatchObject({ command: bin, args: ['lsp', '--stdio'] });
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});
