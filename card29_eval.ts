import { readFileSync } from 'node:fs';
import { runPlanBenchmark, formatPlanReport } from './src/agents/plan-bench.ts';
const lines = readFileSync('fixtures/upstream/benchmark/text2mem-bench-v2.en.jsonl', 'utf8').split('\n');
const plans: Record<number, string> = {
  56: 'DEMOTE WHERE tags HAS "network", "assessment" AND time IN LAST 30 DAYS LIMIT 10 ARCHIVE REASON "previous assessments";',
  322: 'EXPIRE WHERE tags HAS "non-essential" LIMIT 50 TTL P1M THEN soft_delete;',
  343: 'LABEL WHERE tags HAS "incident" AND time IN LAST 7 DAYS LIMIT 10 TAGS "resolved";',
  350: 'LABEL WHERE tags HAS "emergency" AND time IN LAST 7 DAYS LIMIT 10 TAGS "high_priority";',
  462: 'LOCK WHERE tags HAS "action items" AND time IN LAST 30 DAYS LIMIT 10 MODE read_only REASON "corrective actions";',
  504: 'PROMOTE WHERE tags HAS "capacity planning" LIMIT 10 BY 0.3 REASON "DBA recommendation";',
  553: 'RETRIEVE WHERE tags HAS "incident timeline" AND time IN LAST 30 DAYS LIMIT 10 INCLUDE id, text, tags;',
  616: 'RETRIEVE WHERE search "Quote Proposal V3 Confirmation" LIMIT 5 INCLUDE id, text, tags;',
  770: 'UPDATE WHERE tags HAS "delivery" AND time IN LAST 7 DAYS LIMIT 1 SET text = "The project delivery date is updated to the 15th of next month.";',
  819: 'ENCODE "Meeting notes: timeline adjustments and resource reallocation agreed." TYPE note TAGS "meeting", "project" TIME 2025-10-21T10:00:00Z; SUMMARIZE WHERE tags HAS "meeting" AND time IN LAST 7 DAYS LIMIT 10 FOCUS "main decisions" MAX 150 TOKENS; LABEL WHERE tags HAS "meeting" AND time IN LAST 7 DAYS LIMIT 10 TAGS "shared";',
  840: 'LET $d = RETRIEVE WHERE tags HAS "API", "design" LIMIT 5 INCLUDE id, text; LOCK IDS $d MODE read_only REASON "finalized"; LABEL IDS $d TAGS "finalized", "shared";',
  994: 'EXPIRE WHERE tags HAS "proposal" LIMIT 20 TTL P21D THEN soft_delete;',
  1022: 'LABEL WHERE tags HAS "email", "quote_proposal" LIMIT 10 TAGS "important";',
  1085: 'PROMOTE WHERE tags HAS "success_rate" LIMIT 10 BY 0.3 REASON "highlight";',
  1162: 'LET $e = RETRIEVE WHERE tags HAS "project kickoff" LIMIT 10 INCLUDE id; MERGE IDS $e;',
};
const samples = Object.keys(plans).map((n) => JSON.parse(lines[Number(n) - 1]));
const byReq = new Map(samples.map((s, i) => [s.nl.zh ?? s.nl.en, plans[Number(Object.keys(plans)[i])]]));
const provider = { async complete(messages: any[]) {
  const user = messages.find((m) => m.role === 'user')?.content ?? '';
  for (const [req, dsl] of byReq) if (user.includes(req)) return { ok: true, text: dsl };
  return { ok: true, text: '' };
} };
const report = await runPlanBenchmark(samples, { provider: provider as any, maxRounds: 1 });
console.log(formatPlanReport(report));
for (const r of report.results) if (r.problems.length) console.log(r.sample, r.problems);
