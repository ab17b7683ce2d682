/**
 * The shape of a check rule. Rules are visitors: `check` walks every statement once and calls
 * each rule's `statement` hook, then its `value` hook for every value in the statement's IR,
 * so all rules share one traversal (see src/check/index.ts).
 */
import type { Code, Fix, RelatedInformation, Severity } from '../diagnostics/diagnostic.js';
import type { SourceMap } from '../diagnostics/sourceMap.js';
import type { IR, Op } from '../ir/schema.js';
import type { FieldWording } from '../ir/validate.js';

export interface Report {
  readonly code: Code;
  readonly message: string;
  /** Dotted JSON path into the statement's IR; the range is its nearest mapped ancestor's. */
  readonly path: string;
  /** Defaults to the severity the rule declares for the code. */
  readonly severity?: Severity;
  readonly fix?: Fix;
  /** Related places given as IR paths (resolved to ranges like `path`). */
  readonly related?: ReadonlyArray<{ readonly message: string; readonly path: string }>;
}

/** The language of the checked input. */
export type InputLanguage = 'dsl' | 'ir';

export interface RuleContext {
  readonly ir: IR;
  /** 0-based index of the statement in the script. */
  readonly statement: number;
  readonly sourceMap?: SourceMap;
  /** What the person wrote: DSL (messages name its clauses) or IR JSON (messages name IR paths). */
  readonly source: InputLanguage;
  /** How DSL input names IR fields (given by the front end); see `spell` in paths.ts. */
  readonly wording?: FieldWording;
  /** The checked statements (the script, or the slice of it being checked) and this one's index in them. */
  readonly script: readonly IR[];
  readonly index: number;
  report(r: Report): void;
}

export interface Rule {
  /** The rule's name, as in its file name (`TargetModeRule`). */
  readonly name: string;
  /** Each diagnostic code the rule reports, with its default severity. */
  readonly codes: Readonly<Partial<Record<Code, Severity>>>;
  /** Called once per statement, before its values. */
  statement?(ir: IR, ctx: RuleContext): void;
  /**
   * The ops whose statements `statement` can report on: the checker does not call it for the
   * others (without it, every op). It must admit every op the hook can report on.
   */
  readonly ops?: ReadonlySet<Op>;
  /**
   * What `statement` looks at: `Op:path` entries (`*:path` for every op; a dotted IR path, `''`
   * for the whole statement). The hook reports nothing on a statement of an op that gives none of
   * that op's paths (the value there is undefined), so the checker does not call it there: most
   * statements give few of the fields a rule judges, and a call on a cold statement costs more
   * than reading a field. Without it, every statement of its ops. It must admit every statement
   * the hook can report on (test/check/given-scope.test.ts).
   */
  readonly given?: readonly string[];
  /**
   * Called for every value of the statement's IR (objects, lists and scalars) with its dotted
   * path; with `values`, only for the values that scope admits.
   */
  value?(value: unknown, path: string, ctx: RuleContext): void;
  /**
   * Which values `value` judges, so that the walk calls it (and builds the dotted path it is
   * given) only there: without it, every value. It must admit every value the hook can report on.
   */
  readonly values?: ValueScope;
}

/** The values a rule's `value` hook judges: at some paths, or, anywhere, those a test of the value alone picks. */
export type ValueScope =
  /** Dotted IR paths (a `*` segment stands for any one key or index), whatever the op. */
  | { readonly paths: readonly string[] }
  /**
   * A test of the value alone, cheap and allocating nothing (e.g. `typeof v === 'number'`);
   * `typeOf`, when given, is the one `typeof` of the values it can pass: the walk does not call
   * it on the others (most values are strings).
   */
  | { readonly where: (value: unknown) => boolean; readonly typeOf?: 'object' | 'number' };

export type { RelatedInformation };
