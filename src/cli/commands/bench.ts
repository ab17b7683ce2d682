/** `t2m bench <samples.jsonl> [--json] [--only <op>]`: the Text2Mem benchmark against this engine. */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { loaded } from '../startup.js';

export function benchCommand(program: Command): void {
  program
    .command('bench')
    .description('run the Text2Mem benchmark (gold schemas) and report assertions and ranking checks passed')
    .argument('<samples>', 'benchmark JSONL file')
    .option('--json', 'print the report as one JSON object')
    .option('--only <op>', 'only samples of this operation (e.g. Label)')
    .action(async (file: string, opts: { json?: boolean; only?: string }) => {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (e) {
        process.stderr.write(`t2m bench: cannot read ${file}: ${(e as Error).message}\n`);
        process.exitCode = 2;
        return;
      }
      // Loaded on use so the other commands do not pay for the engine (sql.js).
      const { formatReport, parseSamples, runBenchmark } = await loaded(import('../../conformance/index.js'));
      const { samples, errors } = parseSamples(text);
      for (const e of errors) process.stderr.write(`${file}: ${e}\n`);
      if (errors.length) {
        process.exitCode = 2;
        return;
      }
      const tty = process.stderr.isTTY;
      const report = await runBenchmark(samples, {
        only: opts.only,
        onProgress: (done, total) => {
          if (done % 25 !== 0 && done !== total) return;
          const width = 30;
          const filled = Math.round((done / total) * width);
          const bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`;
          process.stderr.write(tty ? `\r${bar}${done === total ? '\n' : ''}` : `${bar}\n`);
        },
      });
      if (opts.json) {
        const { failures, ...summary } = report;
        process.stdout.write(JSON.stringify({ ...summary, failures }, null, 2) + '\n');
      } else process.stdout.write(formatReport(report) + '\n');
      const rate = (t: { total: number; passed: number }) => (t.total ? t.passed / t.total : 1);
      if (rate(report.assertions) < 0.99 || rate(report.ranking) < 0.99) process.exitCode = 1;
    });
}
