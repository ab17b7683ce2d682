/**
 * The engine workload (perf/suites/engine-workload.ts) on PostgreSQL: PGlite in memory (three
 * instances: the pipeline's store, the replay's, the row-at-a-time replay's), or with
 * `--url postgres://…` a server (three schemas of that database, dropped afterwards).
 */
import { engineWorkload } from './engine-workload.js';
import { checkSizes, project, sizes, type Figures, type Suite } from './suite.js';

const suite: Suite = {
  rounds: 1,
  flags: ['sizes', 'url'],
  needsBuild: false,
  check(flags) {
    if (flags.url !== undefined && !/^postgres(ql)?:\/\//i.test(flags.url)) return `--url takes a postgres://… URL, not ${flags.url}`;
    return checkSizes(flags);
  },
  async round(root, flags) {
    const t2m = await project(root);
    const url = flags.url;
    const openUrl = async (name: string) => {
      const opened = await t2m.openStoreUrl(name);
      if (!opened.ok) throw new Error(opened.diagnostics.map((d) => d.message).join('; '));
      return opened.store;
    };
    const open = async (name: string) => {
      if (url === undefined) {
        const store = await openUrl('pglite:');
        return { store, remove: () => store.close() };
      }
      const schema = `t2m_perf_${name}`;
      const admin = await openUrl(url);
      await admin.driver.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
      await admin.close();
      const store = await openUrl(`${url}${url.includes('?') ? '&' : '?'}schema=${schema}`);
      return {
        store,
        remove: async () => {
          await store.driver.exec(`DROP SCHEMA ${schema} CASCADE`);
          await store.close();
        },
      };
    };
    const where = url === undefined ? 'pglite' : 'server';
    await engineWorkload(t2m, open, 500, 'warm-up');
    const figures: Figures = {};
    for (const size of sizes(flags, [1_000, 10_000])) Object.assign(figures, await engineWorkload(t2m, open, size, where));
    return figures;
  },
  notes: `"x SQL" = pipeline time / the same SQL run directly on an identical store of the same kind; "x row SQL" = encode's time / the records written one row at a time.`,
};
export default suite;
