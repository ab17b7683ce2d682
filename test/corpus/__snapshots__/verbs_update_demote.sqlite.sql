-- verbs_update_demote.t2m explained on a fresh sqlite store, clock 2025-10-21T00:00:00Z

-- transaction 1: statements [1]-[6], would commit

-- [1] Encode: ids 1
INSERT INTO "memory" ("text", "type", "tags", "facets", "source", "auto_frequency", "expire_at", "next_auto_update_at", "read_perm_level", "write_perm_level", "time", "owner", "created_at", "updated_at", "deleted", "embedding", "embedding_f32", "embedding_model", "tenant", "trace_id", "statement_index", "search_text") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id;
--   params ["Q4 budget: 2M USD","note","[\"budget\",\"Q4\"]","{}",null,null,null,null,null,null,"2025-10-01T09:00:00Z",null,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",0,null,"<vector of 256 floats, sha256 b3e3d820318a>","t2m-ngram-256","default","corpus-verbs_update_demote.t2m-1",0,"q4 budget 2m usd budget q4"]
INSERT INTO "audit_log" (tenant, trace_id, at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
--   params ["default","corpus-verbs_update_demote.t2m-1","2025-10-21T00:00:00Z",null,"Encode","{\"stage\":\"ENC\",\"op\":\"Encode\",\"args\":{\"payload\":{\"text\":\"Q4 budget: 2M USD\"},\"type\":\"note\",\"tags\":[\"budget\",\"Q4\"],\"time\":\"2025-10-01T09:00:00Z\"}}","[1]","{\"1\":null}","{\"1\":{\"id\":1,\"text\":\"Q4 budget: 2M USD\",\"type\":\"note\",\"tags\":[\"budget\",\"Q4\"],\"facets\":{},\"source\":null,\"auto_frequency\":null,\"expire_at\":null,\"next_auto_update_at\":null,\"read_perm_level\":null,\"write_perm_level\":null,\"time\":\"2025-10-01T09:00:00Z\",\"owner\":null,\"created_at\":\"2025-10-21T00:00:00Z\",\"updated_at\":\"2025-10-21T00:00:00Z\",\"deleted\":0,\"embedding_model\":\"t2m-ngram-256\",\"tenant\":\"default\",\"trace_id\":\"corpus-verbs_update_demote.t2m-1\",\"statement_index\":0}}"]

-- [2] Encode: ids 2
INSERT INTO "memory" ("text", "type", "tags", "facets", "source", "auto_frequency", "expire_at", "next_auto_update_at", "read_perm_level", "write_perm_level", "time", "owner", "created_at", "updated_at", "deleted", "embedding", "embedding_f32", "embedding_model", "tenant", "trace_id", "statement_index", "search_text") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id;
--   params ["Offsite venue: Lisbon, 12-13 June","note","[\"offsite\"]","{}",null,null,null,null,null,null,"2025-06-12T09:00:00Z",null,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",0,null,"<vector of 256 floats, sha256 ac0ad05833f4>","t2m-ngram-256","default","corpus-verbs_update_demote.t2m-1",1,"offsit venu lisbon 12 13 june offsit"]
INSERT INTO "audit_log" (tenant, trace_id, at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
--   params ["default","corpus-verbs_update_demote.t2m-1","2025-10-21T00:00:00Z",null,"Encode","{\"stage\":\"ENC\",\"op\":\"Encode\",\"args\":{\"payload\":{\"text\":\"Offsite venue: Lisbon, 12-13 June\"},\"type\":\"note\",\"tags\":[\"offsite\"],\"time\":\"2025-06-12T09:00:00Z\"}}","[2]","{\"2\":null}","{\"2\":{\"id\":2,\"text\":\"Offsite venue: Lisbon, 12-13 June\",\"type\":\"note\",\"tags\":[\"offsite\"],\"facets\":{},\"source\":null,\"auto_frequency\":null,\"expire_at\":null,\"next_auto_update_at\":null,\"read_perm_level\":null,\"write_perm_level\":null,\"time\":\"2025-06-12T09:00:00Z\",\"owner\":null,\"created_at\":\"2025-10-21T00:00:00Z\",\"updated_at\":\"2025-10-21T00:00:00Z\",\"deleted\":0,\"embedding_model\":\"t2m-ngram-256\",\"tenant\":\"default\",\"trace_id\":\"corpus-verbs_update_demote.t2m-1\",\"statement_index\":1}}"]

-- [3] Encode: ids 3
INSERT INTO "memory" ("text", "type", "tags", "facets", "source", "auto_frequency", "expire_at", "next_auto_update_at", "read_perm_level", "write_perm_level", "time", "owner", "created_at", "updated_at", "deleted", "embedding", "embedding_f32", "embedding_model", "tenant", "trace_id", "statement_index", "search_text") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id;
--   params ["Offsite agenda draft","note","[\"offsite\",\"draft\"]","{}",null,null,null,null,null,null,"2025-06-13T09:00:00Z",null,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",0,null,"<vector of 256 floats, sha256 fac8f7e2a3a6>","t2m-ngram-256","default","corpus-verbs_update_demote.t2m-1",2,"offsit agenda draft offsit draft"]
INSERT INTO "audit_log" (tenant, trace_id, at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
--   params ["default","corpus-verbs_update_demote.t2m-1","2025-10-21T00:00:00Z",null,"Encode","{\"stage\":\"ENC\",\"op\":\"Encode\",\"args\":{\"payload\":{\"text\":\"Offsite agenda draft\"},\"type\":\"note\",\"tags\":[\"offsite\",\"draft\"],\"time\":\"2025-06-13T09:00:00Z\"}}","[3]","{\"3\":null}","{\"3\":{\"id\":3,\"text\":\"Offsite agenda draft\",\"type\":\"note\",\"tags\":[\"offsite\",\"draft\"],\"facets\":{},\"source\":null,\"auto_frequency\":null,\"expire_at\":null,\"next_auto_update_at\":null,\"read_perm_level\":null,\"write_perm_level\":null,\"time\":\"2025-06-13T09:00:00Z\",\"owner\":null,\"created_at\":\"2025-10-21T00:00:00Z\",\"updated_at\":\"2025-10-21T00:00:00Z\",\"deleted\":0,\"embedding_model\":\"t2m-ngram-256\",\"tenant\":\"default\",\"trace_id\":\"corpus-verbs_update_demote.t2m-1\",\"statement_index\":2}}"]

-- [4] Update: ids 1
SELECT * FROM "memory" WHERE "tenant" = ? AND "deleted" = ? AND ("expire_at" IS NULL OR "expire_at" > ?) AND ("valid_to" IS NULL OR "valid_to" > ?) AND ("valid_from" IS NULL OR "valid_from" <= ?) AND "id" IN (?) ORDER BY "id" ASC;
--   params ["default",0,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",1]
UPDATE "memory" SET "text" = ?, "tags" = ?, "weight" = ?, "embedding_f32" = ?, "updated_at" = ?, "search_text" = ? WHERE "tenant" = ? AND "id" = ?;
--   params ["Q4 budget raised to 3M USD","[\"budget\",\"Q4\",\"approved\"]",0.8,"<vector of 256 floats, sha256 7d8c01444924>","2025-10-21T00:00:00Z","q4 budget rais 3m usd budget q4 approv","default",1]
INSERT INTO "audit_log" (tenant, trace_id, at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
--   params ["default","corpus-verbs_update_demote.t2m-1","2025-10-21T00:00:00Z",null,"Update","{\"stage\":\"STO\",\"op\":\"Update\",\"target\":{\"ids\":\"1\"},\"args\":{\"set\":{\"text\":\"Q4 budget raised to 3M USD\",\"tags\":[\"budget\",\"Q4\",\"approved\"],\"weight\":0.8}}}","[1]","{\"1\":{\"text\":\"Q4 budget: 2M USD\",\"tags\":[\"budget\",\"Q4\"],\"weight\":null}}","{\"1\":{\"text\":\"Q4 budget raised to 3M USD\",\"tags\":[\"budget\",\"Q4\",\"approved\"],\"weight\":0.8}}"]

-- [5] Demote: ids 3, 2
SELECT * FROM "memory" WHERE "tenant" = ? AND "deleted" = ? AND ("expire_at" IS NULL OR "expire_at" > ?) AND ("valid_to" IS NULL OR "valid_to" > ?) AND ("valid_from" IS NULL OR "valid_from" <= ?) AND "id" IN (SELECT memory_id FROM memory_tag WHERE tag = ?) ORDER BY "time" IS NULL, "time" DESC, "id" DESC LIMIT +?;
--   params ["default",0,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","offsite",10]
UPDATE "memory" SET "weight" = ?, "demote_reason" = ?, "updated_at" = ? WHERE "tenant" = ? AND "id" = ?;
--   params [0.1,"the offsite is over","2025-10-21T00:00:00Z","default",3]
UPDATE "memory" SET "weight" = ?, "demote_reason" = ?, "updated_at" = ? WHERE "tenant" = ? AND "id" = ?;
--   params [0.1,"the offsite is over","2025-10-21T00:00:00Z","default",2]
INSERT INTO "audit_log" (tenant, trace_id, at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
--   params ["default","corpus-verbs_update_demote.t2m-1","2025-10-21T00:00:00Z",null,"Demote","{\"stage\":\"STO\",\"op\":\"Demote\",\"target\":{\"filter\":{\"has_tags\":[\"offsite\"],\"limit\":10}},\"args\":{\"archive\":true,\"reason\":\"the offsite is over\"}}","[3,2]","{\"2\":{\"weight\":null,\"demote_reason\":null},\"3\":{\"weight\":null,\"demote_reason\":null}}","{\"2\":{\"weight\":0.1,\"demote_reason\":\"the offsite is over\"},\"3\":{\"weight\":0.1,\"demote_reason\":\"the offsite is over\"}}"]

-- [6] Retrieve: ids 1, 3, 2
SELECT * FROM "memory" WHERE "tenant" = ? AND "deleted" = ? AND ("expire_at" IS NULL OR "expire_at" > ?) AND ("valid_to" IS NULL OR "valid_to" > ?) AND ("valid_from" IS NULL OR "valid_from" <= ?) AND "type" = ? AND ("read_perm_level" IS NULL OR "read_perm_level" = ?) ORDER BY "time" IS NULL, "time" DESC, "id" DESC LIMIT +?;
--   params ["default",0,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","note","public",10]
