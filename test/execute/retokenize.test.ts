/**
 * The tokenizer version (src/retrieve/retokenize.ts, spec/retrieval.md#tokens): a store whose
 * search tokens an older tokenizer wrote is re-tokenized when opened, and its keyword index
 * follows, exactly; a current store is left as it is. Runs on sql.js, and again on the native
 * driver and PGlite (test/store/native-suite.test.ts, pglite-suite.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { run, type Store } from '../../src/engine/index.js';
import { compileSetSearchText } from '../../src/compile/meta.js';
import { reindexStore } from '../../src/execute/reindex.js';
import { cjkBigrams, searchedText, searchTextOf, tokens, TOKENS_VERSION } from '../../src/text/text.js';
import { encode, freshStore, NOW, op, reopen, rows, runOk } from '../engine/harness.js';
import { keywordIndex } from '../../src/retrieve/keywords.js';
import { expectIndexExact, expectMemoryIndexExact } from '../support/keyword-index.js';

const parsed = (r: Record<string, any>) => ({ ...r, tags: typeof r.tags === 'string' ? JSON.parse(r.tags) : r.tags ?? [] });

const tokensVersion = (store: Store) => store.query(`SELECT value FROM t2m_meta WHERE key = 'tokens'`).map((r) => String(r.value));

/** Ids a keyword-only search finds. */
function keywordHits(store: Store, query: string): number[] {
  const r = run(store, [op('Retrieve', { search: { intent: { query }, overrides: { alpha: 0 } } }, { include: ['id'] })], { now: NOW });
  expect(r.ok).toBe(true);
  return r.ok ? [...r.results[0].ids] : [];
}

describe('the tokenizer version', () => {
  it('is recorded in a fresh store', async () => {
    const store = await freshStore();
    expect(tokensVersion(store)).toEqual([String(TOKENS_VERSION)]);
  });

  it('re-tokenizes a store an older tokenizer wrote when it is opened, and the keyword index follows', async () => {
    let store = await freshStore();
    runOk(store, [
      encode('预算会议推迟到周五', { tags: ['财务'] }),
      encode('The budget meeting moved to Friday'),
      encode('周末去爬山'),
      encode('旧的记录'),
    ]);
    runOk(store, [op('Delete', { ids: [4] }, { soft: true })]);
    // Make it a store of tokenizer version 1: CJK as bigrams only, and no version recorded.
    for (const r of rows(store)) {
      const old = tokens(searchedText(parsed(r)), cjkBigrams).join(' ') || null;
      store.run(compileSetSearchText(r.id, old, store.dialect));
    }
    store.exec(`DELETE FROM t2m_meta WHERE key = 'tokens'`);
    expectIndexExact(store);
    expectMemoryIndexExact(store);
    // A one-character query finds nothing in bigrams.
    expect(keywordHits(store, '周')).toEqual([]);

    store = await reopen(store);
    for (const r of rows(store)) expect(r.search_text).toBe(searchTextOf(parsed(r)));
    expect(rows(store).find((r) => r.id === 1)!.search_text.split(' ')).toContain('周');
    expectIndexExact(store);
    expectMemoryIndexExact(store);
    expect(tokensVersion(store)).toEqual([String(TOKENS_VERSION)]);
    expect(keywordHits(store, '周').sort()).toEqual([1, 3]);
    expect(keywordHits(store, 'budget')).toEqual([2]);
    // The soft-deleted record got its new tokens too (an undo finds it ready) but stays out of the index.
    expect(store.drive(keywordIndex(store)).search(['旧的'.slice(0, 1), '记录'], 10).map((s) => s.id)).not.toContain(4);
    expect(rows(store).find((r) => r.id === 4)!.search_text).toBe(searchTextOf({ text: '旧的记录' }));
  });

  it('is brought to the current one by t2m reindex', async () => {
    const store = await freshStore();
    runOk(store, [encode('预算会议推迟到周五')]);
    store.run(compileSetSearchText(1, tokens('预算会议推迟到周五', cjkBigrams).join(' '), store.dialect));
    store.exec(`DELETE FROM t2m_meta WHERE key = 'tokens'`);
    const r = await reindexStore(store);
    expect(r.ok).toBe(true);
    expect(rows(store)[0].search_text).toBe(searchTextOf({ text: '预算会议推迟到周五' }));
    expect(tokensVersion(store)).toEqual([String(TOKENS_VERSION)]);
    expectIndexExact(store);
    expectMemoryIndexExact(store);
  });

  it('leaves a current store as it is', async () => {
    let store = await freshStore();
    runOk(store, [encode('预算会议推迟到周五'), encode('Budget meeting')]);
    // A search_text the current tokenizer would not write stays: the version says it is current.
    store.run(compileSetSearchText(2, 'budget meet odd', store.dialect));
    store = await reopen(store);
    expect(rows(store).find((r) => r.id === 2)!.search_text).toBe('budget meet odd');
    expect(tokensVersion(store)).toEqual([String(TOKENS_VERSION)]);
  });
});

describe('CJK search tokens (characters and bigrams)', () => {
  it('match a query through a shared character, and rank the query\'s words above its characters scattered', async () => {
    const store = await freshStore();
    runOk(store, [encode('我会去，议程明天发'), encode('预算会议推迟到周五'), encode('他们报名了全程马拉松')]);
    // Record 1 holds 会 and 议 apart, record 2 the word 会议: the bigram puts 2 first (characters alone
    // rank the shorter record 1 first; bigrams alone miss record 1).
    expect(keywordHits(store, '会议')).toEqual([2, 1]);
    // A one-character word (周) finds the record holding it.
    expect(keywordHits(store, '周')).toEqual([2]);
  });
});
