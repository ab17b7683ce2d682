/** BM25's parameters (spec/retrieval.md), shared by the dialects' index DDL and the compiler. */
export const BM25 = { k1: 1.2, b: 0.75 } as const;
/** The mean record length (tokens) a posting's stored `impact` assumes; scores use the true mean. */
export const IMPACT_LENGTH = 16;
