import type { Command } from 'commander';
import { benchCommand } from './bench.ts';

/** The one list of subcommands. Each entry adds itself to the program. */
const COMMANDS: Array<(program: Command) => void> = [benchCommand];

export function registerCommands(program: Command): void {
  for (const add of COMMANDS) add(program);
}
