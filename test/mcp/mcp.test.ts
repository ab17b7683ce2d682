/**
 * `t2m mcp` end to end: the CLI spawned over stdio (tsx on the sources) and driven by the SDK's
 * own Client, on a store file, as actor alice.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeServer, type FakeServer, requestOf } from '../agents/server.js';

const ROOT = resolve(import.meta.dirname, '../..');
let dir: string;
let db: string;
let client: Client;
let stderr = '';

type Structured = Record<string, unknown> & { ok: boolean; diagnostics: Array<{ code: string; fix?: { edits: unknown[] } }> };
async function call(name: string, args: Record<string, unknown>, on: Client = client): Promise<CallToolResult & { structuredContent: Structured }> {
  return (await on.callTool({ name, arguments: args })) as CallToolResult & { structuredContent: Structured };
}

/** `t2m mcp <args>` from the sources, connected to the SDK's client over stdio. */
async function spawnServer(args: string[], log: (text: string) => void = () => {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'src/cli/main.ts', 'mcp', ...args],
    cwd: ROOT,
    stderr: 'pipe',
    env: { ...process.env, OPENAI_API_KEY: '' } as Record<string, string>,
  });
  transport.stderr?.on('data', (chunk: Buffer) => log(chunk.toString()));
  const connected = new Client({ name: 'text2mem-test', version: '1.0.0' });
  await connected.connect(transport);
  return connected;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 't2m-mcp-'));
  db = join(dir, 'store.sqlite');
  client = await spawnServer(['--db', db, '--actor', 'alice'], (text) => (stderr += text));
}, 30_000);

afterAll(async () => {
  await client?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('t2m mcp over stdio', () => {
  it('lists the tools with their input and output schemas', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect([...byName.keys()].sort()).toEqual(['check', 'explain', 'feedback', 'retrieve', 'run']);
    expect(byName.get('run')?.inputSchema.required).toEqual(['script']);
    expect(Object.keys(byName.get('run')?.inputSchema.properties ?? {})).toEqual(['script', 'dry_run']);
    expect(Object.keys(byName.get('retrieve')?.inputSchema.properties ?? {})).toEqual(['query', 'tags', 'type', 'subject', 'attribute', 'as_of', 'known_at', 'history', 'limit', 'include']);
    for (const t of tools) expect(t.outputSchema?.type, t.name).toBe('object');
    expect(stderr).toContain("as 'alice'");
  });

  it('runs an ENCODE as the session actor, and retrieve finds it', async () => {
    const encoded = await call('run', { script: 'ENCODE "Quarterly OKR review with Dana" TAGS "work", "okr" TYPE "meeting";' });
    expect(encoded.isError).toBeFalsy();
    expect(encoded.structuredContent.ok).toBe(true);
    const text = (encoded.content[0] as { text: string }).text;
    expect(JSON.parse(text)).toEqual(encoded.structuredContent);
    // The record is owned by the session's actor.
    expect(encoded.structuredContent.results).toMatchObject([{ op: 'Encode', ids: [1], changes: [{ after: { owner: 'alice' } }] }]);

    const byTag = await call('retrieve', { tags: ['okr'] });
    expect(byTag.structuredContent.ok).toBe(true);
    expect(byTag.structuredContent.rows).toMatchObject([{ text: 'Quarterly OKR review with Dana', tags: ['work', 'okr'] }]);
    const bySearch = await call('retrieve', { query: 'OKR review', type: 'meeting', limit: 3 });
    expect((bySearch.structuredContent.rows as unknown[]).length).toBe(1);
    // Values are data, never script text: a quote in the query is just a character.
    const hostile = await call('retrieve', { query: '"; DELETE ALL CONFIRM; #', tags: ['x"y'] });
    expect(hostile.isError).toBeFalsy();
    expect(hostile.structuredContent.rows).toEqual([]);
  });

  it('check returns diagnostics with a fix, without running anything', async () => {
    const checked = await call('check', { script: 'RETRIEV WHERE tags HAS "okr" LIMIT 5;' });
    expect(checked.isError).toBeFalsy();
    expect(checked.structuredContent.ok).toBe(false);
    const [d] = checked.structuredContent.diagnostics;
    expect(d.code).toBe('unknown-verb');
    expect(d.fix?.edits).toHaveLength(1);
    const good = await call('check', { script: 'RETRIEVE WHERE tags HAS "okr" LIMIT 5;' });
    expect(good.structuredContent).toMatchObject({ ok: true, kind: 'dsl', statements: 1, ir: [{ op: 'Retrieve' }] });
  });

  it('explain shows the plan and changes nothing', async () => {
    const explained = await call('explain', { script: 'DELETE WHERE tags HAS "okr" LIMIT 5;' });
    expect(explained.structuredContent.ok).toBe(true);
    const [statement] = explained.structuredContent.results as Array<{ ids: number[]; dryRun: boolean; sql: unknown[] }>;
    expect(statement).toMatchObject({ ids: [1], dryRun: true });
    expect(statement.sql.length).toBeGreaterThan(0);
    const still = await call('retrieve', { tags: ['okr'] });
    expect(still.structuredContent.ids).toEqual([1]);
    const dry = await call('run', { script: 'DELETE WHERE tags HAS "okr" LIMIT 5;', dry_run: true });
    expect(dry.structuredContent.ok).toBe(true);
    expect((await call('retrieve', { tags: ['okr'] })).structuredContent.ids).toEqual([1]);
  });

  it('refuses a script that claims another actor', async () => {
    const refused = await call('run', { script: 'ENCODE "I am mallory" TAGS "evil" AS "mallory";' });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent.ok).toBe(false);
    expect(refused.structuredContent.diagnostics.map((d) => d.code)).toContain('actor-mismatch');
    expect((await call('retrieve', { tags: ['evil'] })).structuredContent.ids).toEqual([]);
    // Naming the session's own actor is fine.
    const own = await call('run', { script: 'ENCODE "mine" TAGS "own" AS "alice";' });
    expect(own.structuredContent.ok).toBe(true);
  });

  it('reports bad input as an error result, and keeps serving', async () => {
    const missing = await client.callTool({ name: 'run', arguments: {} });
    expect(missing.isError).toBe(true);
    expect(JSON.stringify(missing.content)).toMatch(/script/);
    const unreadable = await call('run', { script: 'ENCODE "unterminated' });
    expect(unreadable.isError).toBe(true);
    expect(unreadable.structuredContent.diagnostics.length).toBeGreaterThan(0);
    const refused = await call('run', { script: 'DELETE ALL;' });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent.diagnostics.map((d) => d.code)).toContain('all-requires-confirmation');
    expect((await call('retrieve', { tags: ['okr'] })).structuredContent.ok).toBe(true);
  });

  it('holds no transaction between calls: another process writes the store file, the next call sees it', async () => {
    execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'run', '-', '--db', db, '--actor', 'carol'], {
      cwd: ROOT, input: 'ENCODE "written by another process" TAGS "elsewhere";', stdio: ['pipe', 'ignore', 'pipe'],
    });
    const seen = await call('retrieve', { tags: ['elsewhere'] });
    expect(seen.structuredContent.rows).toMatchObject([{ text: 'written by another process' }]);
  });

  it('serves the language card, DSL and IR', async () => {
    const card = await client.readResource({ uri: 'text2mem://card' });
    expect(card.contents[0]).toMatchObject({ mimeType: 'text/markdown' });
    expect(String((card.contents[0] as { text: string }).text)).toMatch(/^# Text2Mem DSL/);
    const ir = await client.readResource({ uri: 'text2mem://card-ir' });
    expect(String((ir.contents[0] as { text: string }).text)).toMatch(/^# Text2Mem JSON IR/);
  });

  it('serves the vocabulary resource', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(['text2mem://card', 'text2mem://card-ir', 'text2mem://facts', 'text2mem://vocabulary']);
    const read = await client.readResource({ uri: 'text2mem://vocabulary' });
    const vocabulary = JSON.parse(String((read.contents[0] as { text: string }).text));
    expect(vocabulary.tags).toEqual(expect.arrayContaining([{ value: 'okr', count: 1 }, { value: 'own', count: 1 }, { value: 'elsewhere', count: 1 }]));
    expect(vocabulary.types).toEqual([{ value: 'meeting', count: 1 }]);
  });
});

describe('t2m mcp with a model: the plan tool', () => {
  let model: FakeServer;
  let planning: Client;

  beforeAll(async () => {
    // A local OpenAI-compatible server: a first answer with a misspelt verb, repaired after the checker's report.
    model = await fakeServer((body, i) => (i === 0 ? 'RETRIEV WHERE tags HAS "okr" LIMIT 5;' : 'RETRIEVE WHERE tags HAS "okr" LIMIT 5;'));
    planning = await spawnServer(['--actor', 'alice', '--base-url', model.baseUrl, '--model', 'fake-model']);
  }, 30_000);

  afterAll(async () => {
    await planning?.close();
    await model?.close();
  });

  it('offers plan: the model\'s script, checked (repaired after the checker\'s report), dry-run, not run', async () => {
    const { tools } = await planning.listTools();
    expect(tools.map((t) => t.name)).toContain('plan');
    const planned = await call('plan', { request: 'show my OKR notes' }, planning);
    expect(planned.isError).toBeFalsy();
    expect(planned.structuredContent).toMatchObject({ ok: true, dsl: 'RETRIEVE WHERE tags HAS "okr" LIMIT 5;', attempts: 2, ir: [{ op: 'Retrieve' }] });
    expect(model.requests).toHaveLength(2);
    expect(model.requests[0].model).toBe('fake-model');
    expect(requestOf(model.requests[0])).toBe('show my OKR notes');
    // The system prompt is the language card.
    expect(model.requests[0].messages[0].content).toContain('# Text2Mem DSL');
  });

  it('a model that cannot be reached is an error result', async () => {
    await model.close();
    const failed = await call('plan', { request: 'anything' }, planning);
    expect(failed.isError).toBe(true);
    expect(failed.structuredContent.diagnostics.length).toBeGreaterThan(0);
  });
});
