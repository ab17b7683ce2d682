/**
 * `t2m`: the command-line front end. Each subcommand lives in src/cli/commands/<name>.ts and is
 * registered in src/cli/commands/index.ts; this file only builds the program and runs it.
 */
import './startup.js'; // first: pauses V8's optimising compiler while the CLI starts
import { Command } from 'commander';
import { registerCommands } from './commands/index.js';
import { packageVersion } from './version.js';

const program = new Command();
program
  .name('t2m')
  .description('Text2Mem: a memory operation language for LLM agents (DSL ⇄ JSON IR, checker, SQL engine)')
  .version(packageVersion())
  .showHelpAfterError();
registerCommands(program);

// Not awaited at the top level: the built CLI is one CommonJS bundle (scripts/bundle-cli.mjs,
// src/cli/code-cache.ts). A rejection still ends the process with its error (an unhandled rejection).
void program.parseAsync(process.argv);
