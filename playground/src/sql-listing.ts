/**
 * The SQL pane's text: each statement's SQL with its bound parameters as a comment. Long arrays
 * (an Encode's embedding vector, bound as packed Float32 bytes or JSON text) are abbreviated for reading only; the
 * parameters themselves are never changed. The audit-log insert each write makes is kept to one
 * line (its parameters are the statement's IR and before/after images as JSON: most of the text,
 * and not what the statement does).
 */

/** The engine's audit-log insert (src/compile: one per write statement). */
const AUDIT_INSERT = /^\s*INSERT INTO "?audit_log"?/i;

/** A string parameter longer than this is shortened to its head and length. */
const LONG_STRING = 80;

/** Arrays up to this length are shown whole. */
const SHOWN_WHOLE = 8;
/** How many leading elements an abbreviated array keeps. */
const SHOWN_HEAD = 2;

function abbreviatedArray(items: readonly unknown[]): string | undefined {
  if (items.length <= SHOWN_WHOLE) return undefined;
  const unit = items.every((x) => typeof x === 'number') ? 'numbers' : 'items';
  return `[${items.slice(0, SHOWN_HEAD).map((x) => JSON.stringify(x)).join(', ')}, … ${items.length} ${unit}]`;
}

/** One parameter as displayed: JSON, with a long array (or JSON text of one) shortened. */
export function displayParam(value: unknown): string {
  // A packed Float32 vector (embedding_f32, spec/retrieval.md) is shown as the numbers it holds.
  if (value instanceof Uint8Array && value.byteLength % 4 === 0) {
    const floats = new Float32Array(value.slice().buffer);
    return abbreviatedArray(Array.from(floats, (x) => Math.round(x * 1e4) / 1e4)) ?? JSON.stringify(Array.from(floats));
  }
  if (Array.isArray(value)) return abbreviatedArray(value) ?? JSON.stringify(value);
  if (typeof value === 'string' && value.startsWith('[') && value.length > 40) {
    try {
      const parsed: unknown = JSON.parse(value);
      const short = Array.isArray(parsed) ? abbreviatedArray(parsed) : undefined;
      if (short) return short;
    } catch {
      // Not JSON after all: shown as the string it is.
    }
  }
  if (typeof value === 'string' && value.length > LONG_STRING) return `${JSON.stringify(value.slice(0, 40)).slice(0, -1)}…" (${value.length} chars)`;
  return JSON.stringify(value) ?? String(value);
}

export function displayParams(params: readonly unknown[]): string {
  return `[${params.map(displayParam).join(',')}]`;
}

export function sqlListing(title: string, statements: readonly { op: string; sql: readonly { sql: string; params: readonly unknown[] }[] }[]): string {
  const lines = [`-- ${title}`, ''];
  statements.forEach((st, i) => {
    lines.push(`-- ${i + 1}. ${st.op}`);
    for (const s of st.sql) {
      if (AUDIT_INSERT.test(s.sql)) {
        lines.push(`-- + audit_log entry (${s.params.length} bound values: time, actor, op, IR, affected ids, before/after images)`);
        continue;
      }
      lines.push(s.sql.trim().replace(/;?$/, ';'));
      if (s.params.length) lines.push(`-- params: ${displayParams(s.params)}`);
    }
    lines.push('');
  });
  return lines.join('\n');
}
