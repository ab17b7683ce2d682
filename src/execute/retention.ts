/**
 * A change of retention class re-derives the record's expiry (spec/semantics.md "Retention"):
 * into `ephemeral` or `session`, the class's lifetime counted from the change; out of them into
 * `durable`, the class's expiry is cleared; into `legal_hold`, any expiry is cleared. An explicit
 * expiry in the same statement wins; an ephemeral or session record is never left without one.
 */
import { RETENTION_TTL } from '../lower/encode.js';
import { addDuration, formatUtc, parseDuration } from '../lower/index.js';

type RetentionClass = keyof typeof RETENTION_TTL;

const classOf = (v: unknown): RetentionClass => (typeof v === 'string' && v in RETENTION_TTL ? (v as RetentionClass) : 'durable');

/** The expiry a record of class `retention` gets when its lifetime starts at `now` (ephemeral, session), or undefined (durable, legal_hold). */
export function classExpiry(retention: unknown, now: string): { expire_at: string; expire_action: string } | undefined {
  const life = RETENTION_TTL[classOf(retention)];
  const parts = life.ttl ? parseDuration(life.ttl) : null;
  return parts ? { expire_at: formatUtc(addDuration(new Date(now), parts, 1)), expire_action: life.action ?? 'soft_delete' } : undefined;
}

/**
 * The expiry columns an update of `row` with `set` also writes, or why it is refused. Nothing
 * when it changes neither the class nor the expiry.
 */
export function retentionExpiry(row: Readonly<Record<string, unknown>>, set: Readonly<Record<string, unknown>>, now: string): { set: Record<string, unknown> } | { refusal: string } {
  const from = classOf(row.retention);
  const to = 'retention' in set ? classOf(set.retention) : from;
  const explicit = 'expire_at' in set;
  const out: Record<string, unknown> = {};
  if (to !== from) {
    const life = RETENTION_TTL[to];
    if (to === 'legal_hold') {
      if (explicit && set.expire_at !== null) return { refusal: `memory #${String(row.id)} would enter legal_hold with an expiry, and a held record never expires: leave the expiry out` };
      if (row.expire_at !== null && row.expire_at !== undefined) Object.assign(out, { expire_at: null, expire_action: null });
    } else if (life.ttl && !explicit) {
      Object.assign(out, classExpiry(to, now));
    } else if (!life.ttl && RETENTION_TTL[from].ttl && !explicit) {
      Object.assign(out, { expire_at: null, expire_action: null });
    }
  }
  const expiry = explicit ? set.expire_at : 'expire_at' in out ? out.expire_at : row.expire_at;
  if ((to === 'ephemeral' || to === 'session') && (expiry === null || expiry === undefined)) {
    return { refusal: `memory #${String(row.id)} is ${to === from ? 'of' : 'moving to'} retention class ${to}, which keeps an expiry (${RETENTION_TTL[to].ttl} from when it is set); to keep the record without one, change its class: UPDATE IDS "${String(row.id)}" SET retention "durable"` };
  }
  return { set: out };
}
