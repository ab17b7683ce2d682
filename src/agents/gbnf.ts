/**
 * The DSL as a llama.cpp GBNF grammar, for `--grammar gbnf`: built from the grammar
 * (src/syntax/gbnf.ts) when this module is imported, which the CLI does only for `plan` and `bench`.
 */
import { gbnf } from '../syntax/gbnf.js';

export const GBNF: string = gbnf();
