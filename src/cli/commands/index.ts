import type { Command } from 'commander';
import { benchCommand } from './bench.ts';
import { checkCommand } from './check.ts';
import { convertCommand } from './convert.ts';
import { fmtCommand } from './fmt.ts';
import { runCommand } from './run.ts';
import { sweepCommand } from './sweep.ts';
import { auditCommand, undoCommand } from './undo.ts';

/** The one list of subcommands. Each entry adds itself to the program. */
const COMMANDS: Array<(program: Command) => void> = [benchCommand, runCommand, sweepCommand, auditCommand, undoCommand, convertCommand, checkCommand, fmtCommand];

export function registerCommands(program: Command): void {
  for (const add of COMMANDS) add(program);
}
