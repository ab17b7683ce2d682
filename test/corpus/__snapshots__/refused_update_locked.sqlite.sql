-- refused_update_locked.t2m explained on a fresh sqlite store, clock 2025-10-21T00:00:00Z

-- transaction 1: statements [1]-[2], would commit

-- [1] Encode: ids 1
INSERT INTO "memory" ("text", "type", "tags", "facets", "source", "auto_frequency", "expire_at", "next_auto_update_at", "read_perm_level", "write_perm_level", "time", "owner", "created_at", "updated_at", "deleted", "embedding", "embedding_f32", "embedding_model", "tenant", "trace_id", "statement_index", "search_text") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id;
--   params ["Incident 812 timeline: 03:10 alert, 03:42 restored","incident","[\"incident:812\"]","{}",null,null,null,null,null,null,"2025-10-20T03:42:00Z",null,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",0,null,"<vector of 256 floats, sha256 3c8edb396069>","t2m-ngram-256","default","corpus-refused_update_locked.t2m-1",0,"incid 812 timelin 03 10 alert 03 42 restor incid 812"]
INSERT INTO "audit_log" (tenant, trace_id, at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
--   params ["default","corpus-refused_update_locked.t2m-1","2025-10-21T00:00:00Z",null,"Encode","{\"stage\":\"ENC\",\"op\":\"Encode\",\"args\":{\"payload\":{\"text\":\"Incident 812 timeline: 03:10 alert, 03:42 restored\"},\"type\":\"incident\",\"tags\":[\"incident:812\"],\"time\":\"2025-10-20T03:42:00Z\"}}","[1]","{\"1\":null}","{\"1\":{\"id\":1,\"text\":\"Incident 812 timeline: 03:10 alert, 03:42 restored\",\"type\":\"incident\",\"tags\":[\"incident:812\"],\"facets\":{},\"source\":null,\"auto_frequency\":null,\"expire_at\":null,\"next_auto_update_at\":null,\"read_perm_level\":null,\"write_perm_level\":null,\"time\":\"2025-10-20T03:42:00Z\",\"owner\":null,\"created_at\":\"2025-10-21T00:00:00Z\",\"updated_at\":\"2025-10-21T00:00:00Z\",\"deleted\":0,\"embedding_model\":\"t2m-ngram-256\",\"tenant\":\"default\",\"trace_id\":\"corpus-refused_update_locked.t2m-1\",\"statement_index\":0}}"]

-- [2] Lock: ids 1
SELECT * FROM "memory" WHERE "tenant" = ? AND "deleted" = ? AND ("expire_at" IS NULL OR "expire_at" > ?) AND ("valid_to" IS NULL OR "valid_to" > ?) AND ("valid_from" IS NULL OR "valid_from" <= ?) AND "id" IN (SELECT memory_id FROM memory_tag WHERE tag = ?) ORDER BY "time" IS NULL, "time" DESC, "id" DESC LIMIT +?;
--   params ["default",0,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","incident:812",10]
UPDATE "memory" SET "lock_mode" = ?, "lock_reason" = ?, "updated_at" = ? WHERE "tenant" = ? AND "id" = ?;
--   params ["read_only","postmortem audit","2025-10-21T00:00:00Z","default",1]
INSERT INTO "audit_log" (tenant, trace_id, at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
--   params ["default","corpus-refused_update_locked.t2m-1","2025-10-21T00:00:00Z","sre-ling","Lock","{\"stage\":\"STO\",\"op\":\"Lock\",\"target\":{\"filter\":{\"has_tags\":[\"incident:812\"],\"limit\":10}},\"args\":{\"mode\":\"read_only\",\"reason\":\"postmortem audit\"},\"meta\":{\"actor\":\"sre-ling\"}}","[1]","{\"1\":{\"lock_mode\":null,\"lock_reason\":null}}","{\"1\":{\"lock_mode\":\"read_only\",\"lock_reason\":\"postmortem audit\"}}"]


-- transaction 2: statements [3]-[4], would be refused

-- [3] Encode: ids 2
INSERT INTO "memory" ("text", "type", "tags", "facets", "source", "auto_frequency", "expire_at", "next_auto_update_at", "read_perm_level", "write_perm_level", "time", "owner", "created_at", "updated_at", "deleted", "embedding", "embedding_f32", "embedding_model", "tenant", "trace_id", "statement_index", "search_text") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id;
--   params ["Postmortem draft for incident 812","note","[\"postmortem\"]","{}",null,null,null,null,null,null,"2025-10-20T09:00:00Z",null,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",0,null,"<vector of 256 floats, sha256 e806300ecb91>","t2m-ngram-256","default","corpus-refused_update_locked.t2m-2",0,"postmortem draft incid 812 postmortem"]
INSERT INTO "audit_log" (tenant, trace_id, at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
--   params ["default","corpus-refused_update_locked.t2m-2","2025-10-21T00:00:00Z",null,"Encode","{\"stage\":\"ENC\",\"op\":\"Encode\",\"args\":{\"payload\":{\"text\":\"Postmortem draft for incident 812\"},\"type\":\"note\",\"tags\":[\"postmortem\"],\"time\":\"2025-10-20T09:00:00Z\"}}","[2]","{\"2\":null}","{\"2\":{\"id\":2,\"text\":\"Postmortem draft for incident 812\",\"type\":\"note\",\"tags\":[\"postmortem\"],\"facets\":{},\"source\":null,\"auto_frequency\":null,\"expire_at\":null,\"next_auto_update_at\":null,\"read_perm_level\":null,\"write_perm_level\":null,\"time\":\"2025-10-20T09:00:00Z\",\"owner\":null,\"created_at\":\"2025-10-21T00:00:00Z\",\"updated_at\":\"2025-10-21T00:00:00Z\",\"deleted\":0,\"embedding_model\":\"t2m-ngram-256\",\"tenant\":\"default\",\"trace_id\":\"corpus-refused_update_locked.t2m-2\",\"statement_index\":0}}"]

-- error record-locked at 13:1-13:71 [4]: Update refused: memory #1 is locked read_only (reason: postmortem audit); it is read-only
