import type { Command } from 'commander';
import { benchCommand } from './bench.js';
import { checkCommand } from './check.js';
import { convertCommand } from './convert.js';
import { fmtCommand } from './fmt.js';
import { lspCommand } from './lsp.js';
import { mcpCommand } from './mcp.js';
import { planCommand } from './plan.js';
import { promptCommand } from './prompt.js';
import { reindexCommand } from './reindex.js';
import { runCommand } from './run.js';
import { sweepCommand } from './sweep.js';
import { auditCommand, undoCommand } from './undo.js';
import { whyCommand } from './why.js';

/** The one list of subcommands. Each entry adds itself to the program. */
const COMMANDS: Array<(program: Command) => void> = [benchCommand, planCommand, runCommand, sweepCommand, reindexCommand, auditCommand, undoCommand, whyCommand, convertCommand, checkCommand, fmtCommand, promptCommand, mcpCommand, lspCommand];

export function registerCommands(program: Command): void {
  for (const add of COMMANDS) add(program);
}
