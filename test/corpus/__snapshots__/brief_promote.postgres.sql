-- brief_promote.t2m explained on a fresh postgres store, clock 2025-10-21T00:00:00Z

-- transaction 1: statement [1], would commit

-- [1] Promote: ids -
SELECT "id", 1 - ("embedding_f32"::vector(256) <=> $1::vector(256)) AS score, "embedding_f32" AS v FROM "memory" WHERE "tenant" = $2 AND "deleted" = $3 AND ("expire_at" IS NULL OR "expire_at" > $4) AND ("valid_to" IS NULL OR "valid_to" > $5) AND ("valid_from" IS NULL OR "valid_from" <= $6) AND "embedding_model" = $7 AND vector_dims("embedding_f32") = 256 ORDER BY ("embedding_f32"::vector(256) <=> $1::vector(256)), "id" LIMIT $8;
--   params ["<vector of 256 numbers, sha256 36c6beb7d0e5>","default",0,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","t2m-ngram-256",100]

-- warning no-match at 2:9-2:44 [1] (target): Promote: the target matches no live record
