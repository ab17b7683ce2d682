/**
 * The vocabulary of the language, at the bottom of the house: the ops and verbs, every keyword
 * with its doc, the clause table (keyword → IR field per verb), search options, condition
 * operators, exclusive groups and the IR's enum values. It imports nothing from the rest of `src`;
 * the grammar, the IR schema, the converters, the checker's wording and the editor services read it.
 */
export * from './ops.js';
export * from './keywords.js';
export * from './clauses.js';
export * from './enums.js';
export * from './references.js';
export * from './limits.js';
export * from './fields.js';
export * from './remind.js';
