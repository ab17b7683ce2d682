/**
 * Text2Mem as an MCP server (`t2m mcp`; spec/security.md for the identity model): tools `run`,
 * `check`, `explain`, `retrieve`, `feedback` (and `plan` when a model is configured) on one store,
 * and resources for the language card (DSL and IR) and the store's vocabulary. Transport-free:
 * the CLI connects it over stdio, or one per HTTP request (./http.ts); tests may connect it
 * in-process. Any store: SQLite answers at once, PostgreSQL after an await.
 *
 * Identity: the session's actor, tenant, clock and impersonation come from the configuration
 * (over HTTP: the request's bearer token), never from the script or the tool arguments: every
 * call runs as `actor` in `tenant`, and a script whose `AS` names someone else is refused by the
 * engine (`actor-mismatch`) unless `impersonate` was configured. Each tool call is its own
 * transaction on the store (one `Session` operation, rerun by the session when PostgreSQL aborts
 * it for a serialization failure), so other processes can write to the store between calls.
 *
 * Results: compact JSON text content plus the same value as `structuredContent` (each tool
 * declares its `outputSchema`). Rows and change images carry the user-facing fields only, and a
 * record without a weight of its own shows the default weight the ranking uses. A refused
 * script, an unreadable input or a store error is a tool result with `isError: true` and its
 * diagnostics; nothing a client sends stops the server.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { languageCard } from '../agents/card.js';
import { plan, type PlanMode } from '../agents/planner.js';
import type { ChatProvider } from '../agents/provider.js';
import { type Diagnostic, hasErrors } from '../diagnostics/diagnostic.js';
import { DEFAULT_LIMITS, Session, type AnySqlDriver, type Limits, type RunResult, type StatementResult, type Store } from '../engine/index.js';
import { INCLUDE_FIELDS, type IR } from '../ir/schema.js';
import { BASE_WEIGHT, DEFAULT_INCLUDE, FACT_INCLUDE } from '../lower/index.js';
import { readInput, type Policy } from '../pipeline.js';
import { attributeSchemasAsync, vocabularyAsync } from '../agents/store-terms.js';

/** A configured model for the `plan` tool (src/agents/planner.ts). */
export interface McpPlanner {
  readonly provider: ChatProvider;
  /** What the model writes: DSL (default) or JSON IR. */
  readonly mode?: PlanMode;
  /** Answers asked of the model in all (default the planner's, 3). */
  readonly maxRounds?: number;
}

/** One finished tool call, for the server's log (no payload: no script, no values). */
export interface McpCall {
  readonly tool: string;
  /** Statements the call ran or checked (1 for retrieve and feedback). */
  readonly statements: number;
  readonly ms: number;
  /** `ok`; `refused` (an error result: diagnostics, nothing changed); `error` (an exception). */
  readonly outcome: 'ok' | 'refused' | 'error';
}

export interface McpServerOptions {
  /** Any store: an SQLite file or memory, PGlite, a PostgreSQL server. */
  readonly store: Store<AnySqlDriver>;
  /** The session's identity: every tool call acts as this actor. */
  readonly actor: string;
  /** The session's tenant (default `default`): every call reads and writes only its records. */
  readonly tenant?: string;
  /** Privileged: a fixed clock (default: the real time at each call). */
  readonly now?: Date | string;
  /** Privileged: let a script's `AS` act as that actor (trusted scripts only). */
  readonly impersonate?: boolean;
  /** The checker policy for `run`, `explain` and `check` (default `default`). */
  readonly policy?: Policy;
  /**
   * The caller's resource limits (as `t2m run --max-*`) on every call: `run`, `explain`,
   * `retrieve` and `plan`'s dry run read at most `maxRows` rows per statement, and the vocabulary
   * resource lists at most `maxRows` values of each kind.
   */
  readonly limits?: Limits;
  /** When given, the `plan` tool is offered (it never runs the plan: the agent calls `run`). */
  readonly planner?: McpPlanner;
  /**
   * Turns an exception the store driver threw (a busy or read-only file, a lost connection) into a
   * diagnostic; an exception it does not recognise is a bug and becomes the SDK's generic tool error.
   */
  readonly storeError?: (e: unknown) => Diagnostic | undefined | null;
  /** Called once per tool call when it has finished (the HTTP server logs it). */
  readonly onCall?: (call: McpCall) => void;
  /**
   * Runs each write's transaction (`run` without dry_run, `feedback`). The HTTP server passes a
   * queue per tenant: on a store many requests share, the writes of one tenant update the same
   * keyword statistics, so PostgreSQL would let one commit and abort the others to be rerun; in
   * a queue they take turns instead. Reads never wait for it.
   */
  readonly exclusive?: <T>(write: () => Promise<T>) => Promise<T>;
  /** Given each tool call's promise as it starts (the HTTP server waits for them before it lets a store go). */
  readonly track?: (call: Promise<unknown>) => void;
  /** The server's version, as reported to clients. */
  readonly version?: string;
}

// ---------------------------------------------------------------- schemas

// Loose where a client needs no more to act (tools/list carries every schema, once per tool).
const Position = z.looseObject({ line: z.number(), column: z.number() });
const Range = z.looseObject({ start: Position, end: Position });
const DiagnosticSchema = z.looseObject({
  code: z.string(),
  severity: z.enum(['error', 'warning', 'info']),
  message: z.string(),
  range: Range.optional(),
  path: z.string().optional(),
  statement: z.number().optional(),
  fix: z.looseObject({ message: z.string(), edits: z.array(z.looseObject({ newText: z.string() })) }).optional(),
}).describe('a problem found in the script; `fix`, when present, is a mechanical edit of the script text that repairs it');
const Diagnostics = z.array(DiagnosticSchema);
const Row = z.record(z.string(), z.unknown());
const StatementSchema = z.looseObject({
  index: z.number(),
  op: z.string(),
  ids: z.array(z.number()),
  rows: z.array(Row).optional(),
  scores: z.record(z.string(), z.number()).optional(),
  summary: z.string().optional(),
  changes: z.array(z.object({ id: z.number(), before: Row.nullable(), after: Row.nullable() })),
  dryRun: z.boolean(),
  refused: z.looseObject({ code: z.string(), message: z.string() }).optional().describe('dry run: the refusal this statement would meet'),
  sql: z.array(z.object({ sql: z.string(), params: z.unknown() })).optional(),
});

const Script = z.string().describe('a Text2Mem script: DSL text (statements ending in `;`, see the resource text2mem://card) or IR JSON (an object, an array of objects, or JSONL)');

const RunOutput = {
  ok: z.boolean().describe('true when the script committed (or, for a dry run, would have)'),
  results: z.array(StatementSchema).describe('one entry per statement: ids written or read, rows (Retrieve), summary (Summarize), changes (before/after of each record written)'),
  diagnostics: Diagnostics.describe('errors (the script changed nothing) and warnings'),
};

const CheckOutput = {
  ok: z.boolean().describe('true when the script has no errors'),
  kind: z.enum(['dsl', 'json-object', 'json-array', 'jsonl']),
  statements: z.number(),
  diagnostics: Diagnostics,
  ir: z.array(z.record(z.string(), z.unknown())).describe('the IR of the statements that validated'),
};

const DateTime = z.string().min(1);

const RetrieveInput = {
  query: z.string().min(1).optional().describe('search text: records are ranked by relevance to it (keywords and meaning); without it, the most recent matching records come first'),
  tags: z.array(z.string().min(1)).optional().describe('only records carrying every one of these tags'),
  type: z.string().min(1).optional().describe('only records of this type (e.g. note, task, event)'),
  subject: z.string().min(1).optional().describe('only records about this subject (for facts: the entity, e.g. "mira"; trimmed or case-folded as the attribute\'s schema declares)'),
  attribute: z.string().min(1).optional().describe('only facts of this attribute (e.g. "passport_deadline"); with subject, the current value of that fact'),
  as_of: DateTime.optional().describe('ISO-8601 date-time: read facts as they held at that instant (valid time), e.g. 2026-06-02T00:00:00Z'),
  known_at: DateTime.optional().describe('ISO-8601 date-time: read what the store knew at that instant (transaction time), leaving out what was written or corrected later'),
  history: z.boolean().optional().describe('true: every version of each fact, superseded ones included, instead of the current one'),
  limit: z.number().int().min(1).max(1000).optional().describe('at most this many records (default 10)'),
  include: z.array(z.enum(INCLUDE_FIELDS)).optional().describe(`the fields each row shows (id is always shown); default: ${DEFAULT_INCLUDE.join(', ')}; with attribute or history: ${FACT_INCLUDE.join(', ')}`),
};

const RetrieveOutput = {
  ok: z.boolean(),
  ids: z.array(z.number()).describe('the records found, best first'),
  rows: z.array(Row).describe(`one per record, the fields asked for; a record with no weight of its own shows the default, ${BASE_WEIGHT}`),
  scores: z.record(z.string(), z.number()).optional().describe('with a query: relevance per id (higher is better)'),
  diagnostics: Diagnostics,
};

const FeedbackInput = {
  reward: z.number().min(0).max(1).describe('the outcome of using these memories: 1 success, 0 failure, or a process reward between; it moves their learned utility (a running mean), not their weight'),
  ids: z.array(z.number().int().positive()).optional().describe('ids of memories that were used (e.g. returned by retrieve)'),
  episode: z.number().int().positive().optional().describe('the id of an episode record (a whole past task) whose reuse led to this outcome'),
  turn: z.number().int().positive().optional().describe('the id of a turn record (one past step) whose reuse led to this outcome'),
  reason: z.string().min(1).optional().describe('why, kept in the audit log'),
};

const FeedbackOutput = {
  ok: z.boolean().describe('true when every record took the reward'),
  records: z.array(z.object({ id: z.number(), utility: z.number().nullable(), utility_n: z.number().nullable(), level: z.string().nullable() }))
    .describe('each rewarded record\'s utility after the reward and how many rewards it has had'),
  diagnostics: Diagnostics,
};

const PlanOutput = {
  ok: z.boolean().describe('true when the script checked and its dry run succeeded'),
  dsl: z.string().describe('the planned script (DSL), to review and pass to `run`'),
  ir: z.array(z.record(z.string(), z.unknown())),
  attempts: z.number().describe('how many answers the model gave (repair rounds included)'),
  diagnostics: Diagnostics,
  dryRun: z.array(StatementSchema).optional().describe('what the script would do, per statement'),
};

const VOCABULARY_URI = 'text2mem://vocabulary';
const FACTS_URI = 'text2mem://facts';
const CARD_URI = 'text2mem://card';
const CARD_IR_URI = 'text2mem://card-ir';

// The cards are the same for every server (one per HTTP request): made once.
const cards: { dsl?: string; ir?: string } = {};
const dslCard = () => (cards.dsl ??= languageCard());
const irCard = () => (cards.ir ??= languageCard({ ir: true }));

// ---------------------------------------------------------------- results

/** A result as plain JSON (dropping undefined; the driver's bigints as numbers). */
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))) as T;
}

function result(value: Record<string, unknown>, isError = false): CallToolResult {
  const structured = plain(value);
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured, ...(isError ? { isError: true } : {}) };
}

/**
 * Columns an agent has no use for: vectors, derived search text, and the engine's bookkeeping
 * (which model embedded the text, the run and statement that wrote it, the caller's own tenant;
 * provenance is what `why` and the audit log are for).
 */
const INTERNAL = new Set(['embedding', 'embedding_f32', 'search_text', 'embedding_model', 'trace_id', 'statement_index', 'tenant']);
/** A row or image with the user-facing fields only; a record with no weight of its own shows the default the ranking uses. */
function shown(row: Readonly<Record<string, unknown>> | null | undefined, dropNulls = false): Record<string, unknown> | null {
  if (!row) return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    if (INTERNAL.has(k)) continue;
    if (k === 'weight' && v === null) out[k] = BASE_WEIGHT;
    else if (!(dropNulls && v === null)) out[k] = v;
  }
  return out;
}
function statement(r: StatementResult, withSql: boolean): Record<string, unknown> {
  const { sql, warnings: _warnings, provenance: _provenance, ...rest } = r;
  return {
    ...rest,
    ...(r.rows ? { rows: r.rows.map((row) => shown(row)) } : {}),
    // A new record's image lists the fields it has (an Encode sets a few of forty).
    changes: r.changes.map((c) => ({ id: c.id, before: shown(c.before), after: shown(c.after, c.before === null) })),
    ...(withSql ? { sql } : {}),
  };
}

/**
 * One diagnostic per slip: the checker and the engine may both report the same key (a warning
 * the checker gives is given again by lowering); the first of a statement's reports at one path
 * is kept.
 */
function once(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    if (d.path === undefined) return true;
    const key = `${d.statement ?? ''}\u0000${d.severity}\u0000${d.path}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// ---------------------------------------------------------------- server

export function createMcpServer(options: McpServerOptions): McpServer {
  const { store, actor } = options;
  const server = new McpServer(
    { name: 'text2mem', version: options.version ?? '0.0.0' },
    {
      instructions: [
        `Text2Mem memory store. You act as '${actor}'; scripts cannot change that (an AS clause naming anyone else is refused).`,
        'Read the resource text2mem://card for the language, text2mem://vocabulary for the tags, types and subjects in use.',
        'Use `retrieve` for a lookup, `feedback` to report how remembered experience worked out, `check` to validate a script (diagnostics carry fixes), `explain` to see what it would do, `run` to execute it as one transaction.',
      ].join(' '),
    },
  );
  const now = (): Date => (options.now === undefined ? new Date() : new Date(options.now));
  const session = () => new Session(store, {
    actor, tenant: options.tenant, now: now(), impersonate: options.impersonate === true, policy: options.policy, limits: options.limits,
  });

  const write = <T>(fn: () => Promise<T>): Promise<T> => (options.exclusive ? options.exclusive(fn) : fn());

  /**
   * Runs a tool: times it and logs it, and turns a store exception (busy, read-only, a lost
   * connection) into an error result; an exception not recognised is the SDK's generic error.
   */
  const tool = (name: string, fn: (count: (n: number) => void) => CallToolResult | Promise<CallToolResult>): Promise<CallToolResult> => {
    const started = performance.now();
    let statements = 0;
    const done = (outcome: McpCall['outcome']) => options.onCall?.({ tool: name, statements, ms: Math.round((performance.now() - started) * 10) / 10, outcome });
    const call = (async () => {
      try {
        const r = await fn((n) => (statements = n));
        done(r.isError ? 'refused' : 'ok');
        return r;
      } catch (e) {
        const d = options.storeError?.(e);
        done('error');
        if (!d) throw e;
        return result({ ok: false, results: [], diagnostics: [d] }, true);
      }
    })();
    options.track?.(call);
    return call;
  };

  const execute = async (script: string, dryRun: boolean, withSql: boolean, count: (n: number) => void): Promise<CallToolResult> => {
    const input = readInput(script, { policy: options.policy, maxTextLength: options.limits?.maxTextLength });
    count(input.statements);
    if (!input.checked || hasErrors(input.diagnostics)) return result({ ok: false, results: [], diagnostics: once(input.diagnostics) }, true);
    const s = session();
    const checked = input.checked;
    const outcome: RunResult = await (dryRun ? s.explain(checked) : write(async () => s.run(checked)));
    return result({ ok: outcome.ok, results: outcome.results.map((r) => statement(r, withSql)), diagnostics: once(outcome.diagnostics) }, !outcome.ok);
  };

  server.registerTool('run', {
    title: 'Run a Text2Mem script',
    description: `Execute a script as one transaction, as actor '${actor}'. If any statement is refused (a lock, a permission, a missing confirmation, a bad input) nothing changes and the result is an error with diagnostics. dry_run: report what it would do, change nothing.`,
    inputSchema: { script: Script, dry_run: z.boolean().optional().describe('true: plan only, change nothing (the result shows the SQL and the ids it would affect)') },
    outputSchema: RunOutput,
    annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
  }, ({ script, dry_run }) => tool('run', (count) => execute(script, dry_run === true, dry_run === true, count)));

  server.registerTool('explain', {
    title: 'Explain a Text2Mem script',
    description: 'What the script would do, without changing anything: per statement the SQL, the ids it would affect and the changes, and any refusal.',
    inputSchema: { script: Script },
    outputSchema: RunOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, ({ script }) => tool('explain', (count) => execute(script, true, true, count)));

  server.registerTool('check', {
    title: 'Check a Text2Mem script',
    description: 'Validate and check a script without running it: diagnostics with line:column ranges, and a `fix` (text edits) where one is mechanical; the IR of the valid statements.',
    inputSchema: { script: Script, strict: z.boolean().optional().describe('true: strict policy, warnings count as errors') },
    outputSchema: CheckOutput,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  }, ({ script, strict }) => tool('check', (count) => {
    const input = readInput(script, { policy: strict ? 'strict' : options.policy, maxTextLength: options.limits?.maxTextLength });
    count(input.statements);
    return result({ ok: !hasErrors(input.diagnostics), kind: input.kind, statements: input.statements, diagnostics: input.diagnostics, ir: input.irs });
  }));

  server.registerTool('retrieve', {
    title: 'Retrieve memories',
    description: 'Find records by a search query and/or filters (tags, type, subject, attribute), and read facts in time (as_of, known_at, history), as the session\'s actor: only records it may read. No script needed; values are passed as data, never spliced into a script.',
    inputSchema: RetrieveInput,
    outputSchema: RetrieveOutput,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  }, (args) => tool('retrieve', async (count) => {
    count(1);
    const outcome = await session().run([retrieveIr(args)]);
    const r = outcome.results[0];
    return result({
      ok: outcome.ok, ids: r?.ids ?? [], rows: (r?.rows ?? []).map((row) => shown(row)), ...(r?.scores ? { scores: r.scores } : {}), diagnostics: once(outcome.diagnostics),
    }, !outcome.ok);
  }));

  server.registerTool('feedback', {
    title: 'Report an outcome',
    description: 'Record how using remembered memories or experiences worked out: a reward in [0, 1] on the records used (ids, an episode, or a turn). Each record\'s learned utility moves toward the reward, which later experience retrieval ranks by; the audit log keeps it, and it can be undone. Give at least one of ids, episode, turn.',
    inputSchema: FeedbackInput,
    outputSchema: FeedbackOutput,
    annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
  }, (args) => tool('feedback', async (count) => {
    count(1);
    const ir = feedbackIr(args);
    if (!ir) return result({ ok: false, records: [], diagnostics: [{ code: 'missing-field', severity: 'error', message: 'feedback needs the records the reward is for: ids, episode or turn' }] }, true);
    // The reward and a read of what it left, in one transaction (a change image lists only what changed).
    const ids = (ir.target as { ids: string[] }).ids;
    const read = { stage: 'RET', op: 'Retrieve', target: { ids }, args: { include: ['id', 'level', 'utility'] } };
    const outcome = await write(async () => session().run([ir, read]));
    const [rewarded, after] = outcome.results;
    const levels = new Map((after?.rows ?? []).map((row) => [Number(row.id), (row.level ?? null) as string | null]));
    const records = (rewarded?.changes ?? []).map((c) => ({
      id: c.id, utility: (c.after?.utility ?? null) as number | null, utility_n: (c.after?.utility_n ?? null) as number | null, level: levels.get(c.id) ?? null,
    }));
    const diagnostics = once(outcome.diagnostics);
    // Said plainly when an id given as an episode or a turn is a record of another kind.
    for (const [key, level] of [['episode', 'episode'], ['turn', 'turn']] as const) {
      const id = args[key];
      const got = records.find((x) => x.id === id);
      if (id !== undefined && got && got.level !== level) {
        diagnostics.push({ code: 'ignored-arg', severity: 'warning', message: `record ${id} was given as ${key === 'episode' ? 'an episode' : 'a turn'} but its level is ${got.level ?? 'none (an ordinary memory)'}; it was rewarded all the same` });
      }
    }
    return result({ ok: outcome.ok, records, diagnostics }, !outcome.ok);
  }));

  if (options.planner) {
    const planner = options.planner;
    const mode = planner.mode ?? 'dsl';
    server.registerTool('plan', {
      title: 'Plan a Text2Mem script',
      description: `Turn a request in plain words into a checked Text2Mem script with the configured model, dry-run on the store as '${actor}'. Nothing is changed: review the script, then pass it to \`run\`.`,
      inputSchema: { request: z.string().min(1).describe('what to do, in plain words') },
      outputSchema: PlanOutput,
      annotations: { readOnlyHint: true, openWorldHint: true },
    }, ({ request }) => tool('plan', async (count) => {
      const planned = await plan(request, {
        provider: planner.provider, mode, maxRounds: planner.maxRounds, card: mode === 'ir' ? irCard() : dslCard(),
        store, actor, tenant: options.tenant, now: now(), impersonate: options.impersonate === true, policy: options.policy, execute: false,
      });
      count(planned.irs.length);
      return result({
        ok: planned.ok, dsl: planned.dsl, ir: planned.irs, attempts: planned.attempts, diagnostics: once(planned.diagnostics),
        ...(planned.dryRun ? { dryRun: planned.dryRun.results.map((r) => statement(r, false)) } : {}),
      }, !planned.ok);
    }));
  }

  server.registerResource('card', CARD_URI, {
    title: 'Text2Mem language card (DSL)',
    description: 'The DSL in one page for writing scripts: every verb and clause, conditions, enums, worked examples',
    mimeType: 'text/markdown',
  }, (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: dslCard() }] }));

  server.registerResource('card-ir', CARD_IR_URI, {
    title: 'Text2Mem language card (JSON IR)',
    description: 'The JSON IR in one page, for writing scripts as IR objects',
    mimeType: 'text/markdown',
  }, (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: irCard() }] }));

  server.registerResource('vocabulary', VOCABULARY_URI, {
    title: 'Store vocabulary',
    description: `The tags, types and subjects in use in the store (with counts), among the records '${actor}' may read`,
    mimeType: 'application/json',
  }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(await vocabularyAsync(store, actor, now(), options.tenant, options.limits?.maxRows ?? DEFAULT_LIMITS.maxRows)) }],
  }));

  server.registerResource('facts', FACTS_URI, {
    title: 'Attribute schemas',
    description: "The tenant's attribute schemas in force (spec/semantics.md \"Attribute schemas\"): each attribute's value type, cardinality, subject normalisation, conflict policy and version",
    mimeType: 'application/json',
  }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify({ schemas: await attributeSchemasAsync(store, options.tenant) }) }],
  }));

  return server;
}

export interface RetrieveArgs {
  query?: string;
  tags?: string[];
  type?: string;
  subject?: string;
  attribute?: string;
  as_of?: string;
  known_at?: string;
  history?: boolean;
  limit?: number;
  include?: string[];
}

/**
 * The Retrieve IR for the `retrieve` tool, built as data (never as DSL text, so no value is
 * interpolated into a script): a search narrowed by a filter, or a filter alone (with no
 * condition: the most recent records, up to the limit). The reads in time are the statement's
 * `args` (`as_of`, `known_at`, `history`), checked like any script's.
 */
export function retrieveIr(args: RetrieveArgs): IR {
  const limit = args.limit ?? 10;
  const filter = {
    ...(args.tags?.length ? { has_tags: args.tags } : {}),
    ...(args.type !== undefined ? { type: args.type } : {}),
    ...(args.subject !== undefined ? { subject: args.subject } : {}),
    ...(args.attribute !== undefined ? { attribute: args.attribute } : {}),
  };
  const narrowed = Object.keys(filter).length > 0;
  const target = args.query !== undefined
    ? { search: { intent: { query: args.query }, limit }, ...(narrowed ? { filter } : {}) }
    : { filter: { ...filter, limit } };
  const irArgs = {
    ...(args.include ? { include: args.include } : {}),
    ...(args.as_of !== undefined ? { as_of: args.as_of } : {}),
    ...(args.known_at !== undefined ? { known_at: args.known_at } : {}),
    ...(args.history ? { history: true } : {}),
  };
  return { stage: 'RET', op: 'Retrieve', target, ...(Object.keys(irArgs).length ? { args: irArgs } : {}) } as IR;
}

/** The Promote IR for the `feedback` tool: the reward on every record named, or null when none is. */
export function feedbackIr(args: { reward: number; ids?: number[]; episode?: number; turn?: number; reason?: string }): IR | null {
  const ids = [...new Set([...(args.ids ?? []), ...(args.episode !== undefined ? [args.episode] : []), ...(args.turn !== undefined ? [args.turn] : [])])];
  if (!ids.length) return null;
  return { stage: 'STO', op: 'Promote', target: { ids: ids.map(String) }, args: { reward: args.reward, ...(args.reason !== undefined ? { reason: args.reason } : {}) } } as IR;
}
