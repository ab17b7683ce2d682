/**
 * The language card: what an LLM needs to write Text2Mem DSL (or JSON IR) that does what was
 * asked. The reference parts (verbs, clauses with their IR paths, enum values with docs and
 * defaults, exclusive groups, search options, condition operators, keywords) are generated from
 * src/language's tables, so the card cannot go stale; the parts no table holds (what the engine
 * does with a value, which verb serves a request that has no verb, worked examples) are written
 * here, and every example is parsed, checked and run by test/agents/card.test.ts.
 *
 * Imports only src/language: the planner and the MCP server may load it without the front end.
 * `spec/card.md` and `spec/card-ir.md` are its snapshots (`npx tsx scripts/gen-card.ts`).
 */
import {
  CLAUSES, CONDITION_OPERATORS, ENUMS, EXCLUSIVE_GROUPS, GOVERNED_COLUMNS, KEYWORDS, KEYWORD_DOCS, LET_BINDS, OPS, SEARCH_OPTIONS, SEARCH_QUERY_PATH,
  STAGE_OF, TYPE_SUGGESTIONS, UPDATE_COLUMNS, VERB_DOCS, VERB_OF_OP, VERB_TEXT, WEIGHT_WORDS, type ClauseName, type ClauseSpec, type EnumSpec, type Op,
} from '../language/index.js';

export interface CardOptions {
  /** The JSON-IR variant: fields instead of clauses, IR examples (for models that emit JSON). */
  readonly ir?: boolean;
  /** Record types found in the store the plan is for (`storeVocabulary`), listed beside the usual ones. */
  readonly types?: readonly string[];
}

/** The card's size limit, in characters (a system prompt shares its context with the request). */
export const CARD_MAX_CHARS = 12_000;

// ---------------------------------------------------------------- hand-written facts

/**
 * What the engine does where the reference leaves a reading open: each answer as found in the
 * engine (the source named in brackets, for maintainers; the card prints only the text).
 * Shared with spec/syntax.md's "Meanings, answered" section.
 */
export const MEANINGS: ReadonlyArray<{ readonly q: string; readonly dsl: string; readonly ir: string; readonly source: string; readonly specOnly?: true }> = [
  {
    q: '`tags HAS "a", "b"`: all or any?',
    dsl: 'ALL (exact, case-sensitive); `NOT HAS`: none. No any-of: one statement per tag, or `search`.',
    ir: '`has_tags: ["a","b"]` = ALL (exact, case-sensitive); `not_tags`: none. No any-of: one instruction per tag, or a search.',
    source: 'src/lower/target.ts filter; src/compile/index.ts filterWhere (one hasTag per tag)',
  },
  {
    q: 'Ids?',
    dsl: 'Positive integers in ENCODE order; `ID 1`, `ID "1"`, `ID "001"` are one record.',
    ir: 'Positive integers in Encode order; `1`, `"1"`, `"001"` are one record.',
    source: 'src/lower/lowerer.ts ids(); src/compile/index.ts orderBy',
    // In spec/syntax.md only: the card's budget (ids a planner writes come from the request or a `$n`).
    specOnly: true,
  },
  {
    q: 'SUMMARIZE stores?',
    dsl: 'No: it returns sentences picked by FOCUS within MAX n TOKENS (default 256).',
    ir: 'No: it returns sentences picked by `focus` within `max_tokens` (default 256).',
    source: 'src/execute/verbs/summarize.ts; spec/semantics.md Verbs',
  },
  {
    q: 'MERGE without INTO (or `INTO auto`)?',
    dsl: 'The first selected: lowest id for IDS, newest `time` for a filter, best match for a search.',
    ir: '`primary_id` absent or `"auto"`: the first selected: lowest id for `ids`, newest `time` for a filter, best match for a search.',
    source: 'src/lower/verbs.ts Merge; src/execute/verbs/merge.ts',
    // In spec/syntax.md only: the card's budget (the card's MERGE shows INTO).
    specOnly: true,
  },
  {
    q: 'Calendar words?',
    dsl: 'UTC, from the run\'s clock. Last week, month, quarter, year: `time IN LAST 7|30|90|365 DAYS` (n days back to the end of today; MINUTES, HOURS end now); `NEXT n` starts now. Today, yesterday, this month: `time FROM a TO b`. A period the records are about (last year\'s budget): no time condition. "Next Friday": the first after today; a time of day alone: today; a date value: `2025-10-24T00:00:00Z`.',
    ir: 'UTC, from the run\'s clock. Last week, month, quarter, year: `{relative: "last", amount: 7|30|90|365, unit: "days"}` (n days back to the end of today; minutes/hours end now); `next` starts now. Today, yesterday, this month: `{start, end}`. A period the records are about (last year\'s budget): no `time_range`. "Next Friday": the first after today; a time of day alone: today; a date value: `2025-10-24T00:00:00Z`.',
    source: 'src/lower/target.ts timeRange; src/lower/time.ts addDuration',
  },
  {
    q: 'SPLIT `params`?',
    dsl: '`SET params = {by_chunks: {num_chunks: 3}}`, the entry STRATEGY names (chunk_size >= 50, max_sentences, max_splits; no LLM). The source is soft-deleted unless `SET keep_source = true`.',
    ir: '`{by_chunks: {num_chunks: 3}}`, the entry `strategy` names (chunk_size >= 50, max_sentences, max_splits; no LLM). The source is soft-deleted unless `keep_source: true`.',
    source: 'src/lower/verbs.ts splitRule; src/execute/verbs/split.ts',
  },
  {
    q: 'LIMIT keeps which?',
    dsl: 'The first n: a filter is newest first; ORDER BY only after `search`. No LIMIT: a filter takes all (a write warns), a search 10.',
    ir: 'The first n: a filter is newest first; `order_by` only under `search`. No `limit`: a filter takes all (a write warns), a search 10.',
    source: 'src/lower/target.ts selection; src/compile/index.ts compileTargetSelect',
  },
  {
    q: 'Unknown fields?',
    dsl: '`WHERE status = "x"` is refused (`unknown-condition`): invented fields are facets, `WHERE facets = { status: "x" }`; UPDATE `SET status = "x"` writes that facet.',
    ir: 'An unknown filter key (`status`) is refused (`unknown-condition`): use `filter.facets: {status: "x"}`. Update `set.status` writes that facet.',
    source: 'src/lower/ignored.ts; src/lower/verbs.ts lowerUpdate',
  },
  {
    q: 'Later statements see earlier changes?',
    dsl: 'Yes, in order: deleted, merged-away, split-source and expired records match no later target (archived ones do); a LOCK refuses later writes (lock last).',
    ir: 'Yes, in order: deleted, merged-away, split-source and expired records match no later target (archived ones do); a LOCK refuses later writes (lock last).',
    source: 'src/compile/index.ts timeWhere (live: not deleted, not expired); src/execute/verbs/promote.ts (archive caps the weight)',
  },
];

/**
 * The request → statement guide: common intents in English and Chinese, the statement that
 * serves each (`dsl`, run on EXAMPLE_SEED by test/agents/card.test.ts) and the same as op and
 * args for the IR card (`ir`: the first statement's op and args, checked against the converter).
 */
export interface GuideEntry {
  readonly intent: string;
  readonly dsl: string;
  readonly ir: { readonly op: Op; readonly args?: unknown };
  /** What the reader must know besides the statement. */
  readonly note?: string;
  /** The note in the IR card's words, where it names clauses or shows more than the first statement. */
  readonly irNote?: string;
}

export const GUIDE: readonly GuideEntry[] = [
  {
    intent: 'record / log / save — 记录 / 保存',
    dsl: 'ENCODE "Demo on Friday" TYPE note TAGS "client" TIME 2025-04-10T15:30:00+08:00;',
    ir: { op: 'Encode', args: { payload: { text: 'Demo on Friday' }, type: 'note', tags: ['client'], time: '2025-04-10T15:30:00+08:00' } },
    note: 'in full, key phrases as tags, even beside related notes; a record already holding it: act on that'
  },
  {
    intent: 'change / correct / mark done — 修改 / 更新',
    dsl: 'UPDATE ID 3 SET text = "Pay the rent today", status = "done";',
    ir: { op: 'Update', args: { set: { text: 'Pay the rent today', status: 'done' } } },
    note: 'always the whole new text; a status or date also as a facet',
  },
  {
    intent: 'label / tag / mark as "X" — 打标签 / 标记为“X”',
    dsl: 'LABEL WHERE tags HAS "api" LIMIT 10 TAGS "resolved";',
    ir: { op: 'Label', args: { tags: ['resolved'] } },
    note: 'a tag; quoted: verbatim; unquoted: as stored, and high / top priority as "high_priority"'
  },
  {
    intent: 'prioritise / mark or set (high / top) priority / elevate / emphasize / highlight — 优先 / 最高优先级 / 强调 / 突出',
    dsl: 'PROMOTE WHERE tags HAS "standup" LIMIT 10 BY 0.3 REASON "release week";',
    ir: { op: 'Promote', args: { weight_delta: 0.3, reason: 'release week' } },
    note: 'top / highest: BY 0.5',
    irNote: 'top / highest: 0.5',
  },
  {
    intent: 'confirm / check — 确认',
    dsl: 'RETRIEVE ID 3 INCLUDE id, text;',
    ir: { op: 'Retrieve', args: { include: ['id', 'text'] } },
    note: 'ensure X: X\'s verb, e.g. LOCK',
    irNote: 'ensure X: X\'s op (Lock)',
  },
  {
    intent: 'lower priority — 降低优先级; archive / shelve — 归档',
    dsl: 'DEMOTE ID 2 BY -0.2; DEMOTE ID 1 ARCHIVE REASON "done";',
    ir: { op: 'Demote', args: { weight_delta: -0.2 } },
    irNote: 'archive: {"archive":true}',
  },
  {
    intent: 'share / send to the team / notify — 分享 / 发给团队 / 通知',
    dsl: 'LABEL ID 2 TAGS "shared";',
    ir: { op: 'Label', args: { tags: ['shared'] } },
    note: 'nothing is sent'
  },
  {
    intent: 'remind me (every … / once) — 提醒我',
    dsl: 'PROMOTE ID 3 REMIND "FREQ=MONTHLY;BYMONTHDAY=1" UNTIL 2025-12-31T23:59:59Z;',
    ir: { op: 'Promote', args: { remind: { rrule: 'FREQ=MONTHLY;BYMONTHDAY=1', until: '2025-12-31T23:59:59Z' } } },
  },
  {
    intent: 'merge / combine — 合并',
    dsl: 'MERGE IDS 1, 2 INTO "1";',
    ir: { op: 'Merge', args: { primary_id: '1' } },
    note: 'two or more live records',
  },
  {
    intent: 'split / break up — 拆分',
    dsl: 'SPLIT ID 1 STRATEGY by_sentences;',
    ir: { op: 'Split', args: { strategy: 'by_sentences' } },
    note: 'cuts one record\'s text; separate records: LABEL',
    irNote: 'cuts one record\'s text; separate records: Label'
  },
  {
    intent: 'lock / freeze / read-only — 锁定 / 只读',
    dsl: 'LOCK WHERE tags HAS "api" LIMIT 10 MODE read_only REASON "final";',
    ir: { op: 'Lock', args: { mode: 'read_only', reason: 'final' } },
  },
  {
    intent: 'expire after — 过期',
    dsl: 'EXPIRE WHERE tags HAS "todo" LIMIT 10 TTL P30D THEN soft_delete;',
    ir: { op: 'Expire', args: { ttl: 'P30D', on_expire: 'soft_delete' } },
  },
  {
    intent: 'delete / clean up — 删除 / 清理',
    dsl: 'DELETE WHERE tags HAS "standup" LIMIT 10 REASON "obsolete";',
    ir: { op: 'Delete', args: { reason: 'obsolete' } },
    note: 'soft, even for erase / purge; hard: "permanently"',
  },
  {
    intent: 'find / look up — 查找 / 检索',
    dsl: 'RETRIEVE WHERE tags HAS "standup" AND time IN LAST 30 DAYS LIMIT 10 INCLUDE id, text, tags;',
    ir: { op: 'Retrieve', args: { include: ['id', 'text', 'tags'] } },
  },
  {
    intent: 'summarise / key points — 总结 / 要点',
    dsl: 'SUMMARIZE WHERE tags HAS "standup" LIMIT 10 FOCUS "decisions" MAX 200 TOKENS;',
    ir: { op: 'Summarize', args: { focus: 'decisions', max_tokens: 200 } },
  },
];

/** Worked examples: a request and the DSL that does it. Each runs on a store seeded with EXAMPLE_SEED. */
export interface CardExample {
  readonly request: string;
  readonly dsl: string;
  /** The IR of `dsl`, one object per statement (test/agents/card.test.ts checks it equals what the converter gives). */
  readonly ir: unknown;
}

/** Three memories (ids 1, 2, 3) the examples act on; the test runs each example after it. */
export const EXAMPLE_SEED = [
  'ENCODE "Standup: API latency fixed. Next: deploy v2." TYPE note TAGS "standup", "api" TIME 2025-04-01T09:00:00Z;',
  'ENCODE "Standup: deploy v2 done." TYPE note TAGS "standup" TIME 2025-04-02T09:00:00Z FACETS { status: "open" };',
  'ENCODE "Pay the rent" TYPE task TAGS "todo" TIME 2025-04-03T09:00:00Z;',
].join('\n');

export const CARD_EXAMPLES: readonly CardExample[] = [
  {
    request: '把四月的站会标为重点，周一提醒我 (April standups: key; remind Monday)',
    dsl: 'LET $s = LABEL WHERE tags HAS "standup" AND time FROM 2025-04-01T00:00:00Z TO 2025-04-30T23:59:59Z LIMIT 20 TAGS "key"; PROMOTE IDS $s REMIND "FREQ=WEEKLY;BYDAY=MO;COUNT=1";',
    ir: [
      { _let: 's', stage: 'STO', op: 'Label', target: { filter: { has_tags: ['standup'], time_range: { start: '2025-04-01T00:00:00Z', end: '2025-04-30T23:59:59Z' }, limit: 20 } }, args: { tags: ['key'] } },
      { stage: 'STO', op: 'Promote', target: { ids: [{ $ref: 's' }] }, args: { remind: { rrule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=1' } } },
    ],
  },
  {
    request: 'Erase the old to-dos.',
    dsl: 'DELETE WHERE tags HAS "todo" LIMIT 50;',
    ir: { stage: 'STO', op: 'Delete', target: { filter: { has_tags: ['todo'], limit: 50 } } },
  },
  {
    request: 'Mira\'s deadline was June 30 all along, not July 15.',
    dsl: 'ENCODE "2026-06-30" SUBJECT "mira" ATTRIBUTE "deadline" VALID FROM 2026-06-01T00:00:00Z;',
    ir: { stage: 'ENC', op: 'Encode', args: { payload: { text: '2026-06-30' }, subject: 'mira', attribute: 'deadline', valid_from: '2026-06-01T00:00:00Z' } },
  },
  {
    request: 'Rent: "pending review", due next Friday (now Tue 2025-04-01).',
    dsl: 'UPDATE ID 3 SET text = "Rent due Friday", status = "pending review", deadline = "2025-04-04T00:00:00Z";',
    ir: { stage: 'STO', op: 'Update', target: { ids: 3 }, args: { set: { text: 'Rent due Friday', status: 'pending review', deadline: '2025-04-04T00:00:00Z' } } },
  },
  {
    request: 'Deploy notes, newest 3.',
    dsl: 'RETRIEVE WHERE search "deploy" ORDER BY time_desc LIMIT 3 INCLUDE id, text, time;',
    ir: { stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: 'deploy' }, overrides: { order_by: 'time_desc' }, limit: 3 } }, args: { include: ['id', 'text', 'time'] } },
  },
  {
    request: 'Forget everything, but show me first.',
    dsl: 'DELETE ALL DRY RUN;',
    ir: { stage: 'STO', op: 'Delete', target: { all: true }, meta: { dry_run: true } },
  },
];

// ---------------------------------------------------------------- generated from the tables

const TABLE: Readonly<Record<string, ClauseSpec>> = CLAUSES;
const CLAUSE_NAMES = Object.keys(CLAUSES) as ClauseName[];
const ENUM_LIST = Object.entries(ENUMS) as Array<[string, EnumSpec]>;

/** A verb's doc without its bold name and stage prefix. */
function verbDoc(op: Op): string {
  return (VERB_DOCS[VERB_OF_OP[op]]?.summary ?? '').replace(/^\*\*\w+\*\*\s*\((?:stage )?\w+\):\s*/, '');
}

/** The enum a field holds for an op (`args.mode` in Lock → lock_mode). */
function enumAt(path: string, op?: Op): [string, EnumSpec] | undefined {
  return ENUM_LIST.find(([, e]) => e.paths.includes(path) && (!op || !e.ops || e.ops.includes(op)));
}

const values = (e: EnumSpec) => e.values.join(' | ');

/** How a clause is written, with a placeholder for its value where the value is not free text. */
function written(name: ClauseName, op: Op | undefined, path: string): string {
  const s = TABLE[name];
  const en = enumAt(path, op);
  switch (s.shape) {
    case 'flag': return name;
    case 'max-tokens': return 'MAX n TOKENS';
    case 'older-than': return 'OLDER THAN P30D';
    case 'within': return 'WITHIN LAST 7 DAYS';
    case 'list': return en ? `${name} ${en[1].values.slice(0, 2).join(', ')}` : `${name} "a", "b"`;
    default:
      if (en) return `${name} ${values(en[1])}`;
      if (name === 'REMIND') return 'REMIND "FREQ=…" | <datetime>';
      if (name === 'BY') return 'BY ±0.2';
      if (name === 'TTL') return 'TTL P7D';
      if (['TIME', 'UNTIL', 'AT', 'VALID FROM', 'AS OF'].includes(name)) return `${name} <datetime>`;
      if (['FACETS', 'PAYLOAD', 'POLICY', 'STRUCTURED'].includes(name)) return `${name} {…}`;
      return name;
  }
}

/** The field a clause fills when it is not `args.<its name>` (TYPE → args.type goes without saying). */
function pathNote(name: ClauseName, path: string): string {
  return path === `args.${name.toLowerCase().replace(/ /g, '_')}` ? '' : ` → ${path}`;
}

function clausesOf(op: Op, ir: boolean): string[] {
  const out: string[] = [];
  const text = VERB_TEXT[op];
  if (text) out.push(ir ? text.slice(1).join('.') : `"text" → ${text.join('.')}`);
  for (const name of CLAUSE_NAMES) {
    const p = TABLE[name].ops?.[op];
    if (!p) continue;
    const path = p.join('.');
    const s = TABLE[name];
    if (ir) {
      const en = enumAt(path, op);
      const short = p.slice(1).join('.');
      // A long enum (include) is listed once, under Enum values.
      const v = s.shape === 'flag' ? `=${String(s.value)}` : en ? (en[1].values.length > 6 ? ` (${en[0]})` : `: ${values(en[1])}`) : '';
      if (!out.some((o) => o.startsWith(short + ':') || o === short || o.startsWith(short + '='))) out.push(`${short}${v}`);
      else if (s.shape === 'flag') out[out.findIndex((o) => o.startsWith(short))] += `|${String(s.value)}`;
    } else {
      out.push(`${written(name, op, path)}${s.shape === 'flag' ? (path === `args.${name.toLowerCase()}` ? '' : ` → ${path}=${String(s.value)}`) : pathNote(name, path)}`);
    }
  }
  if (op === 'Update') out.push(ir ? 'set: {field: value, …}' : 'SET k = v, … → args.set.k');
  return out;
}

function verbsSection(ir: boolean): string {
  const lines = [ir ? '## Ops and their args (under `args`)' : '## Verbs and their clauses (each fills `args.<its name>` unless → says)', ''];
  for (const op of OPS) {
    const head = ir ? `- **${op}** (${STAGE_OF[op]})` : `- **${VERB_OF_OP[op]}** (${STAGE_OF[op]})`;
    lines.push(`${head}: ${verbDoc(op)}`);
    const cl = clausesOf(op, ir);
    if (cl.length) lines.push(`  ${cl.join('; ')}`);
  }
  return lines.join('\n');
}

/** Reads over everything need a confirmation too: the upstream IR schema's rule for `target.all` in stage RET (meta.confirmation; a dry run is not enough). */
const ALL_RULE_DSL = 'ALL needs CONFIRM: a write takes CONFIRM or DRY RUN, a read (RETRIEVE, SUMMARIZE) CONFIRM only.';
const ALL_RULE_IR = '`all: true` needs `meta.confirmation: true`; a write may instead be `meta.dry_run: true`, a read (Retrieve, Summarize) may not.';

function everyVerbSection(ir: boolean): string {
  if (ir) {
    return [
      '## Every instruction',
      '',
      '`{stage, op, target, args, meta}`; stage = the op\'s stage. Encode has no target; any other op\'s target is ONE of `ids` (id or list), `filter`, `search` (+ `filter`), `all: true`.',
      `meta: ${CLAUSE_NAMES.filter((n) => TABLE[n].path?.[0] === 'meta').map((n) => TABLE[n].path![1]).join(', ')}. ${ALL_RULE_IR} Times are ISO-8601 with an offset; durations ISO-8601 (\`P7D\`).`,
    ].join('\n');
  }
  const targets = CLAUSE_NAMES.filter((n) => TABLE[n].shape === 'target').map((n) => (n === 'ID' ? 'ID v' : n === 'IDS' ? 'IDS v, v' : n === 'WHERE' ? 'WHERE cond AND … [LIMIT n]' : n));
  const meta = CLAUSE_NAMES.filter((n) => TABLE[n].path && TABLE[n].shape !== 'target' && n !== 'STAGE').map((n) => `${written(n, undefined, TABLE[n].path!.join('.'))} → ${TABLE[n].path!.join('.')}`);
  return [
    '## Every statement',
    '',
    '`[LET $n =] VERB ["text"] clause* ;` — clauses in any order; keywords case-insensitive, enum values lower-case as listed. Datetimes need an offset (`2025-04-10T15:30:00+08:00`); durations ISO-8601 (`P7D`).',
    `- Target, exactly one: ${targets.join(' | ')} ${ALL_RULE_DSL}`,
    `- Any verb: ${meta.join('; ')}; \`SET k = v\` (any arg), \`WITH a.b = v\` (any IR path).`,
  ].join('\n');
}

/** Column names, those sharing a first word (three or more) as one `word_*`. */
function grouped(names: readonly string[]): string {
  const head = (n: string) => n.split('_')[0];
  const count = (h: string) => names.filter((n) => head(n) === h && n.includes('_')).length;
  const out: string[] = [];
  for (const n of names) {
    const h = head(n);
    const g = n.includes('_') && count(h) >= 3 ? `${h}_*` : n;
    if (!out.includes(g)) out.push(g);
  }
  return out.join(', ');
}

/** What `LET` binds, per op, in words (from the vocabulary's table). */
function bindings(ir: boolean): string {
  const name = (o: Op) => (ir ? o : VERB_OF_OP[o]);
  const words: Record<string, string> = { created: 'the new record', pieces: 'the pieces', primary: 'the primary', affected: 'the ids changed', returned: 'the rows' };
  const by = new Map<string, Op[]>();
  for (const op of OPS) {
    const b = LET_BINDS[op];
    if (b) by.set(b, [...(by.get(b) ?? []), op]);
  }
  return [...by].map(([b, ops]) => `${ops.length > 3 ? 'other writes' : ops.map(name).join('/')}: ${words[b]}`).join('; ') + `; ${OPS.filter((o) => !LET_BINDS[o]).map(name).join('/')}: nothing`;
}

/**
 * Defaults and value scales, from the vocabulary (and the engine's constants, which
 * test/agents/card.test.ts holds to this text): what a planner otherwise guesses.
 */
function defaultsSection(ir: boolean, storeTypes: readonly string[] | undefined): string {
  const words = Object.entries(WEIGHT_WORDS).map(([w, v]) => `${w} ${v}`).join(', ');
  const types = `${TYPE_SUGGESTIONS.join(', ')}${storeTypes?.length ? ` (in this store: ${storeTypes.join(', ')})` : ''}`;
  const lines = ir
    ? [
      `- Weight: 0–1, higher = more important; a record never weighed reads as 0.5. Words: ${words}. \`weight_delta\` shifts (Promote 0.3, Demote -0.2; a positive Demote delta also lowers); \`weight\` sets; Demote \`archive\` caps it at 0.1, the record stays live.`,
      '- Delete: `soft` defaults to true (recoverable). Expire: `ttl` counts from now, not the record\'s time; `on_expire` defaults to soft_delete.',
      '- `remind.rrule`: first at the next occurrence after now, at now\'s time of day unless BYHOUR/BYMINUTE say; nothing is sent. Once: `FREQ=DAILY;COUNT=1;DTSTART=20250501T010000Z` (COUNT=1 alone: never).',
      `- \`type\` is free text; usual: ${types}.`,
      `- Update \`set\` columns: ${UPDATE_COLUMNS.slice(0, 12).join(', ')}, permissions; any other key is a facet. Never: ${grouped(GOVERNED_COLUMNS)} (\`governed-column\`).`,
      `- \`"_let": "n"\` (extension) binds — ${bindings(true)}; \`{"$ref": "n"}\` stands for them in \`target.ids\` (also beside ids) and Merge \`primary_id\`.`,
    ]
    : [
      `- Weight: 0–1, higher = more important; a record never weighed reads as 0.5. Words: ${words}. \`BY d\` shifts (PROMOTE BY 0.3, DEMOTE BY -0.2; a positive DEMOTE BY also lowers); \`SET weight = 0.8\` sets; ARCHIVE caps it at 0.1, the record stays live.`,
      '- DELETE is SOFT (recoverable) unless HARD. EXPIRE: TTL counts from now, not the record\'s time; THEN defaults to soft_delete.',
      '- REMIND: first at the next occurrence after now, at now\'s time of day unless BYHOUR/BYMINUTE say; nothing is sent. Once: `REMIND 2025-05-01T09:00:00+08:00` (`COUNT=1` alone: never).',
      `- TYPE is free text; usual: ${types}.`,
      `- UPDATE SET columns: ${UPDATE_COLUMNS.slice(0, 12).join(', ')}, permissions; any other key is a facet. Never: ${grouped(GOVERNED_COLUMNS)} (\`governed-column\`).`,
      `- \`LET $n =\` binds — ${bindings(false)}. Use \`$n\` in ID, IDS (also beside ids: \`IDS $n, 4\`), INTO.`,
    ];
  return `## Defaults and values\n\n${lines.join('\n')}`;
}

/**
 * Facts (typed state, spec/semantics.md "Typed state"): write, correct, read now / AS OF /
 * KNOWN AT, HISTORY. Its statements run in test/typed-state/card-facts.test.ts.
 */
export const FACT_STATEMENTS = {
  read: 'RETRIEVE WHERE subject = s AND attribute = a',
  schema: 'ENCODE ATTRIBUTE a SCHEMA {type: "date", normalize: "trim", conflict: "confirm"}',
} as const;

/** The IR card's schema declaration (FACT_STATEMENTS.schema's args). */
const FACT_SCHEMA_IR = '{attribute, schema: {type: "date", normalize: "trim", conflict: "confirm"}}';

function factsSection(ir: boolean): string {
  const types = 'text|number|date|datetime|boolean|enum|ref';
  const text = ir
    ? `\`subject\` + \`attribute\` key a fact, its text the value, with \`confidence\` (0–1) and \`source\`; no Update: Encode anew to correct (a past \`valid_from\` corrects the past). Retrieve \`filter: {subject, attribute}\` shows value, confidence, source; + \`as_of\` (valid then), \`known_at\` (believed then), \`history\`. Declare once: Encode \`${FACT_SCHEMA_IR}\`: type ${types}; normalize trim, casefold (subjects); conflict latest (default) | confidence (a lower one fails: fact-conflict) | confirm (a change needs confirmation).`
    : `SUBJECT + ATTRIBUTE key a fact, its text the value, with CONFIDENCE (0–1) and SOURCE; no UPDATE: ENCODE anew to correct (a past VALID FROM corrects the past). \`${FACT_STATEMENTS.read}\` shows value, confidence, source; + AS OF t (valid then), KNOWN AT t (believed then), HISTORY. Declare once: \`${FACT_STATEMENTS.schema}\`: type ${types}; normalize trim, casefold (subjects); conflict latest (default) | confidence (a lower one fails: fact-conflict) | confirm (a different value needs CONFIRM).`;
  return `## Facts\n\n${text}`;
}

/** The request → statement guide, DSL statements or IR op and args. */
function guideSection(ir: boolean): string {
  const head = ir
    ? 'Target what the request names: `filter: {has_tags: [its topic words, spelt as in the store], time_range, limit}`; `ids` only from the request, a `$ref` or the store shown. A tag on only some records meant: still the tag (+ ids named). A premise the store lacks (duplicates, a person): act on the topic\'s records.'
    : 'Target what the request names: `WHERE tags HAS <its topic words, spelt as in the store> [AND time …] LIMIT n`; ids only from the request, a `$n` or the store shown. A tag on only some records meant: still the tag (+ ids named). A premise the store lacks (duplicates, a person): act on the topic\'s records.';
  const lines = GUIDE.map((g) => {
    const note = ir ? g.irNote ?? g.note : g.note;
    return `- ${g.intent} → ${ir ? `${g.ir.op} ${JSON.stringify(g.ir.args)}` : g.dsl}${note ? ` (${note})` : ''}`;
  });
  return `## Request → statement\n\n${head}\n${lines.join('\n')}`;
}

function conditionsSection(ir: boolean): string {
  const ops = Object.entries(CONDITION_OPERATORS).map(([o, c]) => {
    if (o === '=') return ir ? '`type`, `subject`, `location`, `topic` (equal), `facets: {k: v}` (each key equal)' : '`type|subject|location|topic = v`, `facets = { k: v }`';
    if (o === 'RANGE') return ir ? '`time_range: {relative: last|next, amount, unit} | {start, end}`' : '`time IN LAST|NEXT n UNIT`, `time FROM a TO b` (→ time_range)';
    return ir ? `\`${c.key}\`` : `\`${c.field} ${o} …\``;
  });
  const search = Object.entries(SEARCH_OPTIONS).map(([, s]) => (ir ? `\`${s.path.join('.')}\`` : s.example));
  return [
    ir ? '## target.filter and target.search' : '## WHERE',
    '',
    `- Conditions (AND): ${ops.join(', ')}${ir ? ', `limit`' : ', then LIMIT n'}.`,
    ir
      ? `- search: \`intent.${SEARCH_QUERY_PATH.slice(1).join('.')}\` (text), ${search.join(', ')}.`
      : `- \`search "query"\` (SEARCH) then options: ${search.join(', ')}.`,
  ].join('\n');
}

/** Enums whose value names say it all: the card lists their values without docs (spec/syntax.md keeps them). */
const TERSE_ENUMS = new Set(['stage', 'order_by', 'split_strategy', 'merge_strategy', 'split_lang', 'relative', 'read_perm_level', 'write_perm_level', 'lock_mode', 'on_expire']);

function enumsSection(ir: boolean): string {
  const lines = ['## Enum values (anything else is `invalid-enum`)', ''];
  for (const [name, e] of ENUM_LIST) {
    // The DSL card names the clause (the path when there is none), the IR card the fields.
    const where = ir ? e.paths.join(', ') : e.clause ? [e.clause, e.ops?.map((o) => VERB_OF_OP[o]).join('/')].filter(Boolean).join(', ') : e.paths[0];
    // A doc that only repeats the value ("The id.", "Days.") is left out.
    const plain = (v: string) => TERSE_ENUMS.has(name) || (/^(The|When|Where|Who)\b/.test(e.docs[v]) && e.docs[v].split(' ').length <= 4) || e.docs[v].toLowerCase() === `${v}.`;
    const docs = e.values.map((v) => (plain(v) ? `\`${v}\`` : `\`${v}\` ${e.docs[v]}`)).join(' ');
    lines.push(`- ${name} (${where}${e.default ? `; default ${e.default}` : ''}): ${docs}`);
  }
  return lines.join('\n');
}

function exclusiveSection(ir: boolean): string {
  const name = (at: string, key: string, op?: Op): string => {
    if (ir) return key;
    const path = `${at}.${key}`;
    if (op && VERB_TEXT[op]?.join('.') === path) return '"text"';
    if (path === `target.search.${SEARCH_QUERY_PATH.join('.')}`) return 'search "q"';
    const opt = Object.entries(SEARCH_OPTIONS).find(([, s]) => `target.search.${s.path.join('.')}` === path);
    if (opt) return opt[0];
    const at_ = (n: ClauseName) => (op && TABLE[n].ops?.[op]?.join('.')) || '';
    const c = CLAUSE_NAMES.find((n) => at_(n) === path) ?? CLAUSE_NAMES.find((n) => at_(n).startsWith(`${path}.`) && TABLE[n].named);
    if (c) return c;
    return `SET ${key}`;
  };
  const groups = EXCLUSIVE_GROUPS.map((g) => `${g.op ? (ir ? g.op : VERB_OF_OP[g.op]) : 'search'}: ${g.keys.map((k) => name(g.at, k, g.op)).join(' | ')}`);
  return `## At most one of\n\n${groups.join('; ')}.`;
}

/** Keywords the generated sections did not name (each with its doc): every keyword is on the card. */
function otherKeywords(text: string): string {
  const missing = KEYWORDS.filter((k) => !new RegExp(`\\b${k}\\b`).test(text));
  if (!missing.length) return '';
  return `## Other keywords\n\n${missing.map((k) => `- ${k}: ${KEYWORD_DOCS[k].summary}`).join('\n')}`;
}

function examplesSection(ir: boolean): string {
  const lines = ['## Worked examples', ''];
  for (const e of CARD_EXAMPLES) lines.push(`- ${e.request}`, `  ${ir ? JSON.stringify(e.ir) : e.dsl}`);
  return lines.join('\n');
}

/** The language card for LLMs, as Markdown: the DSL variant, or with `ir: true` the JSON-IR one. */
export function languageCard(options: CardOptions = {}): string {
  const ir = options.ir === true;
  const intro = ir
    ? '# Text2Mem JSON IR — language card\n\nOne JSON object per instruction (a list for several), these fields only. Memories: id, text, type, tags, facets, time, subject, location, topic, source, weight, expiry.'
    : '# Text2Mem DSL — language card\n\nMemory records: id, text, type, tags, facets, time, subject, location, topic, source, weight, expiry.';
  const meanings = `## Meanings, answered\n\n${MEANINGS.filter((m) => !m.specOnly).map((m) => `- ${m.q} ${ir ? m.ir : m.dsl}`).join('\n')}`;
  const parts = [
    intro, everyVerbSection(ir), verbsSection(ir), conditionsSection(ir), enumsSection(ir), exclusiveSection(ir),
    defaultsSection(ir, options.types), meanings, factsSection(ir), guideSection(ir), examplesSection(ir),
  ];
  const text = parts.join('\n\n');
  const others = ir ? '' : otherKeywords(text);
  return `${[text, others].filter(Boolean).join('\n\n')}\n`;
}

// ---------------------------------------------------------------- spec/syntax.md

export const SPEC_START = '<!-- card:start (generated by scripts/gen-card.ts from src/agents/card.ts and src/language) -->';
export const SPEC_END = '<!-- card:end -->';

const cell = (s: string) => s.replace(/\|/g, '\\|');

/** spec/syntax.md's section between the markers: the meanings answered (with their sources) and every enum value. */
export function syntaxSection(): string {
  const lines = [
    'What the engine does where a reading could go two ways (the same answers are on the language',
    'card, `t2m prompt`; each names where the engine decides it):',
    '',
    ...MEANINGS.map((m) => `- **${m.q}** ${m.dsl} (${m.source})`),
    '',
    '### Enum values',
    '',
    '| enum | IR field | clause | value | meaning | default |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const [name, e] of ENUM_LIST) {
    e.values.forEach((v, i) => {
      const first = i === 0;
      const clause = [e.clause, e.ops?.map((o) => VERB_OF_OP[o]).join(', ')].filter(Boolean).join(' in ');
      lines.push(`| ${first ? name : ''} | ${first ? e.paths.map((p) => `\`${p}\``).join(', ') : ''} | ${first ? cell(clause) : ''} | \`${v}\` | ${cell(e.docs[v])} | ${first ? cell(e.default ?? '') : ''} |`);
    });
  }
  return lines.join('\n');
}
