import type { Command } from 'commander';

/** The one list of subcommands. Each entry adds itself to the program. */
const COMMANDS: Array<(program: Command) => void> = [];

export function registerCommands(program: Command): void {
  for (const add of COMMANDS) add(program);
}
