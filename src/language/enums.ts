/**
 * The enumerated values of the IR, each with a one-line doc, the field(s) that hold it and, where
 * the engine applies one, its default. `src/ir/schema.ts` builds its zod enums from these lists;
 * completion and hover read the docs.
 */
import type { Op } from './ops.js';
import { STAGES } from './ops.js';
import { KEYWORDS, type Keyword } from './keywords.js';

export { STAGES };
export const READ_PERMS = ['public', 'team', 'private', 'custom'] as const;
export const WRITE_PERMS = ['open', 'maintainer', 'owner_only', 'custom'] as const;
export const TIME_UNITS = ['minutes', 'hours', 'days', 'weeks', 'months', 'years'] as const;
export const RELATIVE_DIRECTIONS = ['last', 'next'] as const;
export const ORDER_BY = ['relevance', 'time_desc', 'time_asc', 'weight_desc'] as const;
export const LABEL_MODES = ['add', 'replace', 'remove'] as const;
export const LOCK_MODES = ['read_only', 'append_only'] as const;
export const ON_EXPIRE = ['soft_delete', 'hard_delete', 'demote', 'anonymize'] as const;
export const SPLIT_STRATEGIES = ['by_sentences', 'by_chunks', 'custom'] as const;
export const SPLIT_LANGS = ['zh', 'en', 'auto'] as const;
export const MERGE_STRATEGIES = ['merge_into_primary'] as const;
/** Retention classes (spec/semantics.md "Retention"): how long a record lives and what its deletion erases. */
export const RETENTION_CLASSES = ['ephemeral', 'session', 'durable', 'legal_hold'] as const;
/** Experience memory (extension, spec/syntax.md §12): a record's level, what a turn expands to, the built-in selectors. */
export const LEVELS = ['episode', 'turn'] as const;
export const EXPAND_LEVELS = ['episode'] as const;
export const SELECTORS = ['utility', 'similarity', 'learned'] as const;
/** An experience record's execution status (a turn's action, an episode's final query). */
export const EXEC_STATUSES = ['ok', 'error', 'empty', 'wrong'] as const;
export const INCLUDE_FIELDS = [
  'id', 'text', 'type', 'tags', 'facets', 'time', 'subject', 'location', 'topic', 'source', 'weight',
  'read_perm_level', 'write_perm_level', 'read_whitelist', 'read_blacklist', 'write_whitelist', 'write_blacklist',
  'attribute', 'valid_from', 'valid_to', 'supersedes', 'episode', 'confidence', 'retention',
  'level', 'episode_id', 'utility',
  'believed_from', 'believed_to',
  'schema_version',
] as const;

export interface EnumSpec<V extends string = string> {
  readonly values: readonly V[];
  /** A one-line doc per value. */
  readonly docs: Readonly<Record<V, string>>;
  /** The IR fields that hold the value (dotted; `time_range.unit` wherever a time range is). */
  readonly paths: readonly string[];
  /** The ops whose IR holds it, when not every op's. */
  readonly ops?: readonly Op[];
  /** The clause that writes it, as written (`MODE`, `ORDER BY`). */
  readonly clause?: string;
  /** What the engine does when the field is absent. */
  readonly default?: string;
}

function spec<const V extends string>(s: EnumSpec<V>): EnumSpec<V> {
  return s;
}

/** Every enum of the IR, by the name hover and completion use for it. */
export const ENUMS = {
  stage: spec({
    values: STAGES, paths: ['stage'], clause: 'STAGE', default: "the verb's stage",
    docs: { ENC: 'Store new memories.', STO: 'Change stored memories.', RET: 'Read memories.' },
  }),
  order_by: spec({
    values: ORDER_BY, paths: ['target.search.overrides.order_by'], clause: 'ORDER BY', default: 'relevance with a search, else time_desc',
    docs: { relevance: 'Best match first.', time_desc: 'Newest first.', time_asc: 'Oldest first.', weight_desc: 'Heaviest first.' },
  }),
  label_mode: spec({
    values: LABEL_MODES, paths: ['args.mode'], ops: ['Label'], clause: 'MODE', default: 'add',
    docs: { add: 'Add tags, merge facets.', replace: 'Replace tags and facets.', remove: 'Remove tags and facet keys.' },
  }),
  lock_mode: spec({
    values: LOCK_MODES, paths: ['args.mode'], ops: ['Lock'], clause: 'MODE', default: 'read_only (custom with an allow/deny policy)',
    docs: { read_only: 'No change at all.', append_only: 'Additions only.' },
  }),
  on_expire: spec({
    values: ON_EXPIRE, paths: ['args.on_expire'], ops: ['Expire'], clause: 'THEN', default: 'soft_delete',
    docs: {
      soft_delete: 'Delete recoverably.', hard_delete: 'Delete for good.', demote: 'Lower the weight.',
      anonymize: 'Strip the identifying text and metadata.',
    },
  }),
  split_strategy: spec({
    values: SPLIT_STRATEGIES, paths: ['args.strategy'], ops: ['Split'], clause: 'STRATEGY', default: 'by_sentences',
    docs: { by_sentences: 'By sentences.', by_chunks: 'By character chunks.', custom: 'By an instruction.' },
  }),
  merge_strategy: spec({
    values: MERGE_STRATEGIES, paths: ['args.strategy'], ops: ['Merge'], clause: 'STRATEGY', default: 'merge_into_primary',
    docs: { merge_into_primary: 'Fold into the primary.' },
  }),
  split_lang: spec({
    values: SPLIT_LANGS, paths: ['args.params.by_sentences.lang'], ops: ['Split'], default: 'auto',
    docs: { zh: 'Chinese.', en: 'English.', auto: 'Detect.' },
  }),
  time_unit: spec({
    values: TIME_UNITS, paths: ['time_range.unit'], clause: 'LAST / NEXT',
    docs: { minutes: 'Minutes.', hours: 'Hours.', days: 'Days.', weeks: 'Weeks.', months: 'Months.', years: 'Years.' },
  }),
  relative: spec({
    values: RELATIVE_DIRECTIONS, paths: ['time_range.relative'],
    docs: { last: 'Ending now.', next: 'Starting now.' },
  }),
  include: spec({
    values: INCLUDE_FIELDS, paths: ['args.include'], ops: ['Retrieve'], clause: 'INCLUDE', default: 'id to weight; a read of facts: id, text, subject, attribute, valid_from, valid_to, confidence, source, episode',
    docs: {
      id: 'The id.', text: 'The text.', type: 'The type.', tags: 'The tags.', facets: 'The facets.', time: 'When it happened.',
      subject: 'The subject.', location: 'The location.', topic: 'The topic.', source: 'Where it came from.', weight: 'The weight.',
      read_perm_level: 'Who may read it.', write_perm_level: 'Who may write it.', read_whitelist: 'Who may always read.',
      read_blacklist: 'Who may never read.', write_whitelist: 'Who may always write.', write_blacklist: 'Who may never write.',
      attribute: 'The fact attribute.', valid_from: 'When it starts holding.', valid_to: 'When it stopped holding.',
      supersedes: 'The version it replaced.', episode: 'The source episode.', confidence: 'The writer confidence.', retention: 'The retention class.',
      level: 'The level.', episode_id: "The turn's episode.", utility: 'The learned utility.',
      believed_from: 'When it was recorded.', believed_to: 'When belief ended.',
      schema_version: 'The attribute schema version.',
    },
  }),
  retention: spec({
    values: RETENTION_CLASSES, paths: ['args.retention'], ops: ['Encode'], clause: 'RETENTION', default: 'durable',
    docs: {
      ephemeral: 'A day; deletion erases history.', session: '30 days.', durable: 'Until deleted.', legal_hold: 'Never deleted.',
    },
  }),
  read_perm_level: spec({
    values: READ_PERMS, paths: ['args.read_perm_level', 'args.set.read_perm_level'],
    docs: { public: 'Anyone.', team: 'The team.', private: 'The owner only.', custom: 'By the lists.' },
  }),
  write_perm_level: spec({
    values: WRITE_PERMS, paths: ['args.write_perm_level', 'args.set.write_perm_level'],
    docs: { open: 'Anyone.', maintainer: 'Maintainers.', owner_only: 'The owner only.', custom: 'By the lists.' },
  }),
} as const;

export type EnumName = keyof typeof ENUMS;

/**
 * Keywords that are also a value some clause takes — `THEN demote` (the verb DEMOTE), `LEVEL
 * episode` and `EXPAND episode` (the clause EPISODE): soft keywords. Where a value is expected
 * the parser reads them as that bare word (spec/syntax.md §2); elsewhere they are keywords.
 */
export const SOFT_KEYWORDS: readonly Keyword[] = (() => {
  // INCLUDE's field names and LAST/NEXT have rules of their own; every other enum is a clause's value.
  const valueEnums = Object.entries(ENUMS).filter(([name]) => name !== 'include' && name !== 'relative').map(([, e]) => e);
  const words = new Set<string>([...valueEnums.flatMap((e) => [...e.values] as string[]), ...LEVELS, ...EXPAND_LEVELS, ...SELECTORS, ...EXEC_STATUSES]);
  return KEYWORDS.filter((k) => words.has(k.toLowerCase()));
})();
