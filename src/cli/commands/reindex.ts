/** `t2m reindex --db <store>`: re-derive the search tokens and re-embed every record (spec/retrieval.md). */
import type { Command } from 'commander';
import { loaded } from '../startup.js';
import { oneLine } from '../../diagnostics/escape.js';

interface ReindexFlags {
  db: string;
  baseUrl?: string;
  model?: string;
  apiKey?: string;
  batch: string;
  timeout: string;
  json?: boolean;
}

export function reindexCommand(program: Command): void {
  program
    .command('reindex')
    .description('re-embed every record of a store (an SQLite file, pglite:…, postgres://…) and rebuild its search tokens (offline embedder, or an OpenAI-compatible /v1/embeddings model); progress on stderr')
    .requiredOption('--db <store>', 'the store: an SQLite file, pglite:[dir] or postgres://… (spec/storage.md)')
    .option('--base-url <url>', 'OpenAI-compatible API base for a remote embedding model, e.g. http://127.0.0.1:11434/v1 (Ollama), https://api.openai.com/v1')
    .option('--model <name>', 'with --base-url: the embedding model name the server knows')
    .option('--api-key <key>', 'with --base-url: bearer token (default: $OPENAI_API_KEY)')
    .option('--batch <n>', 'texts per request', '64')
    .option('--timeout <seconds>', 'per request', '60')
    .option('--json', 'print the result as JSON')
    .action(async (flags: ReindexFlags) => {
      if (flags.baseUrl && !flags.model) {
        process.stderr.write('t2m reindex: --base-url needs --model\n');
        process.exitCode = 2;
        return;
      }
      const [{ openAIEmbedder }, { reindexStore }, { openStoreUrl, storeError }] = await loaded(Promise.all([import('../../retrieve/embeddings.js'), import('../../execute/reindex.js'), import('../../dialect/open-url.js')]));
      const opened = await openStoreUrl(flags.db);
      if (!opened.ok) {
        for (const d of opened.diagnostics) process.stderr.write(`t2m reindex: ${d.code}: ${oneLine(d.message)}\n`);
        process.exitCode = 2;
        return;
      }
      const embedder = flags.baseUrl
        ? openAIEmbedder({ baseUrl: flags.baseUrl, model: flags.model!, apiKey: flags.apiKey ?? process.env.OPENAI_API_KEY, batchSize: Number(flags.batch) || 64, timeoutMs: (Number(flags.timeout) || 60) * 1000 })
        : undefined;
      try {
        const result = await reindexStore(opened.store, {
          embedder,
          batchSize: Number(flags.batch) || 64,
          onProgress: (done, total) => process.stderr.write(`\rt2m reindex: ${done}/${total} records${done === total ? '\n' : ''}`),
        });
        if (!result.ok) {
          for (const d of result.diagnostics) process.stderr.write(`\nt2m reindex: ${d.code}: ${oneLine(d.message)}; nothing was changed\n`);
          process.exitCode = 2;
          return;
        }
        if (flags.json) process.stdout.write(`${JSON.stringify({ records: result.records, model: result.model })}\n`);
        else process.stdout.write(`reindexed ${result.records} record${result.records === 1 ? '' : 's'} with ${result.model}\n`);
      } catch (e) {
        const d = storeError(opened.name, e);
        if (!d) throw e;
        process.stderr.write(`t2m reindex: ${d.code}: ${oneLine(d.message)}\n`);
        process.exitCode = 2;
      } finally {
        await opened.store.close();
      }
    });
}
