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
  CLAUSES, CONDITION_OPERATORS, ENUMS, EXCLUSIVE_GROUPS, KEYWORDS, KEYWORD_DOCS, OPS, SEARCH_OPTIONS, SEARCH_QUERY_PATH, STAGE_OF,
  VERB_DOCS, VERB_OF_OP, VERB_TEXT, type ClauseName, type ClauseSpec, type EnumSpec, type Op,
} from '../language/index.js';

export interface CardOptions {
  /** The JSON-IR variant: fields instead of clauses, IR examples (for models that emit JSON). */
  readonly ir?: boolean;
}

/** The card's size limit, in characters (a system prompt shares its context with the request). */
export const CARD_MAX_CHARS = 12_000;

// ---------------------------------------------------------------- hand-written facts

/**
 * What the engine does where the reference leaves a reading open: each answer as found in the
 * engine (the source named in brackets, for maintainers; the card prints only the text).
 * Shared with spec/syntax.md's "Meanings, answered" section.
 */
export const MEANINGS: ReadonlyArray<{ readonly q: string; readonly dsl: string; readonly ir: string; readonly source: string }> = [
  {
    q: '`tags HAS "a", "b"`: all or any?',
    dsl: 'ALL (exact, case-sensitive). `tags NOT HAS`: none of them. No any-of: one statement per tag, or `search`.',
    ir: '`has_tags: ["a","b"]` = ALL of them (exact, case-sensitive). `not_tags` = none of them. There is no any-of: one statement per tag, or a search.',
    source: 'src/lower/target.ts filter; src/compile/index.ts filterWhere (one hasTag per tag)',
  },
  {
    q: 'Ids: does `ID "1"` match the record whose id is 1?',
    dsl: 'Yes: ids are positive integers, 1, 2, 3… in ENCODE order; `ID 1`, `ID "1"`, `ID "001"` are one record; anything else is `bad-id`. Ids act in ascending order.',
    ir: 'Yes. Ids are positive integers assigned 1, 2, 3… in Encode order; `1`, `"1"` and `"001"` are the same record, anything else is the error `bad-id`. Ids act in ascending id order.',
    source: 'src/lower/lowerer.ts ids(); src/compile/index.ts orderBy',
  },
  {
    q: 'Does SUMMARIZE store anything?',
    dsl: 'No: like RETRIEVE it changes nothing; it returns an extractive summary (sentences picked by FOCUS within MAX n TOKENS, default 256; no LLM). To keep it, ENCODE it later.',
    ir: 'No. Summarize (like Retrieve) changes nothing: it returns an extractive summary (sentences picked by `focus`, within `max_tokens`, default 256; no LLM). To keep it, Encode the text afterwards.',
    source: 'src/execute/verbs/summarize.ts; spec/semantics.md Verbs',
  },
  {
    q: 'What does `INTO "auto"` mean?',
    dsl: 'The first selected record (also without INTO): lowest id for IDS, newest `time` for a filter, best match for a search.',
    ir: '`primary_id: "auto"` (or none) = the first selected record: the lowest id for `ids`, the newest `time` for a filter, the best match for a search.',
    source: 'src/lower/verbs.ts Merge; src/execute/verbs/merge.ts',
  },
  {
    q: '"last month": calendar month or rolling window?',
    dsl: 'Rolling: `time IN LAST 1 MONTHS` is from one calendar month before now to the end of today (UTC; MINUTES, HOURS end now); `NEXT n` starts now. Units are plural. A calendar month: `time FROM 2025-04-01T00:00:00Z TO 2025-04-30T23:59:59Z`.',
    ir: 'Rolling. `{relative: "last", amount: 1, unit: "months"}` runs from one calendar month before now to the end of today (UTC; minutes/hours end now); `next` runs from now on. A calendar month is `{start, end}`.',
    source: 'src/lower/target.ts timeRange; src/lower/time.ts addDuration',
  },
  {
    q: 'What may SPLIT `params` contain?',
    dsl: '`SET params = {…}`: only the entry named by STRATEGY is read: `by_sentences: {max_sentences (default 1), lang (unused)}`, `by_chunks: {chunk_size (chars, >= 50) | num_chunks (default 2)}`, `custom: {max_splits}` (cuts at headings, paragraphs or lines). Other keys do nothing. `SET inherit_all = false` copies only type and time; `keep_source = true` keeps the source.',
    ir: 'Only the entry named by `strategy` is read: `by_sentences: {max_sentences (default 1), lang (unused)}`, `by_chunks: {chunk_size (>= 50) | num_chunks (default 2)}`, `custom: {max_splits}` (headings, else paragraphs, else lines; `instruction` unused). Other keys do nothing. `inherit_all` (default true), `keep_source` (default false).',
    source: 'src/lower/verbs.ts splitRule; src/execute/verbs/split.ts',
  },
  {
    q: 'Which records does a LIMIT keep?',
    dsl: 'The first n in order: a filter is newest first (`DELETE WHERE … LIMIT 5` deletes the 5 newest); ORDER BY exists only after `search`. No LIMIT: a filter takes all, a search 10.',
    ir: 'The first n in order: a filter is newest first (so a write with `limit: 5` hits the 5 newest); `order_by` exists only under `search`. A filter without `limit` takes every match; a search keeps 10 unless `k`/`limit`.',
    source: 'src/lower/target.ts selection; src/compile/index.ts compileTargetSelect',
  },
  {
    q: 'Unknown fields',
    dsl: '`status = "x"` cannot be applied (a write is refused: `unknown-condition`): invented fields are facets, `WHERE facets.status = "x"`; UPDATE `SET status = "x"` writes that facet.',
    ir: 'A filter key the engine does not know (`status`) cannot be applied: a write is refused (`unknown-condition`). Invented fields are facets: `filter.facets: {status: "x"}`. Update `set.status` writes the facet `status`.',
    source: 'src/lower/ignored.ts; src/lower/verbs.ts lowerUpdate',
  },
];

/** One word, several meanings (beyond what the per-verb clause list already shows). */
const HOMONYMS_DSL = [
  '`SET k = v` writes `args.set.k` in UPDATE (the record\'s fields) but `args.k` in every other verb (`PROMOTE … SET weight 0.9`).',
  '`MODE`, `STRATEGY`: each verb has its own values (see Enum values). `UNTIL`: PROMOTE\'s ends the REMIND rule; EXPIRE\'s is the expiry time.',
  '`LIMIT` right after `search "…"` (and its options) is the search\'s; after the last condition it is the filter\'s. One limit applies (K, else the search\'s, else the filter\'s).',
  'A condition is `field = v` only for type, subject, attribute, location, topic and `facets = { k: v }`; anything else is a facet.',
];
const HOMONYMS_IR = [
  '`args.set.k` is Update\'s only argument; other verbs take `args.k` directly (Promote `args.weight`).',
  '`args.mode`, `args.strategy`: each op has its own values. `until`: Promote `args.remind.until` ends the reminder; Expire `args.until` is the expiry time.',
  'One limit applies: `search.overrides.k`, else `search.limit`, else `filter.limit`.',
  'Filter keys are fixed (see conditions); invented fields are `filter.facets`.',
];

/** Requests, including those with no verb of their own: only what the engine really does. */
const INTENTS_DSL = [
  'remember / note / save → ENCODE "text" TYPE … TAGS … (TIME needs an offset: 2025-04-10T15:30:00+08:00).',
  'change / correct / mark done → UPDATE ID … SET text = "…", status = "done" (non-column keys become facets).',
  'tag / categorise / link two memories → LABEL IDS "1", "2" TAGS "project:x" or FACETS { related_to: "12" } (no link verb: shared tags or facets relate records).',
  'important / pin → PROMOTE … SET weight 0.9 (or BY 0.1); unimportant → DEMOTE … BY -0.2 or ARCHIVE.',
  'remind me / notify → PROMOTE ID … REMIND "FREQ=WEEKLY;BYDAY=MO" UNTIL t: the rule and its next time are stored on the memory; nothing is sent (the host polls them).',
  'combine / dedupe → MERGE IDS … INTO "id". break up → SPLIT … STRATEGY by_sentences.',
  'protect / freeze → LOCK … MODE read_only (or POLICY { deny: [Delete] }).',
  'forget later / temporary → EXPIRE … TTL P7D THEN soft_delete. forget now → DELETE … SOFT (HARD is permanent).',
  'a changing fact → ENCODE "v" SUBJECT s ATTRIBUTE a VALID FROM t (supersedes the old one); a past value → RETRIEVE … AS OF t.',
  'act on what an earlier statement made → LET $n = ENCODE …; EXPIRE ID $n TTL P7D; ($n: ENCODE\'s new id, SPLIT\'s pieces, MERGE\'s primary, a write\'s affected ids, RETRIEVE\'s rows; use in ID, IDS, INTO).',
  'find / recall → RETRIEVE WHERE search "…" or tags HAS …; digest → SUMMARIZE (stores nothing).',
  'bulk change → WHERE … LIMIT n (a write without LIMIT warns); everything → ALL with CONFIRM or DRY RUN.',
];
// The verbs are the ops and the IR examples show the fields; a statement reference is spelt as the IR extension.
const INTENTS_IR = INTENTS_DSL.map((s) => (s.startsWith('act on what') ? 'act on what an earlier statement made → `"_let": "n"` on that statement, then `{"$ref": "n"}` in a later `target.ids` or Merge `args.primary_id` (text2mem extension; same ids as LET in the DSL).' : s));

/** Worked examples: a request and the DSL that does it. Each runs on a store seeded with EXAMPLE_SEED. */
export interface CardExample {
  readonly request: string;
  readonly dsl: string;
  /** The IR of `dsl` (test/agents/card.test.ts checks it equals what the converter gives). */
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
    request: 'Remember that the Q2 review is on May 5 at 10:00 Beijing time, tag it work.',
    dsl: 'ENCODE "Q2 review meeting" TYPE event TAGS "work", "review" TIME 2025-05-05T10:00:00+08:00;',
    ir: { stage: 'ENC', op: 'Encode', args: { payload: { text: 'Q2 review meeting' }, type: 'event', tags: ['work', 'review'], time: '2025-05-05T10:00:00+08:00' } },
  },
  {
    request: 'Mark the rent task as done.',
    dsl: 'UPDATE ID "3" SET status = "done";',
    ir: { stage: 'STO', op: 'Update', target: { ids: '3' }, args: { set: { status: 'done' } } },
  },
  {
    request: 'Which standups are still open?',
    dsl: 'RETRIEVE WHERE tags HAS "standup" AND facets = { status: "open" } LIMIT 10 INCLUDE id, text;',
    ir: { stage: 'RET', op: 'Retrieve', target: { filter: { has_tags: ['standup'], facets: { status: 'open' }, limit: 10 } }, args: { include: ['id', 'text'] } },
  },
  {
    request: 'Remind me about the rent every month on the 1st until the end of the year.',
    dsl: 'PROMOTE ID "3" REMIND "FREQ=MONTHLY;BYMONTHDAY=1" UNTIL 2025-12-31T23:59:59Z;',
    ir: { stage: 'STO', op: 'Promote', target: { ids: '3' }, args: { remind: { rrule: 'FREQ=MONTHLY;BYMONTHDAY=1', until: '2025-12-31T23:59:59Z' } } },
  },
  {
    request: 'Combine the standup notes into the first one.',
    dsl: 'MERGE IDS "1", "2" INTO "1" STRATEGY merge_into_primary;',
    ir: { stage: 'STO', op: 'Merge', target: { ids: ['1', '2'] }, args: { primary_id: '1', strategy: 'merge_into_primary' } },
  },
  {
    request: 'Nobody may change or delete the API notes.',
    dsl: 'LOCK WHERE tags HAS "api" LIMIT 50 MODE read_only REASON "audit";',
    ir: { stage: 'STO', op: 'Lock', target: { filter: { has_tags: ['api'], limit: 50 } }, args: { mode: 'read_only', reason: 'audit' } },
  },
  {
    request: 'Todos should disappear a week from now.',
    dsl: 'EXPIRE WHERE tags HAS "todo" LIMIT 100 TTL P7D THEN soft_delete;',
    ir: { stage: 'STO', op: 'Expire', target: { filter: { has_tags: ['todo'], limit: 100 } }, args: { ttl: 'P7D', on_expire: 'soft_delete' } },
  },
  {
    request: 'What did we say about deploying? Newest first, top 3.',
    dsl: 'RETRIEVE WHERE search "deploy" ORDER BY time_desc LIMIT 3 INCLUDE id, text, time;',
    ir: { stage: 'RET', op: 'Retrieve', target: { search: { intent: { query: 'deploy' }, overrides: { order_by: 'time_desc' }, limit: 3 } }, args: { include: ['id', 'text', 'time'] } },
  },
  {
    request: 'Summarise the standups from the last month.',
    dsl: 'SUMMARIZE WHERE tags HAS "standup" AND time IN LAST 1 MONTHS LIMIT 20 FOCUS "deploy status" MAX 80 TOKENS;',
    ir: {
      stage: 'RET', op: 'Summarize', target: { filter: { has_tags: ['standup'], time_range: { relative: 'last', amount: 1, unit: 'months' }, limit: 20 } },
      args: { focus: 'deploy status', max_tokens: 80 },
    },
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

/** How a clause is written, with a placeholder for its value. */
function written(name: ClauseName, op: Op | undefined, path: string): string {
  const s = TABLE[name];
  const en = enumAt(path, op);
  switch (s.shape) {
    case 'flag': return name;
    case 'max-tokens': return 'MAX n TOKENS';
    case 'older-than': return 'OLDER THAN P30D';
    case 'within': return 'WITHIN LAST 7 DAYS';
    case 'list': return en ? `${name} ${en[1].values.slice(0, 3).join(', ')}` : `${name} "a", "b"`;
    default:
      if (en) return `${name} ${values(en[1])}`;
      if (name === 'REMIND') return 'REMIND "FREQ=…"';
      if (name === 'BY') return 'BY 0.1';
      if (name === 'TTL') return 'TTL P7D';
      if (['TIME', 'UNTIL', 'AT'].includes(name)) return `${name} <datetime>`;
      if (['FACETS', 'PAYLOAD', 'POLICY', 'STRUCTURED'].includes(name)) return `${name} {…}`;
      return `${name} v`;
  }
}

function clausesOf(op: Op, ir: boolean): string[] {
  const out: string[] = [];
  const text = VERB_TEXT[op];
  if (text) out.push(ir ? `${text.join('.')}` : `"text" → ${text.join('.')}`);
  for (const name of CLAUSE_NAMES) {
    const p = TABLE[name].ops?.[op];
    if (!p) continue;
    const path = p.join('.');
    const s = TABLE[name];
    if (ir) {
      const en = enumAt(path, op);
      const v = s.shape === 'flag' ? `=${String(s.value)}` : en ? `: ${values(en[1])}` : '';
      if (!out.some((o) => o.startsWith(path + ':') || o === path)) out.push(`${path}${v}`);
      else if (s.shape === 'flag') out[out.findIndex((o) => o.startsWith(path))] += `|${String(s.value)}`;
    } else {
      out.push(`${written(name, op, path)} → ${path}${s.shape === 'flag' ? `=${String(s.value)}` : ''}`);
    }
  }
  if (op === 'Update') out.push(ir ? 'args.set: {field: value, …}' : 'SET k = v, … → args.set.k');
  return out;
}

function verbsSection(ir: boolean): string {
  const lines = [ir ? '## Ops and their args' : '## Verbs and their clauses', ''];
  for (const op of OPS) {
    const head = ir ? `- **${op}** (stage ${STAGE_OF[op]})` : `- **${VERB_OF_OP[op]}** (${STAGE_OF[op]})`;
    lines.push(`${head}: ${verbDoc(op)}`);
    const cl = clausesOf(op, ir);
    if (cl.length) lines.push(`  ${cl.join('; ')}`);
  }
  return lines.join('\n');
}

function everyVerbSection(ir: boolean): string {
  if (ir) {
    return [
      '## Every instruction',
      '',
      '`{stage, op, target, args, meta}`; stage = the op\'s stage. target is ONE of `ids` (id or list), `filter`, `search` (a search may add a `filter`), `all: true`.',
      `meta: ${CLAUSE_NAMES.filter((n) => TABLE[n].path?.[0] === 'meta').map((n) => `${TABLE[n].path!.join('.')}`).join(', ')}. ` +
        'A write over `all` needs `meta.confirmation` or `meta.dry_run`. Any other arg goes in `args` as is.',
    ].join('\n');
  }
  const targets = CLAUSE_NAMES.filter((n) => TABLE[n].shape === 'target').map((n) => (n === 'ID' ? 'ID v' : n === 'IDS' ? 'IDS v, v' : n === 'WHERE' ? 'WHERE cond AND cond … [LIMIT n]' : n));
  const meta = CLAUSE_NAMES.filter((n) => TABLE[n].path && TABLE[n].shape !== 'target').map((n) => `${written(n, undefined, TABLE[n].path!.join('.'))} → ${TABLE[n].path!.join('.')}`);
  return [
    '## Every statement',
    '',
    '`VERB ["text"] clause* ;` — clauses in any order; keywords are case-insensitive, enum values case-sensitive (lower-case, as listed). Datetimes need an offset (`2025-04-10T15:30:00+08:00`); durations are ISO-8601 (`P7D`, `PT2H`).',
    `- Target, exactly one: ${targets.join(' | ')} (a search may be AND-ed with conditions). A write over ALL needs CONFIRM or DRY RUN.`,
    `- Any verb: ${meta.join('; ')}; \`SET k = v\` (any arg), \`WITH a.b = v\` (any IR path).`,
  ].join('\n');
}

function conditionsSection(ir: boolean): string {
  const ops = Object.entries(CONDITION_OPERATORS).map(([o, c]) => {
    if (o === '=') return ir ? '`type`, `subject`, `location`, `topic` (equal), `facets: {k: v}` (each key equal)' : '`type|subject|location|topic = v`, `facets = { k: v }` (=)';
    if (o === 'RANGE') return ir ? '`time_range: {relative: last|next, amount, unit} | {start, end}`' : '`time IN LAST|NEXT n UNIT`, `time FROM a TO b` (→ time_range)';
    return ir ? `\`${c.key}\`` : `\`${c.field} ${o} …\` (→ ${c.key})`;
  });
  const search = Object.entries(SEARCH_OPTIONS).map(([name, s]) => (ir ? `\`${s.path.join('.')}\`` : `${s.example} (→ ${s.path.join('.')})`));
  return [
    ir ? '## target.filter and target.search' : '## WHERE',
    '',
    `- Conditions (AND): ${ops.join(', ')}${ir ? ', `limit`' : ', then LIMIT n'}.`,
    ir
      ? `- search: \`intent.${SEARCH_QUERY_PATH.slice(1).join('.')}\` (text), ${search.join(', ')}.`
      : `- \`search "query"\` (SEARCH) then options: ${search.join(', ')} (paths under target.search).`,
  ].join('\n');
}

function enumsSection(): string {
  const lines = ['## Enum values (anything else is `invalid-enum`)', ''];
  for (const [name, e] of ENUM_LIST) {
    const where = [e.clause, e.ops ? e.ops.map((o) => VERB_OF_OP[o]).join('/') : undefined].filter(Boolean).join(', ');
    // A doc that only repeats the value ("The id.") is left out.
    const docs = e.values.map((v) => (/^(The|When|Where|Who)\b/.test(e.docs[v]) && e.docs[v].split(' ').length <= 4 ? `\`${v}\`` : `\`${v}\` ${e.docs[v]}`)).join(' ');
    lines.push(`- ${name} (${e.paths.join(', ')}${where ? `; ${where}` : ''}${e.default ? `; default ${e.default}` : ''}): ${docs}`);
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
    ? '# Text2Mem JSON IR — language card\n\nWrite one JSON object per instruction (a list for several), exactly these fields. Memories are records with id, text, type, tags, facets, time, subject, location, topic, source, weight and expiry.'
    : '# Text2Mem DSL — language card\n\nStatements act on a store of memory records (id, text, type, tags, facets, time, subject, location, topic, source, weight, expiry).';
  const body = [
    intro,
    everyVerbSection(ir),
    verbsSection(ir),
    conditionsSection(ir),
    enumsSection(),
    exclusiveSection(ir),
  ].join('\n\n');
  const meanings = `## Meanings, answered\n\n${MEANINGS.map((m) => `- ${m.q} ${ir ? m.ir : m.dsl}`).join('\n')}`;
  const homonyms = `## One word, several meanings\n\n${(ir ? HOMONYMS_IR : HOMONYMS_DSL).map((s) => `- ${s}`).join('\n')}`;
  const intents = `## Request → ${ir ? 'op' : 'verb'}\n\n${(ir ? INTENTS_IR : INTENTS_DSL).map((s) => `- ${s}`).join('\n')}`;
  const parts = [body, meanings, homonyms, intents, examplesSection(ir)];
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
