/**
 * createMcpServer in-process (the SDK's in-memory transport): identity, read permissions in the
 * vocabulary, the IR the retrieve tool builds, store errors as error results.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { diagnostic } from '../../src/diagnostics/diagnostic.js';
import { type Store } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { createMcpServer, type McpServerOptions, retrieveIr } from '../../src/mcp/server.js';

const NOW = '2025-05-01T00:00:00Z';

async function connect(options: Partial<McpServerOptions> & { store: Store }): Promise<Client> {
  const server = createMcpServer({ actor: 'alice', now: NOW, ...options });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

type Result = CallToolResult & { structuredContent: Record<string, unknown> & { ok: boolean; diagnostics: Array<{ code: string }> } };
const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as Result;

describe('createMcpServer', () => {
  it('acts as the configured actor: AS of another actor is refused unless impersonation is configured', async () => {
    const store = await createStore();
    const alice = await connect({ store });
    const refused = await call(alice, 'run', { script: 'ENCODE "x" AS "bob";' });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent.diagnostics[0].code).toBe('actor-mismatch');
    const trusted = await connect({ store, impersonate: true });
    const asBob = await call(trusted, 'run', { script: 'ENCODE "x" AS "bob";' });
    expect(asBob.structuredContent).toMatchObject({ ok: true, results: [{ changes: [{ after: { owner: 'bob' } }] }] });
  });

  it('the vocabulary and retrieve show only what the actor may read', async () => {
    const store = await createStore();
    const bob = await connect({ store, actor: 'bob' });
    expect((await call(bob, 'run', { script: 'ENCODE "bob\'s secret" TAGS "secret-project" TYPE "diary" SUBJECT "layoffs" SET read_perm_level = "private"; ENCODE "lunch" TAGS "food";' })).structuredContent.ok).toBe(true);
    const alice = await connect({ store });
    const read = await alice.readResource({ uri: 'text2mem://vocabulary' });
    const vocabulary = JSON.parse(String((read.contents[0] as { text: string }).text));
    expect(vocabulary).toEqual({ records: 1, tags: [{ value: 'food', count: 1 }], types: [], subjects: [] });
    expect((await call(alice, 'retrieve', { tags: ['secret-project'] })).structuredContent.rows).toEqual([]);
    const own = JSON.parse(String(((await bob.readResource({ uri: 'text2mem://vocabulary' })).contents[0] as { text: string }).text));
    expect(own.subjects).toEqual([{ value: 'layoffs', count: 1 }]);
  });

  it('retrieve builds the IR from its arguments as data', () => {
    expect(retrieveIr({ query: 'a "b"', tags: ['t'], limit: 3 })).toEqual({
      stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: 'a "b"' }, limit: 3 }, filter: { has_tags: ['t'] } },
    });
    expect(retrieveIr({ type: 'note', include: ['id', 'text'] })).toEqual({
      stage: 'RET', op: 'Retrieve', target: { filter: { type: 'note', limit: 10 } }, args: { include: ['id', 'text'] },
    });
    expect(retrieveIr({})).toEqual({ stage: 'RET', op: 'Retrieve', target: { filter: { limit: 10 } } });
  });

  it('a store error is an error result with its diagnostic; other exceptions are the SDK\'s error results', async () => {
    const store = await createStore();
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    // The driver refuses to begin, as SQLite does when another writer holds the file.
    const broken = store;
    (broken.driver as { begin: () => void }).begin = () => { throw busy; };
    const client = await connect({ store: broken, storeError: (e) => (e === busy ? diagnostic('store-busy', 'busy') : undefined) });
    const result = await call(client, 'run', { script: 'ENCODE "x";' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent.diagnostics[0].code).toBe('store-busy');
    const bare = await connect({ store: broken });
    const generic = await call(bare, 'run', { script: 'ENCODE "x";' });
    expect(generic.isError).toBe(true);
    expect(JSON.stringify(generic.content)).toContain('database is locked');
  });
});
