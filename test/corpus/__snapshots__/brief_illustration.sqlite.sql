-- brief_illustration.t2m explained on a fresh sqlite store, clock 2025-10-21T00:00:00Z

-- transaction 1: statements [1]-[3], would commit

-- [1] Encode: ids 1
INSERT INTO "memory" ("text", "type", "tags", "facets", "subject", "topic", "source", "auto_frequency", "expire_at", "next_auto_update_at", "read_perm_level", "write_perm_level", "time", "owner", "created_at", "updated_at", "deleted", "embedding", "embedding_f32", "embedding_model", "tenant", "trace_id", "statement_index", "search_text") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id;
--   params ["Q2 OKR review: marketing reach +25%","note","[\"OKR\",\"review\"]","{\"subject\":\"Q2 performance\",\"topic\":\"OKR progress\"}","Q2 performance","OKR progress","meeting_minutes",null,null,null,null,null,"2025-04-10T07:30:00Z",null,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",0,null,"<vector of 256 floats, sha256 8e9b9d5bc695>","t2m-ngram-256","default","corpus-brief_illustration.t2m-1",0,"q2 okr review market reach 25 okr review q2 perform okr progress"]
INSERT INTO "audit_log" (tenant, trace_id, at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
--   params ["default","corpus-brief_illustration.t2m-1","2025-10-21T00:00:00Z",null,"Encode","{\"stage\":\"ENC\",\"op\":\"Encode\",\"args\":{\"payload\":{\"text\":\"Q2 OKR review: marketing reach +25%\"},\"type\":\"note\",\"tags\":[\"OKR\",\"review\"],\"time\":\"2025-04-10T15:30:00+08:00\",\"source\":\"meeting_minutes\",\"facets\":{\"subject\":\"Q2 performance\",\"topic\":\"OKR progress\"}}}","[1]","{\"1\":null}","{\"1\":{\"id\":1,\"text\":\"Q2 OKR review: marketing reach +25%\",\"type\":\"note\",\"tags\":[\"OKR\",\"review\"],\"facets\":{\"subject\":\"Q2 performance\",\"topic\":\"OKR progress\"},\"subject\":\"Q2 performance\",\"topic\":\"OKR progress\",\"source\":\"meeting_minutes\",\"auto_frequency\":null,\"expire_at\":null,\"next_auto_update_at\":null,\"read_perm_level\":null,\"write_perm_level\":null,\"time\":\"2025-04-10T07:30:00Z\",\"owner\":null,\"created_at\":\"2025-10-21T00:00:00Z\",\"updated_at\":\"2025-10-21T00:00:00Z\",\"deleted\":0,\"embedding_model\":\"t2m-ngram-256\",\"tenant\":\"default\",\"trace_id\":\"corpus-brief_illustration.t2m-1\",\"statement_index\":0}}"]

-- [2] Lock: ids -
SELECT * FROM "memory" WHERE "tenant" = ? AND "deleted" = ? AND ("expire_at" IS NULL OR "expire_at" > ?) AND ("valid_to" IS NULL OR "valid_to" > ?) AND ("valid_from" IS NULL OR "valid_from" <= ?) AND "time" >= ? AND "time" <= ? AND "id" IN (SELECT memory_id FROM memory_tag WHERE tag = ?) ORDER BY "time" IS NULL, "time" DESC, "id" DESC LIMIT +?;
--   params ["default",0,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","2025-10-14T00:00:00Z","2025-10-21T23:59:59Z","incident:p1-network",200]

-- [3] Delete: ids 1
SELECT * FROM "memory" WHERE "tenant" = ? AND "deleted" = ? AND ("expire_at" IS NULL OR "expire_at" > ?) AND ("valid_to" IS NULL OR "valid_to" > ?) AND ("valid_from" IS NULL OR "valid_from" <= ?) ORDER BY "time" IS NULL, "time" DESC, "id" DESC;
--   params ["default",0,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","2025-10-21T00:00:00Z"]
UPDATE "memory" SET "deleted" = ?, "deleted_at" = ?, "updated_at" = ? WHERE "tenant" = ? AND "id" = ?;
--   params [1,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","default",1]
INSERT INTO "audit_log" (tenant, trace_id, at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
--   params ["default","corpus-brief_illustration.t2m-1","2025-10-21T00:00:00Z",null,"Delete","{\"stage\":\"STO\",\"op\":\"Delete\",\"target\":{\"all\":true},\"args\":{\"soft\":true},\"meta\":{\"confirmation\":true}}","[1]","{\"1\":{\"deleted\":0,\"deleted_at\":null}}","{\"1\":{\"deleted\":1,\"deleted_at\":\"2025-10-21T00:00:00Z\"}}"]

-- warning no-match at 5:6-5:76 [2] (target): Lock: the target matches no live record
