/**
 * `t2m lsp --db store.sqlite`: completion offers the tags, types and subjects the store holds
 * (read-only; only what the actor may read), as the playground does from its store.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompletionRequest, type CompletionItem } from 'vscode-languageserver-protocol';
import { ROOT, startLsp } from './client.js';

let dir: string;
let db: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 't2m-lsp-'));
  db = join(dir, 'store.sqlite');
  const script = [
    'ENCODE "SEV-1 timeline" TYPE incident TAGS "incident:p1", "network" FACETS { subject: "outage" };',
    'ENCODE "Q2 OKR review" TYPE note TAGS "okr";',
    'ENCODE "alice\'s diary" TYPE diary TAGS "secret" SET read_perm_level = "private";',
  ].join('\n');
  execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'run', '-', '--db', db, '--actor', 'alice', '--now', '2025-05-01T00:00:00Z'], { cwd: ROOT, input: script });
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Completion at the end of each text, from one server started with `args`. */
async function complete(args: string[], ...texts: string[]): Promise<CompletionItem[][]> {
  const lsp = await startLsp(args);
  try {
    const out: CompletionItem[][] = [];
    for (const [i, text] of texts.entries()) {
      const uri = `file:///w/store${i}.t2m`;
      await lsp.open(uri, text);
      out.push((await lsp.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 0, character: text.length } })) as CompletionItem[]);
    }
    return out;
  } finally {
    expect(await lsp.stop()).toBe(0);
  }
}

describe('t2m lsp --db', () => {
  it('completes the store\'s tags, quoted, and its types; private records only for their reader', async () => {
    const [anyone, types] = await complete(['--db', db], 'RETRIEVE WHERE tags HAS ', 'RETRIEVE WHERE type = note LIMIT 1; ENCODE "x" TYPE ');
    expect(anyone.filter((i) => i.detail === 'tag in the store').map((i) => i.textEdit?.newText).sort()).toEqual(['"incident:p1"', '"network"', '"okr"']);
    expect(types.filter((i) => i.detail === 'type in the store').map((i) => i.label).sort()).toEqual(['incident', 'note']);
    const [alice] = await complete(['--db', db, '--actor', 'alice'], 'RETRIEVE WHERE tags HAS ');
    expect(alice.filter((i) => i.detail === 'tag in the store').map((i) => i.label).sort()).toEqual(['incident:p1', 'network', 'okr', 'secret']);
  });

  it('refuses a store it cannot open, and --actor without --db (exit 2, a message on stderr)', () => {
    const missing = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'lsp', '--stdio', '--db', join(dir, 'none.sqlite')], { cwd: ROOT, encoding: 'utf8', input: '' });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/t2m lsp: store-unreadable: .*none\.sqlite does not exist/);
    expect(missing.stdout).toBe('');
    const actor = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'lsp', '--actor', 'alice'], { cwd: ROOT, encoding: 'utf8', input: '' });
    expect(actor.status).toBe(2);
    expect(actor.stderr).toContain('--actor goes with --db');
  });
});
