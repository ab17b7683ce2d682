import type { Filter } from '../ir/schema.js';
import { CONDITION_ORDER as LANGUAGE_CONDITION_ORDER } from '../language/index.js';

export { astToIr, type AstToIrResult, type SourceMap } from './astToIr.js';
export { irToAst, irsToScript, jsonToValue } from './irToAst.js';
export { canonicalStatement, print, type PrintOptions } from './canonical.js';
export { dslName } from './wording.js';

/** The canonical order of WHERE conditions (the vocabulary's), as filter keys of the IR. */
export const CONDITION_ORDER: readonly (keyof Filter)[] = LANGUAGE_CONDITION_ORDER;
