/**
 * The DSL front end alone, for a CPU profile: `textToIr` (parse → astToIr → validate → check) over
 * every upstream IR printed as one script (the script perf/throughput.ts times), run N times.
 *   node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx perf/profile-front.ts [N]
 */
import type { IR } from '../src/ir/schema.js';
import { validateIr } from '../src/ir/validate.js';
import { irsToText, textToIr } from '../src/pipeline.js';
import { lex } from '../src/syntax/lex.js';
import { corpusIrs } from '../test/ir-corpus.js';

const irs = corpusIrs().map(({ ir }) => validateIr(ir).ir as IR);
const dsl = irsToText(irs);
const N = Number(process.argv[2] ?? 20);
console.log(`${irs.length} statements, ${dsl.length} chars, ${lex(dsl).tokens.length} tokens; ${N} runs`);
for (let i = 0; i < 3; i++) textToIr(dsl);
const w0 = performance.now();
const c0 = process.cpuUsage();
for (let i = 0; i < N; i++) textToIr(dsl);
const c = process.cpuUsage(c0);
console.log(`textToIr: ${((performance.now() - w0) / N).toFixed(1)} ms wall, ${((c.user + c.system) / 1000 / N).toFixed(1)} ms CPU per run`);
