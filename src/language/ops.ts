/**
 * The twelve operations of Text2Mem (the paper's Table 1): the IR's op names, their stages, and
 * the DSL verb that writes each. `src/ir/schema.ts` builds its `Op` and `Stage` enums from here.
 */

export const STAGES = ['ENC', 'STO', 'RET'] as const;
export type Stage = (typeof STAGES)[number];

export const OPS = [
  'Encode', 'Update', 'Label', 'Promote', 'Demote', 'Merge', 'Split', 'Lock', 'Expire', 'Delete', 'Retrieve', 'Summarize',
] as const;
export type Op = (typeof OPS)[number];

/** The stage each op belongs to (paper, Table 1). */
export const STAGE_OF: Readonly<Record<Op, Stage>> = {
  Encode: 'ENC',
  Update: 'STO', Label: 'STO', Promote: 'STO', Demote: 'STO', Merge: 'STO', Split: 'STO',
  Lock: 'STO', Expire: 'STO', Delete: 'STO',
  Retrieve: 'RET', Summarize: 'RET',
};

/** The verbs, in op order: each op's name upper-cased. */
export const VERB_NAMES = OPS.map((op) => op.toUpperCase()) as unknown as readonly Uppercase<Op>[];
export type VerbName = Uppercase<Op>;

export const OP_OF_VERB = Object.fromEntries(OPS.map((op) => [op.toUpperCase(), op])) as Readonly<Record<VerbName, Op>>;
export const VERB_OF_OP = Object.fromEntries(OPS.map((op) => [op, op.toUpperCase()])) as Readonly<Record<Op, VerbName>>;

