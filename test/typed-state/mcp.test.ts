/** The MCP session's tenant (McpServerOptions.tenant, `t2m mcp --tenant`): every tool stays inside it. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { type Store } from '../../src/engine/index.js';
import { createStore } from '../../src/dialect/sqlite/store.js';
import { createMcpServer } from '../../src/mcp/server.js';

async function session(store: Store, tenant: string): Promise<Client> {
  const server = createMcpServer({ store, actor: 'agent', tenant, now: '2026-06-10T00:00:00Z' });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}
type Result = CallToolResult & { structuredContent: Record<string, any> };
const call = async (c: Client, name: string, args: Record<string, unknown>) => (await c.callTool({ name, arguments: args })) as Result;

describe('MCP sessions in two tenants', () => {
  it('run, retrieve and the vocabulary of one tenant never show the other', async () => {
    const store = await createStore();
    const acme = await session(store, 'acme');
    const globex = await session(store, 'globex');
    expect((await call(acme, 'run', { script: 'ENCODE "2026-06-30" SUBJECT mira ATTRIBUTE passport_deadline TAGS "travel";' })).structuredContent.ok).toBe(true);
    expect((await call(globex, 'run', { script: 'ENCODE "2026-05-01" SUBJECT mira ATTRIBUTE passport_deadline TAGS "travel";' })).structuredContent.ok).toBe(true);
    const mine = await call(acme, 'retrieve', { tags: ['travel'], include: ['id', 'text'] });
    expect(mine.structuredContent.rows).toEqual([{ id: 1, text: '2026-06-30' }]);
    const theirs = await call(globex, 'run', { script: 'RETRIEVE IDS "1"; DELETE IDS "1" HARD;' });
    expect(theirs.structuredContent.results.map((r: { ids: number[] }) => r.ids)).toEqual([[], []]);
    const vocabulary = JSON.parse(String(((await globex.readResource({ uri: 'text2mem://vocabulary' })).contents[0] as { text: string }).text));
    expect(vocabulary.records).toBe(1);
    expect(store.query('SELECT id, tenant FROM memory ORDER BY id')).toEqual([{ id: 1, tenant: 'acme' }, { id: 2, tenant: 'globex' }]);
  });
});
