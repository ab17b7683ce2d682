/** `t2m prompt [--ir]`: print the language card, a system prompt for an LLM that writes Text2Mem. */
import type { Command } from 'commander';
import { loaded } from '../startup.js';

export function promptCommand(program: Command): void {
  program
    .command('prompt')
    .description('print the language card for LLMs (Markdown): verbs, clauses with IR paths, enum values, meanings, worked examples')
    .option('--ir', 'the JSON-IR variant (fields instead of clauses, IR examples) for models that emit JSON')
    .addHelpText('after', '\nThe card is generated from the language tables (src/language) and stays under 12,000 characters.\n\nExamples:\n  t2m prompt > card.md\n  t2m prompt --ir\n')
    .action(async (opts: { ir?: boolean }) => {
      // Loaded on use: the card needs only the vocabulary, not the front end.
      const { languageCard } = await loaded(import('../../agents/card.js'));
      process.stdout.write(languageCard({ ir: opts.ir === true }));
    });
}
