/**
 * Front-end throughput over every upstream IR (fixtures/upstream: the benchmark's prerequisites
 * and gold schemas, and ir/examples), printed as one DSL script and as JSONL:
 *   - DSL: parse → astToIr → validate → check (`textToIr`);
 *   - JSON: JSON.parse → zod validation (`validateIr`), and the same plus check;
 * in CPU time (process.cpuUsage), the variants interleaved within the round (rotated order, median
 * of a few repetitions after a warm-up). The headline is the ratio of DSL to JSON + zod throughput
 * (the target: at least 0.5).
 */
import { corpusIrs } from '../../test/ir-corpus.js';
import { median, project, type Figures, type Suite } from './suite.js';

const REPS = 9;

const suite: Suite = {
  rounds: 5,
  flags: [],
  needsBuild: false,
  async round(root) {
    const t2m = await project(root);
    const irs = corpusIrs().map(({ where, ir }) => {
      const v = t2m.validateIr(ir);
      if (!v.ir) throw new Error(`corpus IR does not validate: ${where}`);
      return v.ir;
    });
    const dsl = t2m.irsToText(irs);
    const jsonl = irs.map((ir) => JSON.stringify(ir)).join('\n');
    const back = t2m.textToIr(dsl);
    if (t2m.hasErrors(back.diagnostics) || back.irs.length !== irs.length) throw new Error('the printed corpus does not convert back cleanly');

    const variants: [string, () => void][] = [
      ['dsl', () => void t2m.textToIr(dsl)],
      ['json', () => {
        for (const line of jsonl.split('\n')) t2m.validateIr(JSON.parse(line));
      }],
      ['jsonCheck', () => {
        const valid = [];
        for (const line of jsonl.split('\n')) {
          const v = t2m.validateIr(JSON.parse(line));
          if (v.ir) valid.push(v.ir);
        }
        t2m.check(valid);
      }],
    ];
    const cpu = new Map<string, number[]>(variants.map(([k]) => [k, []]));
    for (const [, f] of variants) f(); // warm-up
    for (let r = 0; r < REPS; r++) {
      for (let k = 0; k < variants.length; k++) {
        const [key, f] = variants[(r + k) % variants.length];
        const c0 = process.cpuUsage();
        f();
        const c = process.cpuUsage(c0);
        cpu.get(key)!.push((c.user + c.system) / 1000);
      }
    }
    const ms = (k: string) => median(cpu.get(k)!);
    const figures: Figures = {
      'DSL parse+check, ms CPU': ms('dsl'),
      'JSON.parse+zod, ms CPU': ms('json'),
      'JSON.parse+zod+check, ms CPU': ms('jsonCheck'),
      'DSL statements/s (CPU)': (irs.length / ms('dsl')) * 1000,
      'ratio DSL / JSON+zod throughput': ms('json') / ms('dsl'),
      'ratio DSL / JSON+zod+check throughput': ms('jsonCheck') / ms('dsl'),
    };
    return figures;
  },
  notes: 'ratio = DSL throughput / JSON throughput over the same IRs (target for DSL / JSON+zod: at least 0.5).',
};
export default suite;
