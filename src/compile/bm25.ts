/** BM25's parameters (spec/retrieval.md). */
export const BM25 = { k1: 1.2, b: 0.75 } as const;
