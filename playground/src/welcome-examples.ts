/**
 * One runnable script per verb for the welcome panel: a few ENCODEs to act on, then the verb.
 * Each runs on a fresh store without errors (test/e2e/welcome-examples.test.ts runs them).
 */
import { VERB_NAMES as VERBS } from '../../src/language/index.js';

const SEED = `ENCODE "Standup: deploy moved to Friday" TYPE note TAGS "standup", "deploy" TIME 2025-05-01T09:00:00+08:00;
ENCODE "Standup: API review done" TYPE note TAGS "standup", "api" TIME 2025-05-02T09:00:00+08:00;
ENCODE "Pay rent" TYPE task TAGS "rent", "todo" TIME 2025-05-01T08:00:00+08:00;`;

/** The statement that shows each verb (the seed above it gives it something to act on). */
const SHOWN: Record<string, string> = {
  ENCODE: 'ENCODE "Q2 review on May 5" TYPE event TAGS "work", "review" TIME 2025-05-05T10:00:00+08:00;',
  UPDATE: 'UPDATE WHERE tags HAS "rent" LIMIT 1 SET text = "Pay rent (done)";',
  LABEL: 'LABEL WHERE tags HAS "standup" LIMIT 10 TAGS "team" MODE add;',
  PROMOTE: 'PROMOTE WHERE search "deploy" LIMIT 1 SET weight 0.9;',
  DEMOTE: 'DEMOTE WHERE tags HAS "todo" LIMIT 5 ARCHIVE;',
  MERGE: 'MERGE IDS "1", "2" INTO "1" STRATEGY merge_into_primary;',
  SPLIT: 'SPLIT ID "1" STRATEGY by_sentences;',
  LOCK: 'LOCK WHERE tags HAS "api" LIMIT 50 MODE read_only REASON "audit";',
  EXPIRE: 'EXPIRE WHERE tags HAS "todo" LIMIT 100 TTL P7D THEN soft_delete;',
  DELETE: 'DELETE WHERE tags HAS "todo" LIMIT 10 SOFT;',
  RETRIEVE: 'RETRIEVE WHERE search "deploy" ORDER BY time_desc LIMIT 3 INCLUDE id, text, time;',
  SUMMARIZE: 'SUMMARIZE WHERE tags HAS "standup" LIMIT 20 FOCUS "deploy status" MAX 80 TOKENS;',
};

export interface VerbExample {
  readonly verb: string;
  /** The statement that shows the verb. */
  readonly statement: string;
  /** The whole script: the seed, then the statement (ENCODE needs no seed). */
  readonly script: string;
}

export const VERB_EXAMPLES: readonly VerbExample[] = VERBS.map((verb) => {
  const statement = SHOWN[verb];
  return { verb, statement, script: verb === 'ENCODE' ? `${statement}\n` : `# Try ${verb}: three memories to act on, then the ${verb}.\n${SEED}\n${statement}\n` };
});
