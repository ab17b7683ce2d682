export { astToIr, type AstToIrResult, type SourceMap } from './astToIr.js';
export { irToAst, irsToScript, jsonToValue } from './irToAst.js';
export { filterKeyOf, sortConditions, CONDITION_ORDER } from './clauses.js';
export { dslName } from './wording.js';
