-- verbs_expire_delete.t2m explained on a fresh sqlite store, clock 2025-10-21T00:00:00Z

-- transaction 1: statements [1]-[7], would commit

-- [1] Encode: ids 1
INSERT INTO "memory" ("text", "type", "tags", "facets", "source", "auto_frequency", "expire_at", "next_auto_update_at", "read_perm_level", "write_perm_level", "time", "owner", "created_at", "updated_at", "deleted", "embedding", "embedding_f32", "embedding_model", "tenant", "trace_id", "statement_index", "search_text") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id;
--   params ["Hotel Wi-Fi password: sunny42","note","[\"travel\"]","{}",null,null,null,null,null,null,"2025-10-18T20:00:00Z",null,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",0,null,"<vector of 256 floats, sha256 dabe3c475ac8>","t2m-ngram-256","default","corpus-verbs_expire_delete.t2m-1",0,"hotel wi fi password sunny42 travel"]
INSERT INTO "audit_log" (tenant, trace_id, at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
--   params ["default","corpus-verbs_expire_delete.t2m-1","2025-10-21T00:00:00Z",null,"Encode","{\"stage\":\"ENC\",\"op\":\"Encode\",\"args\":{\"payload\":{\"text\":\"Hotel Wi-Fi password: sunny42\"},\"type\":\"note\",\"tags\":[\"travel\"],\"time\":\"2025-10-18T20:00:00Z\"}}","[1]","{\"1\":null}","{\"1\":{\"id\":1,\"text\":\"Hotel Wi-Fi password: sunny42\",\"type\":\"note\",\"tags\":[\"travel\"],\"facets\":{},\"source\":null,\"auto_frequency\":null,\"expire_at\":null,\"next_auto_update_at\":null,\"read_perm_level\":null,\"write_perm_level\":null,\"time\":\"2025-10-18T20:00:00Z\",\"owner\":null,\"created_at\":\"2025-10-21T00:00:00Z\",\"updated_at\":\"2025-10-21T00:00:00Z\",\"deleted\":0,\"embedding_model\":\"t2m-ngram-256\",\"tenant\":\"default\",\"trace_id\":\"corpus-verbs_expire_delete.t2m-1\",\"statement_index\":0}}"]

-- [2] Encode: ids 2
INSERT INTO "memory" ("text", "type", "tags", "facets", "source", "auto_frequency", "expire_at", "next_auto_update_at", "read_perm_level", "write_perm_level", "time", "owner", "created_at", "updated_at", "deleted", "embedding", "embedding_f32", "embedding_model", "tenant", "trace_id", "statement_index", "search_text") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id;
--   params ["Flight TP1351 boards at 07:40","note","[\"travel\",\"flight\"]","{}",null,null,null,null,null,null,"2025-10-19T07:00:00Z",null,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",0,null,"<vector of 256 floats, sha256 55a71a4e9d81>","t2m-ngram-256","default","corpus-verbs_expire_delete.t2m-1",1,"flight tp1351 board 07 40 travel flight"]
INSERT INTO "audit_log" (tenant, trace_id, at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
--   params ["default","corpus-verbs_expire_delete.t2m-1","2025-10-21T00:00:00Z",null,"Encode","{\"stage\":\"ENC\",\"op\":\"Encode\",\"args\":{\"payload\":{\"text\":\"Flight TP1351 boards at 07:40\"},\"type\":\"note\",\"tags\":[\"travel\",\"flight\"],\"time\":\"2025-10-19T07:00:00Z\"}}","[2]","{\"2\":null}","{\"2\":{\"id\":2,\"text\":\"Flight TP1351 boards at 07:40\",\"type\":\"note\",\"tags\":[\"travel\",\"flight\"],\"facets\":{},\"source\":null,\"auto_frequency\":null,\"expire_at\":null,\"next_auto_update_at\":null,\"read_perm_level\":null,\"write_perm_level\":null,\"time\":\"2025-10-19T07:00:00Z\",\"owner\":null,\"created_at\":\"2025-10-21T00:00:00Z\",\"updated_at\":\"2025-10-21T00:00:00Z\",\"deleted\":0,\"embedding_model\":\"t2m-ngram-256\",\"tenant\":\"default\",\"trace_id\":\"corpus-verbs_expire_delete.t2m-1\",\"statement_index\":1}}"]

-- [3] Encode: ids 3
INSERT INTO "memory" ("text", "type", "tags", "facets", "source", "auto_frequency", "expire_at", "next_auto_update_at", "read_perm_level", "write_perm_level", "time", "owner", "created_at", "updated_at", "deleted", "embedding", "embedding_f32", "embedding_model", "tenant", "trace_id", "statement_index", "search_text") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id;
--   params ["Try the new espresso place","note","[\"tmp\"]","{}",null,null,null,null,null,null,"2025-10-20T12:00:00Z",null,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",0,null,"<vector of 256 floats, sha256 6f5f6143eb52>","t2m-ngram-256","default","corpus-verbs_expire_delete.t2m-1",2,"try new espresso place tmp"]
INSERT INTO "audit_log" (tenant, trace_id, at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
--   params ["default","corpus-verbs_expire_delete.t2m-1","2025-10-21T00:00:00Z",null,"Encode","{\"stage\":\"ENC\",\"op\":\"Encode\",\"args\":{\"payload\":{\"text\":\"Try the new espresso place\"},\"type\":\"note\",\"tags\":[\"tmp\"],\"time\":\"2025-10-20T12:00:00Z\"}}","[3]","{\"3\":null}","{\"3\":{\"id\":3,\"text\":\"Try the new espresso place\",\"type\":\"note\",\"tags\":[\"tmp\"],\"facets\":{},\"source\":null,\"auto_frequency\":null,\"expire_at\":null,\"next_auto_update_at\":null,\"read_perm_level\":null,\"write_perm_level\":null,\"time\":\"2025-10-20T12:00:00Z\",\"owner\":null,\"created_at\":\"2025-10-21T00:00:00Z\",\"updated_at\":\"2025-10-21T00:00:00Z\",\"deleted\":0,\"embedding_model\":\"t2m-ngram-256\",\"tenant\":\"default\",\"trace_id\":\"corpus-verbs_expire_delete.t2m-1\",\"statement_index\":2}}"]

-- [4] Expire: ids 2, 1
SELECT * FROM "memory" WHERE "tenant" = ? AND "deleted" = ? AND ("expire_at" IS NULL OR "expire_at" > ?) AND ("valid_to" IS NULL OR "valid_to" > ?) AND ("valid_from" IS NULL OR "valid_from" <= ?) AND "id" IN (SELECT memory_id FROM memory_tag WHERE tag = ?) ORDER BY "time" IS NULL, "time" DESC, "id" DESC LIMIT +?;
--   params ["default",0,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","travel",10]
UPDATE "memory" SET "expire_at" = ?, "expire_action" = ?, "expire_reason" = ?, "updated_at" = ? WHERE "tenant" = ? AND "id" = ?;
--   params ["2025-11-20T00:00:00Z","anonymize","trip data","2025-10-21T00:00:00Z","default",2]
UPDATE "memory" SET "expire_at" = ?, "expire_action" = ?, "expire_reason" = ?, "updated_at" = ? WHERE "tenant" = ? AND "id" = ?;
--   params ["2025-11-20T00:00:00Z","anonymize","trip data","2025-10-21T00:00:00Z","default",1]
INSERT INTO "audit_log" (tenant, trace_id, at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
--   params ["default","corpus-verbs_expire_delete.t2m-1","2025-10-21T00:00:00Z",null,"Expire","{\"stage\":\"STO\",\"op\":\"Expire\",\"target\":{\"filter\":{\"has_tags\":[\"travel\"],\"limit\":10}},\"args\":{\"ttl\":\"P30D\",\"on_expire\":\"anonymize\",\"reason\":\"trip data\"}}","[2,1]","{\"1\":{\"expire_at\":null,\"expire_action\":null,\"expire_reason\":null},\"2\":{\"expire_at\":null,\"expire_action\":null,\"expire_reason\":null}}","{\"1\":{\"expire_at\":\"2025-11-20T00:00:00Z\",\"expire_action\":\"anonymize\",\"expire_reason\":\"trip data\"},\"2\":{\"expire_at\":\"2025-11-20T00:00:00Z\",\"expire_action\":\"anonymize\",\"expire_reason\":\"trip data\"}}"]

-- [5] Expire: ids 2
SELECT * FROM "memory" WHERE "tenant" = ? AND "deleted" = ? AND ("expire_at" IS NULL OR "expire_at" > ?) AND ("valid_to" IS NULL OR "valid_to" > ?) AND ("valid_from" IS NULL OR "valid_from" <= ?) AND "id" IN (?) ORDER BY "id" ASC;
--   params ["default",0,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",2]
UPDATE "memory" SET "expire_at" = ?, "expire_action" = ?, "expire_reason" = ?, "updated_at" = ? WHERE "tenant" = ? AND "id" = ?;
--   params ["2025-10-20T00:00:00Z","hard_delete",null,"2025-10-21T00:00:00Z","default",2]
INSERT INTO "audit_log" (tenant, trace_id, at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
--   params ["default","corpus-verbs_expire_delete.t2m-1","2025-10-21T00:00:00Z",null,"Expire","{\"stage\":\"STO\",\"op\":\"Expire\",\"target\":{\"ids\":\"2\"},\"args\":{\"until\":\"2025-10-20T00:00:00Z\",\"on_expire\":\"hard_delete\"}}","[2]","{\"2\":{\"expire_at\":\"2025-11-20T00:00:00Z\",\"expire_action\":\"anonymize\",\"expire_reason\":\"trip data\"}}","{\"2\":{\"expire_at\":\"2025-10-20T00:00:00Z\",\"expire_action\":\"hard_delete\",\"expire_reason\":null}}"]

-- [6] Delete: ids 3
SELECT * FROM "memory" WHERE "tenant" = ? AND "deleted" = ? AND ("expire_at" IS NULL OR "expire_at" > ?) AND ("valid_to" IS NULL OR "valid_to" > ?) AND ("valid_from" IS NULL OR "valid_from" <= ?) AND "id" IN (SELECT memory_id FROM memory_tag WHERE tag = ?) ORDER BY "time" IS NULL, "time" DESC, "id" DESC LIMIT +?;
--   params ["default",0,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","tmp",10]
UPDATE "memory" SET "deleted" = ?, "deleted_at" = ?, "updated_at" = ? WHERE "tenant" = ? AND "id" = ?;
--   params [1,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","default",3]
INSERT INTO "audit_log" (tenant, trace_id, at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
--   params ["default","corpus-verbs_expire_delete.t2m-1","2025-10-21T00:00:00Z",null,"Delete","{\"stage\":\"STO\",\"op\":\"Delete\",\"target\":{\"filter\":{\"has_tags\":[\"tmp\"],\"limit\":10}},\"args\":{\"soft\":true,\"reason\":\"scratch cleanup\"}}","[3]","{\"3\":{\"deleted\":0,\"deleted_at\":null}}","{\"3\":{\"deleted\":1,\"deleted_at\":\"2025-10-21T00:00:00Z\"}}"]

-- [7] Retrieve: ids 1
SELECT * FROM "memory" WHERE "tenant" = ? AND "deleted" = ? AND ("expire_at" IS NULL OR "expire_at" > ?) AND ("valid_to" IS NULL OR "valid_to" > ?) AND ("valid_from" IS NULL OR "valid_from" <= ?) AND "type" = ? AND ("read_perm_level" IS NULL OR "read_perm_level" = ?) ORDER BY "time" IS NULL, "time" DESC, "id" DESC LIMIT +?;
--   params ["default",0,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","note","public",10]

-- warning expires-immediately at 8:1-8:59 [5]: the expiry time 2025-10-20T00:00:00Z is not after now (2025-10-21T00:00:00Z); the records are hidden at once
