/**
 * The playground's examples menu, generated at build time (see `playground/examples-plugin.ts`)
 * from IR: the paper's two appendix workflows (B.1.1, B.1.2; transcribed below as valid IR) and
 * the upstream scenarios in `fixtures/upstream/ir/examples/{real_world_scenarios,op_workflows}`
 * (a verbatim copy of the Text2Mem examples, see its PROVENANCE.md). The DSL
 * comes from the project's own `irsToText`, so the examples are always in canonical form.
 *
 *   npx tsx scripts/playground-examples.ts [name]   # print the examples (or the one named)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IR } from '../src/ir/schema.js';
import { irsToText } from '../src/pipeline.js';
import { seedIrs, trajectories } from '../examples/sql-agent/trajectories.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const UPSTREAM_EXAMPLES = join(ROOT, 'fixtures', 'upstream', 'ir', 'examples');

interface Workflow {
  readonly name: string;
  readonly steps: readonly { readonly name: string; readonly ir: IR }[];
}

/** Appendix B.1.1 and B.1.2 of the paper. The paper's `overrides` sit outside `target`; here they are where the IR schema puts them. */
export const PAPER_WORKFLOWS: readonly Workflow[] = [
  {
    name: 'Paper B.1.1 - Semantic promotion',
    steps: [
      { name: 'Encode relevant and background notes', ir: {
        stage: 'ENC', op: 'Encode', args: {
          payload: { text: 'Q2 OKR review meeting notes: marketing reach increased by 25%, sales pipeline ahead of target, and product adoption remains steady.' },
          tags: ['OKR', 'review', 'meeting'], type: 'note', time: '2025-04-10T15:30:00+08:00', source: 'meeting_minutes',
          facets: { subject: 'Q2 performance', topic: 'OKR progress' },
        } } },
      { name: 'A background note', ir: {
        stage: 'ENC', op: 'Encode', args: {
          payload: { text: 'Action item: follow up with design team on the new dashboard for OKR tracking by next Monday.' },
          tags: ['OKR', 'task', 'dashboard'], type: 'task', time: '2025-04-11T10:00:00+08:00', source: 'project_tracker',
          facets: { subject: 'dashboard design', topic: 'task follow-up' },
        } } },
      { name: 'Promote via semantic search', ir: {
        stage: 'STO', op: 'Promote', target: { search: { intent: { query: 'OKR progress' }, limit: 5 } }, args: { weight: 0.9 },
      } },
    ],
  },
  {
    name: 'Paper B.1.2 - Incident postmortem archive',
    steps: [
      { name: 'Encode the incident timeline', ir: {
        stage: 'ENC', op: 'Encode', args: {
          payload: { text: 'SEV-1 (high-severity incident) network incident timeline: 20:07 alert triggered by API latency, 20:12 automatic failover to backup nodes, 20:28 routing misconfiguration identified, 20:41 hotfix deployed, 20:48 service restored to 95% availability.' },
          tags: ['incident:p1-network', 'postmortem', 'owner:sre-ling'], type: 'incident_timeline', time: '2025-09-28T22:30:00+08:00',
          facets: { subject: '2025-09-28 API Outage', topic: 'incident_response', location: 'cn-shanghai' },
        } } },
      { name: 'Lock the incident records', ir: {
        stage: 'STO', op: 'Lock',
        target: { filter: { has_tags: ['incident:p1-network'], time_range: { start: '2025-09-28T00:00:00+08:00', end: '2025-10-05T23:59:59+08:00' }, limit: 200 } },
        args: {
          mode: 'read_only', reason: 'Preserve SEV-1 incident records for compliance and leadership audit',
          policy: { allow: ['Retrieve', 'Summarize'], deny: ['Update', 'Delete'], reviewers: ['oncall_manager', 'sre_lead'], expires: '2025-12-31T23:59:59+08:00' },
        },
        meta: { actor: 'sre-ling', timestamp: '2025-09-29T00:05:00+08:00' },
      } },
      { name: 'Generate the postmortem summary', ir: {
        stage: 'RET', op: 'Summarize',
        target: { search: { intent: { query: '2025-09-28 API outage follow-up', context: 'executive briefing' }, overrides: { k: 8, order_by: 'time_desc' }, limit: 8 } },
        args: { focus: 'Summarize root cause, customer impact, and assigned remediation owners.' },
      } },
    ],
  },
];

function readWorkflows(dir: string): { file: string; workflow: Workflow }[] {
  const path = join(UPSTREAM_EXAMPLES, dir); // part of the repository: a missing folder is an error, not an empty menu
  return readdirSync(path).filter((f) => f.endsWith('.json')).sort()
    .map((f) => ({ file: basename(f, '.json'), workflow: JSON.parse(readFileSync(join(path, f), 'utf8')) as Workflow }));
}

/** One statement per step, each under a `#` comment naming the step; the first line is the title. */
export function workflowToDsl(workflow: Workflow): string {
  const parts = [`# ${workflow.name}\n`];
  for (const step of workflow.steps) parts.push(`\n# ${step.name}\n${irsToText([step.ir]).trimEnd()}\n`);
  return parts.join('');
}

/**
 * Experience memory (examples/sql-agent): six of its trajectories (two task families) as
 * episodes with turns, then its play script (two-stage retrievals, feedback) on them.
 */
function sqlAgentExample(): string {
  const play = readFileSync(join(ROOT, 'examples', 'sql-agent', 'play.t2m'), 'utf8').replace(/^(#.*\n)+/, '');
  return `# Experience memory - a SQL agent reuses past episodes and turns\n\n# Six past trajectories (examples/sql-agent/trajectories.jsonl): episodes with their turns\n${irsToText(seedIrs(trajectories().slice(0, 6)))}\n# A new task: plan from one episode, hints from past turns, then feedback\n${play}`;
}

/** Example name (ordering prefix + slug) → DSL text, in menu order. */
export function examples(): Map<string, string> {
  const out = new Map<string, string>();
  const add = (name: string, workflow: Workflow) => out.set(name, workflowToDsl(workflow));
  PAPER_WORKFLOWS.forEach((w, i) => add(`0${i + 1}-paper-${w.name.replace(/^.*- /, '').toLowerCase().replace(/\W+/g, '-')}`, w));
  for (const { file, workflow } of readWorkflows('real_world_scenarios')) add(`10-${file.replace(/_/g, '-')}`, workflow);
  for (const { file, workflow } of readWorkflows('op_workflows')) add(`20-${file.replace(/_/g, '-')}`, workflow);
  out.set('30-sql-agent-experience', sqlAgentExample());
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const wanted = process.argv[2];
  for (const [name, text] of examples()) if (!wanted || name.includes(wanted)) process.stdout.write(`${text}\n`);
}
