/**
 * The Text2Mem DSL syntax tree. Nodes are readonly, tagged by `kind`, and carry the source span
 * they came from (`loc`). Trees built from IR (`irToAst`) carry a zero span.
 */
import type { Range } from '../diagnostics/diagnostic.js';
import type { FieldOperator, FlagKeyword, ListKeyword, SearchOptionName, ValueKeyword, VerbName } from '../language/index.js';

// The keyword unions are the vocabulary's (src/language/).
export { VERB_NAMES, VALUE_KEYWORDS, LIST_KEYWORDS, FLAG_KEYWORDS, SEARCH_OPTION_NAMES } from '../language/index.js';
export type { FieldOperator, FlagKeyword, ListKeyword, SearchOptionName, ValueKeyword, VerbName };

export interface Node {
  readonly kind: string;
  readonly loc: Range;
}

// ---------------------------------------------------------------- values

export interface StringValue extends Node { readonly kind: 'String'; readonly value: string }
export interface NumberValue extends Node { readonly kind: 'Number'; readonly value: number }
export interface BooleanValue extends Node { readonly kind: 'Boolean'; readonly value: boolean }
export interface NullValue extends Node { readonly kind: 'Null' }
/** An ISO-8601 date/datetime written bare; its value is the text as written. */
export interface DateTimeValue extends Node { readonly kind: 'DateTime'; readonly value: string }
/** An ISO-8601 duration written bare (`P7D`); its value is the text as written. */
export interface DurationValue extends Node { readonly kind: 'Duration'; readonly value: string }
/** A bare word in a value position (`note`, `read_only`, `Retrieve`); it means the string. */
export interface IdentifierValue extends Node { readonly kind: 'Identifier'; readonly value: string }
/** `$name`: a reference to the ids an earlier `LET $name = …` bound; `name` is without the `$`. */
export interface RefValue extends Node { readonly kind: 'Ref'; readonly name: string }
export interface ListValue extends Node { readonly kind: 'List'; readonly items: readonly Value[] }
export interface ObjectEntry extends Node { readonly kind: 'Entry'; readonly key: Key; readonly value: Value }
export interface ObjectValue extends Node { readonly kind: 'Object'; readonly entries: readonly ObjectEntry[] }

export type Value =
  | StringValue | NumberValue | BooleanValue | NullValue | DateTimeValue | DurationValue | IdentifierValue | RefValue
  | ListValue | ObjectValue;

/** An object key, field name or path segment; `name` is the key as written (strings decoded). */
export interface Key extends Node { readonly kind: 'Key'; readonly name: string }

// ---------------------------------------------------------------- statements

export interface Comment extends Node {
  readonly kind: 'Comment';
  /** Text after `#`, as written. */
  readonly text: string;
  /** An empty line separates it from the comment before it (kept by the printer). */
  readonly blankLineBefore?: boolean;
}

export interface Script extends Node {
  readonly kind: 'Script';
  readonly statements: readonly Statement[];
  /** Comments after the last statement. */
  readonly trailingComments: readonly Comment[];
}

export interface Verb extends Node { readonly kind: 'Verb'; readonly name: VerbName }

/** `LET $name =` before a statement: the IR's `_let`. */
export interface Binding extends Node {
  readonly kind: 'Binding';
  /** The name without the `$`. */
  readonly name: string;
  /** The span of `$name`. */
  readonly nameLoc: Range;
}

export interface Statement extends Node {
  readonly kind: 'Statement';
  /** `LET $name = …`: the name the statement's ids are bound to. */
  readonly binding?: Binding;
  readonly verb: Verb;
  /** ENCODE's leading string: the payload text. */
  readonly text?: StringValue;
  readonly clauses: readonly Clause[];
  /** Comments on the lines before the statement (comments inside it belong to its clauses). */
  readonly leadingComments: readonly Comment[];
  /** A comment after the statement on its last line. */
  readonly trailingComment?: Comment;
  /** True when the source had an empty line before this statement and its comments (kept by the printer). */
  readonly blankLineBefore?: boolean;
  /** True when an empty line separates the leading comments from the statement. */
  readonly blankLineAfterComments?: boolean;
}

/** What every clause has: comments written inside the statement stay with the clause. */
export interface ClauseBase extends Node {
  /** Comments on their own lines before the clause. */
  readonly leadingComments?: readonly Comment[];
  /** A comment after the clause on its last line. */
  readonly trailingComment?: Comment;
}

export type Clause =
  | IdClause | IdsClause | AllClause | WhereClause | ValueClause | ListClause | MaxTokensClause | OlderThanClause
  | WithinClause | FlagClause | SetClause | WithClause;

/** `ID v`: `target.ids` as a single id. */
export interface IdClause extends ClauseBase { readonly kind: 'IdClause'; readonly value: Value }
/** `IDS a, b` or `IDS [a, b]`: `target.ids` as a list. */
export interface IdsClause extends ClauseBase { readonly kind: 'IdsClause'; readonly values: ValueList }
/** `ALL`: `target.all = true`. */
export interface AllClause extends ClauseBase { readonly kind: 'AllClause' }

export interface ValueClause extends ClauseBase { readonly kind: 'ValueClause'; readonly keyword: ValueKeyword; readonly keywordLoc: Range; readonly value: Value }

export interface ListClause extends ClauseBase { readonly kind: 'ListClause'; readonly keyword: ListKeyword; readonly keywordLoc: Range; readonly values: ValueList }

/** `MAX n TOKENS` */
export interface MaxTokensClause extends ClauseBase { readonly kind: 'MaxTokensClause'; readonly value: Value }
/** `OLDER THAN P30D` */
export interface OlderThanClause extends ClauseBase { readonly kind: 'OlderThanClause'; readonly value: Value }
/** `WITHIN LAST 7 DAYS` / `WITHIN FROM a TO b` */
export interface WithinClause extends ClauseBase { readonly kind: 'WithinClause'; readonly range: TimeRange }

export interface FlagClause extends ClauseBase { readonly kind: 'FlagClause'; readonly keyword: FlagKeyword }

/** `SET k = v, ...`: UPDATE's `args.set`, any other verb's `args`. */
export interface SetClause extends ClauseBase { readonly kind: 'SetClause'; readonly assignments: readonly Assignment[] }
export interface Assignment extends Node { readonly kind: 'Assignment'; readonly key: Key; readonly value: Value }

/** `WITH a.b.c = v`: sets any IR path; the escape for fields no other clause can express. */
export interface WithClause extends ClauseBase { readonly kind: 'WithClause'; readonly path: readonly Key[]; readonly value: Value }

/** `a, b, c` or `[a, b, c]` (then `bracketed`), always a JSON array. */
export interface ValueList extends Node {
  readonly kind: 'ValueList';
  readonly items: readonly Value[];
  /** The list was written as one bracketed list literal. */
  readonly bracketed: boolean;
}

// ---------------------------------------------------------------- WHERE

export interface WhereClause extends ClauseBase {
  readonly kind: 'WhereClause';
  readonly conditions: readonly Condition[];
  /** The trailing `LIMIT n`: `target.filter.limit`. */
  readonly limit?: Value;
}

export type Condition = SearchCondition | FieldCondition;

export interface SearchOption extends Node { readonly kind: 'SearchOption'; readonly name: SearchOptionName; readonly value: Value }

/** `search "query" K 10 ALPHA 0.5 ORDER BY relevance CONTEXT "..." VECTOR [..] LIMIT 5` */
export interface SearchCondition extends Node {
  readonly kind: 'SearchCondition';
  readonly query?: StringValue;
  readonly options: readonly SearchOption[];
}

export interface FieldCondition extends Node {
  readonly kind: 'FieldCondition';
  readonly field: Key;
  /** `facets.status = …`: the facet's key after the dot. */
  readonly subField?: Key;
  readonly operator: FieldOperator;
  readonly operatorLoc: Range;
  /** For `=`, `>=`, `<=`, BEFORE, AFTER. */
  readonly value?: Value;
  /** For HAS and NOT HAS. */
  readonly values?: ValueList;
  /** For RANGE (`time IN LAST 7 DAYS`, `time FROM a TO b`). */
  readonly range?: TimeRange;
}

export interface TimeRange extends Node {
  readonly kind: 'TimeRange';
  readonly relative?: RelativeRange;
  readonly from?: Value;
  readonly to?: Value;
}
/** `LAST 7 DAYS`; `unit` is lower-cased. */
export interface RelativeRange extends Node {
  readonly kind: 'RelativeRange';
  readonly direction: 'last' | 'next';
  readonly amount: NumberValue;
  readonly unit: string;
  readonly unitLoc: Range;
}

/** A statement as parsed, before comments are attached. */
export interface RawStatement {
  readonly binding?: Binding;
  readonly verb: Verb;
  readonly text?: StringValue;
  readonly clauses: Clause[];
  readonly loc: Range;
}
