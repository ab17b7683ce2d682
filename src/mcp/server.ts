/**
 * Text2Mem as an MCP server (`t2m mcp`; spec/security.md for the identity model): tools `run`,
 * `check`, `explain`, `retrieve` (and `plan` when a model is configured) on one store, and
 * resources for the language card (DSL and IR) and the store's vocabulary. Transport-free: the
 * CLI connects it over stdio, tests may connect it in-process.
 *
 * Identity: the session's actor (and clock, and impersonation) come from the configuration,
 * never from the script or the tool arguments: every call runs as `actor`, and a script whose
 * `AS` names someone else is refused by the engine (`actor-mismatch`) unless `impersonate` was
 * configured. Each tool call is its own transaction on the store (one `run`), so other
 * processes can write to a store file between calls.
 *
 * Results: JSON text content plus the same value as `structuredContent` (each tool declares its
 * `outputSchema`). A refused script, an unreadable input or a store error is a tool result with
 * `isError: true` and its diagnostics; nothing a client sends stops the server.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { languageCard } from '../agents/card.js';
import { plan, type PlanMode } from '../agents/planner.js';
import type { ChatProvider } from '../agents/provider.js';
import { type Diagnostic, hasErrors } from '../diagnostics/diagnostic.js';
import { DEFAULT_LIMITS, Session, type Limits, type RunResult, type StatementResult, type Store } from '../engine/index.js';
import { INCLUDE_FIELDS, type IR } from '../ir/schema.js';
import { readInput, type Policy } from '../pipeline.js';
import { vocabulary } from '../agents/store-terms.js';

/** A configured model for the `plan` tool (src/agents/planner.ts). */
export interface McpPlanner {
  readonly provider: ChatProvider;
  /** What the model writes: DSL (default) or JSON IR. */
  readonly mode?: PlanMode;
  /** Answers asked of the model in all (default the planner's, 3). */
  readonly maxRounds?: number;
}

export interface McpServerOptions {
  readonly store: Store;
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
   * Turns an exception the store driver threw (a busy or read-only file) into a diagnostic; an
   * exception it does not recognise is a bug and becomes the SDK's generic tool error.
   */
  readonly storeError?: (e: unknown) => Diagnostic | undefined;
  /** The server's version, as reported to clients. */
  readonly version?: string;
}

// ---------------------------------------------------------------- schemas

const Position = z.object({ line: z.number(), column: z.number(), offset: z.number() });
const Range = z.object({ start: Position, end: Position });
const DiagnosticSchema = z.looseObject({
  code: z.string(),
  severity: z.enum(['error', 'warning', 'info']),
  message: z.string(),
  range: Range.optional(),
  path: z.string().optional(),
  statement: z.number().optional(),
  fix: z.object({ message: z.string(), edits: z.array(z.object({ range: Range, newText: z.string() })) }).optional(),
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
  refused: DiagnosticSchema.optional(),
  sql: z.array(z.object({ sql: z.string(), params: z.unknown() })).optional(),
});

const Script = z.string().describe('a Text2Mem script: DSL text (statements ending in `;`) or IR JSON (an object, an array of objects, or JSONL)');

const RunOutput = {
  ok: z.boolean().describe('true when the script committed (or, for a dry run, would have)'),
  results: z.array(StatementSchema).describe('one entry per statement: ids written or read, rows (Retrieve), summary (Summarize), changes'),
  diagnostics: Diagnostics.describe('errors (the script changed nothing) and warnings'),
};

const CheckOutput = {
  ok: z.boolean().describe('true when the script has no errors'),
  kind: z.enum(['dsl', 'json-object', 'json-array', 'jsonl']),
  statements: z.number(),
  diagnostics: Diagnostics,
  ir: z.array(z.record(z.string(), z.unknown())).describe('the IR of the statements that validated'),
};

const RetrieveInput = {
  query: z.string().min(1).optional().describe('semantic search text; results are ranked by relevance'),
  tags: z.array(z.string().min(1)).optional().describe('records must carry every one of these tags'),
  type: z.string().min(1).optional().describe('records of this type only (e.g. note, task, event)'),
  subject: z.string().min(1).optional().describe('records about this subject only'),
  limit: z.number().int().min(1).max(1000).optional().describe('at most this many records (default 10)'),
  include: z.array(z.enum(INCLUDE_FIELDS)).optional().describe('the fields to return (default: every field)'),
};

const RetrieveOutput = {
  ok: z.boolean(),
  ids: z.array(z.number()),
  rows: z.array(Row),
  scores: z.record(z.string(), z.number()).optional(),
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
const CARD_URI = 'text2mem://card';
const CARD_IR_URI = 'text2mem://card-ir';

// ---------------------------------------------------------------- results

/** A result as plain JSON (dropping undefined; the driver's bigints as numbers). */
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))) as T;
}

function result(value: Record<string, unknown>, isError = false): CallToolResult {
  const structured = plain(value);
  return { content: [{ type: 'text', text: JSON.stringify(structured, null, 2) }], structuredContent: structured, ...(isError ? { isError: true } : {}) };
}

/** Vectors are noise to an agent: a statement's rows and images lose them; `sql` only for explain. */
const NOISE = new Set(['embedding', 'embedding_f32', 'search_text']);
function quiet(row: Readonly<Record<string, unknown>> | null | undefined): Record<string, unknown> | null {
  if (!row) return null;
  return Object.fromEntries(Object.entries(row).filter(([k]) => !NOISE.has(k)));
}
function statement(r: StatementResult, withSql: boolean): Record<string, unknown> {
  const { sql, warnings: _warnings, ...rest } = r;
  return {
    ...rest,
    ...(r.rows ? { rows: r.rows.map(quiet) } : {}),
    changes: r.changes.map((c) => ({ id: c.id, before: quiet(c.before), after: quiet(c.after) })),
    ...(withSql ? { sql } : {}),
  };
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
        'Use `check` to validate a script (diagnostics carry fixes), `explain` to see what it would do, `run` to execute it as one transaction, `retrieve` for a quick lookup.',
      ].join(' '),
    },
  );
  const engineOptions = () => ({ actor, tenant: options.tenant, now: options.now ?? new Date(), impersonate: options.impersonate === true, policy: options.policy, limits: options.limits });
  const cards: { dsl?: string; ir?: string } = {};
  const now = (): Date => (options.now === undefined ? new Date() : new Date(options.now));

  /** Runs `fn` turning a store exception (busy, read-only) into an error result. */
  const guarded = async (fn: () => CallToolResult | Promise<CallToolResult>): Promise<CallToolResult> => {
    try {
      return await fn();
    } catch (e) {
      const d = options.storeError?.(e);
      if (!d) throw e;
      return result({ ok: false, results: [], diagnostics: [d] }, true);
    }
  };

  const execute = (script: string, dryRun: boolean, withSql: boolean): CallToolResult => {
    const input = readInput(script, { policy: options.policy });
    if (!input.checked || hasErrors(input.diagnostics)) return result({ ok: false, results: [], diagnostics: input.diagnostics }, true);
    const session = new Session(store, engineOptions());
    const outcome: RunResult = dryRun ? session.explain(input.checked) : session.run(input.checked);
    return result({ ok: outcome.ok, results: outcome.results.map((r) => statement(r, withSql)), diagnostics: outcome.diagnostics }, !outcome.ok);
  };

  server.registerTool('run', {
    title: 'Run a Text2Mem script',
    description: `Execute a script as one transaction, as actor '${actor}'. If any statement is refused (a lock, a permission, a missing confirmation, a bad input) nothing changes and the result is an error with diagnostics. dry_run: report what it would do, change nothing.`,
    inputSchema: { script: Script, dry_run: z.boolean().optional().describe('plan only: change nothing') },
    outputSchema: RunOutput,
    annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
  }, ({ script, dry_run }) => guarded(() => execute(script, dry_run === true, dry_run === true)));

  server.registerTool('explain', {
    title: 'Explain a Text2Mem script',
    description: 'What the script would do, without changing anything: per statement the SQL, the ids it would affect and the changes, and any refusal.',
    inputSchema: { script: Script },
    outputSchema: RunOutput,
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, ({ script }) => guarded(() => execute(script, true, true)));

  server.registerTool('check', {
    title: 'Check a Text2Mem script',
    description: 'Validate and check a script without running it: diagnostics with line:column ranges, and a `fix` (text edits) where one is mechanical; the IR of the valid statements.',
    inputSchema: { script: Script, strict: z.boolean().optional().describe('strict policy: warnings count as errors') },
    outputSchema: CheckOutput,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  }, ({ script, strict }) => {
    const input = readInput(script, { policy: strict ? 'strict' : options.policy });
    return result({ ok: !hasErrors(input.diagnostics), kind: input.kind, statements: input.statements, diagnostics: input.diagnostics, ir: input.irs });
  });

  server.registerTool('retrieve', {
    title: 'Retrieve memories',
    description: 'Find records by semantic query and/or filters (tags, type, subject), as the session\'s actor (only records it may read). No script needed; values are passed as data, never spliced into a script.',
    inputSchema: RetrieveInput,
    outputSchema: RetrieveOutput,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  }, (args) => guarded(() => {
    const ir = retrieveIr(args);
    const outcome = new Session(store, engineOptions()).run([ir]);
    const r = outcome.results[0];
    return result({
      ok: outcome.ok, ids: r?.ids ?? [], rows: (r?.rows ?? []).map(quiet), ...(r?.scores ? { scores: r.scores } : {}), diagnostics: outcome.diagnostics,
    }, !outcome.ok);
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
    }, ({ request }) => guarded(async () => {
      const planned = await plan(request, {
        provider: planner.provider, mode, maxRounds: planner.maxRounds, card: mode === 'ir' ? (cards.ir ??= languageCard({ ir: true })) : (cards.dsl ??= languageCard()),
        store, ...engineOptions(), execute: false,
      });
      return result({
        ok: planned.ok, dsl: planned.dsl, ir: planned.irs, attempts: planned.attempts, diagnostics: planned.diagnostics,
        ...(planned.dryRun ? { dryRun: planned.dryRun.results.map((r) => statement(r, false)) } : {}),
      }, !planned.ok);
    }));
  }

  server.registerResource('card', CARD_URI, {
    title: 'Text2Mem language card (DSL)',
    description: 'The DSL in one page for writing scripts: every verb and clause, conditions, enums, worked examples',
    mimeType: 'text/markdown',
  }, (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: (cards.dsl ??= languageCard()) }] }));

  server.registerResource('card-ir', CARD_IR_URI, {
    title: 'Text2Mem language card (JSON IR)',
    description: 'The JSON IR in one page, for writing scripts as IR objects',
    mimeType: 'text/markdown',
  }, (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: (cards.ir ??= languageCard({ ir: true })) }] }));

  server.registerResource('vocabulary', VOCABULARY_URI, {
    title: 'Store vocabulary',
    description: `The tags, types and subjects in use in the store (with counts), among the records '${actor}' may read`,
    mimeType: 'application/json',
  }, (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(vocabulary(store, actor, now(), options.tenant, options.limits?.maxRows ?? DEFAULT_LIMITS.maxRows), null, 2) }] }));

  return server;
}

/**
 * The Retrieve IR for the `retrieve` tool, built as data (never as DSL text, so no value is
 * interpolated into a script): a search narrowed by a filter, or a filter alone (with no
 * condition: the most recent records, up to the limit).
 */
export function retrieveIr(args: { query?: string; tags?: string[]; type?: string; subject?: string; limit?: number; include?: string[] }): IR {
  const limit = args.limit ?? 10;
  const filter = {
    ...(args.tags?.length ? { has_tags: args.tags } : {}),
    ...(args.type !== undefined ? { type: args.type } : {}),
    ...(args.subject !== undefined ? { subject: args.subject } : {}),
  };
  const narrowed = Object.keys(filter).length > 0;
  const target = args.query !== undefined
    ? { search: { intent: { query: args.query }, limit }, ...(narrowed ? { filter } : {}) }
    : { filter: { ...filter, limit } };
  return { stage: 'RET', op: 'Retrieve', target, ...(args.include ? { args: { include: args.include } } : {}) } as IR;
}
