export { astToIr, type AstToIrResult, type SourceMap } from './astToIr.js';
export { irToAst, irsToScript, jsonToValue } from './irToAst.js';
export { OP_OF_VERB, VERB_OF_OP, CLAUSE_TARGETS, COMMON_CLAUSES, FLAG_TARGETS, SEARCH_OPTION_PATHS, filterKeyOf, sortConditions, CONDITION_ORDER } from './clauses.js';
