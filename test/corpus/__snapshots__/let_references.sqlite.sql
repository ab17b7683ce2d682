-- let_references.t2m explained on a fresh sqlite store, clock 2025-10-21T00:00:00Z

-- transaction 1: statements [1]-[8], would commit

-- [1] Encode: ids 1
INSERT INTO "memory" ("text", "type", "tags", "facets", "source", "auto_frequency", "expire_at", "next_auto_update_at", "read_perm_level", "write_perm_level", "time", "owner", "created_at", "updated_at", "deleted", "embedding", "embedding_f32", "embedding_model", "search_text") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id;
--   params ["Old sprint plan.","note","[\"sprint\"]","{}",null,null,null,null,null,null,"2025-09-01T09:00:00Z",null,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",0,null,"<vector of 256 floats, sha256 8daf02fef136>","t2m-ngram-256","old sprint plan sprint"]
INSERT INTO "audit_log" (at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?);
--   params ["2025-10-21T00:00:00Z",null,"Encode","{\"stage\":\"ENC\",\"op\":\"Encode\",\"args\":{\"payload\":{\"text\":\"Old sprint plan.\"},\"type\":\"note\",\"tags\":[\"sprint\"],\"time\":\"2025-09-01T09:00:00Z\"}}","[1]","{\"1\":null}","{\"1\":{\"id\":1,\"text\":\"Old sprint plan.\",\"type\":\"note\",\"tags\":[\"sprint\"],\"facets\":{},\"source\":null,\"auto_frequency\":null,\"expire_at\":null,\"next_auto_update_at\":null,\"read_perm_level\":null,\"write_perm_level\":null,\"time\":\"2025-09-01T09:00:00Z\",\"owner\":null,\"created_at\":\"2025-10-21T00:00:00Z\",\"updated_at\":\"2025-10-21T00:00:00Z\",\"deleted\":0,\"embedding_model\":\"t2m-ngram-256\"}}"]

-- [2] Encode: ids 2
INSERT INTO "memory" ("text", "type", "tags", "facets", "source", "auto_frequency", "expire_at", "next_auto_update_at", "read_perm_level", "write_perm_level", "time", "owner", "created_at", "updated_at", "deleted", "embedding", "embedding_f32", "embedding_model", "search_text") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id;
--   params ["Sprint 42 plan. Ship search filters. Fix the export bug.","note","[\"sprint\"]","{}",null,null,null,null,null,null,"2025-10-20T09:00:00Z",null,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",0,null,"<vector of 256 floats, sha256 c0a128e6f0c6>","t2m-ngram-256","sprint 42 plan ship search filter fix export bug sprint"]
INSERT INTO "audit_log" (at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?);
--   params ["2025-10-21T00:00:00Z",null,"Encode","{\"stage\":\"ENC\",\"op\":\"Encode\",\"args\":{\"payload\":{\"text\":\"Sprint 42 plan. Ship search filters. Fix the export bug.\"},\"type\":\"note\",\"tags\":[\"sprint\"],\"time\":\"2025-10-20T09:00:00Z\"},\"_let\":\"plan\"}","[2]","{\"2\":null}","{\"2\":{\"id\":2,\"text\":\"Sprint 42 plan. Ship search filters. Fix the export bug.\",\"type\":\"note\",\"tags\":[\"sprint\"],\"facets\":{},\"source\":null,\"auto_frequency\":null,\"expire_at\":null,\"next_auto_update_at\":null,\"read_perm_level\":null,\"write_perm_level\":null,\"time\":\"2025-10-20T09:00:00Z\",\"owner\":null,\"created_at\":\"2025-10-21T00:00:00Z\",\"updated_at\":\"2025-10-21T00:00:00Z\",\"deleted\":0,\"embedding_model\":\"t2m-ngram-256\"}}"]

-- [3] Expire: ids 2
SELECT * FROM "memory" WHERE "deleted" = ? AND ("expire_at" IS NULL OR "expire_at" > ?) AND "id" IN (?) ORDER BY "id" ASC;
--   params [0,"2025-10-21T00:00:00Z",2]
UPDATE "memory" SET "expire_at" = ?, "expire_action" = ?, "updated_at" = ? WHERE "id" = ?;
--   params ["2025-11-04T00:00:00Z","soft_delete","2025-10-21T00:00:00Z",2]
INSERT INTO "audit_log" (at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?);
--   params ["2025-10-21T00:00:00Z",null,"Expire","{\"stage\":\"STO\",\"op\":\"Expire\",\"target\":{\"ids\":[\"2\"]},\"args\":{\"ttl\":\"P14D\"}}","[2]","{\"2\":{\"expire_at\":null,\"expire_action\":null}}","{\"2\":{\"expire_at\":\"2025-11-04T00:00:00Z\",\"expire_action\":\"soft_delete\"}}"]

-- [4] Split: ids 2, 3, 4, 5
SELECT * FROM "memory" WHERE "deleted" = ? AND ("expire_at" IS NULL OR "expire_at" > ?) AND "id" IN (?) ORDER BY "id" ASC;
--   params [0,"2025-10-21T00:00:00Z",2]
INSERT INTO "memory" ("text", "type", "tags", "facets", "time", "subject", "location", "topic", "source", "weight", "expire_at", "expire_action", "expire_reason", "read_perm_level", "write_perm_level", "read_whitelist", "read_blacklist", "write_whitelist", "write_blacklist", "owner", "lineage_parents", "created_at", "updated_at", "deleted", "embedding", "embedding_f32", "embedding_model", "search_text") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id;
--   params ["Sprint 42 plan.","note","[\"sprint\"]","{}","2025-10-20T09:00:00Z",null,null,null,null,null,"2025-11-04T00:00:00Z","soft_delete",null,null,null,null,null,null,null,null,"[2]","2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",0,null,"<vector of 256 floats, sha256 733bf2011979>","t2m-ngram-256","sprint 42 plan sprint"]
INSERT INTO "memory" ("text", "type", "tags", "facets", "time", "subject", "location", "topic", "source", "weight", "expire_at", "expire_action", "expire_reason", "read_perm_level", "write_perm_level", "read_whitelist", "read_blacklist", "write_whitelist", "write_blacklist", "owner", "lineage_parents", "created_at", "updated_at", "deleted", "embedding", "embedding_f32", "embedding_model", "search_text") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id;
--   params ["Ship search filters.","note","[\"sprint\"]","{}","2025-10-20T09:00:00Z",null,null,null,null,null,"2025-11-04T00:00:00Z","soft_delete",null,null,null,null,null,null,null,null,"[2]","2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",0,null,"<vector of 256 floats, sha256 1e7909daff4b>","t2m-ngram-256","ship search filter sprint"]
INSERT INTO "memory" ("text", "type", "tags", "facets", "time", "subject", "location", "topic", "source", "weight", "expire_at", "expire_action", "expire_reason", "read_perm_level", "write_perm_level", "read_whitelist", "read_blacklist", "write_whitelist", "write_blacklist", "owner", "lineage_parents", "created_at", "updated_at", "deleted", "embedding", "embedding_f32", "embedding_model", "search_text") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id;
--   params ["Fix the export bug.","note","[\"sprint\"]","{}","2025-10-20T09:00:00Z",null,null,null,null,null,"2025-11-04T00:00:00Z","soft_delete",null,null,null,null,null,null,null,null,"[2]","2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",0,null,"<vector of 256 floats, sha256 cdd510c34ec5>","t2m-ngram-256","fix export bug sprint"]
UPDATE "memory" SET "lineage_children" = ?, "deleted" = ?, "deleted_at" = ?, "updated_at" = ? WHERE "id" = ?;
--   params ["[3,4,5]",1,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",2]
INSERT INTO "audit_log" (at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?);
--   params ["2025-10-21T00:00:00Z",null,"Split","{\"stage\":\"STO\",\"op\":\"Split\",\"target\":{\"ids\":[\"2\"]},\"args\":{\"strategy\":\"by_sentences\"},\"_let\":\"items\"}","[3,4,5,2]","{\"2\":{\"lineage_children\":null,\"deleted\":0,\"deleted_at\":null},\"3\":null,\"4\":null,\"5\":null}","{\"2\":{\"lineage_children\":[3,4,5],\"deleted\":1,\"deleted_at\":\"2025-10-21T00:00:00Z\"},\"3\":{\"id\":3,\"text\":\"Sprint 42 plan.\",\"type\":\"note\",\"tags\":[\"sprint\"],\"facets\":{},\"time\":\"2025-10-20T09:00:00Z\",\"subject\":null,\"location\":null,\"topic\":null,\"source\":null,\"weight\":null,\"expire_at\":\"2025-11-04T00:00:00Z\",\"expire_action\":\"soft_delete\",\"expire_reason\":null,\"read_perm_level\":null,\"write_perm_level\":null,\"read_whitelist\":null,\"read_blacklist\":null,\"write_whitelist\":null,\"write_blacklist\":null,\"owner\":null,\"lineage_parents\":[2],\"created_at\":\"2025-10-21T00:00:00Z\",\"updated_at\":\"2025-10-21T00:00:00Z\",\"deleted\":0,\"embedding_model\":\"t2m-ngram-256\"},\"4\":{\"id\":4,\"text\":\"Ship search filters.\",\"type\":\"note\",\"tags\":[\"sprint\"],\"facets\":{},\"time\":\"2025-10-20T09:00:00Z\",\"subject\":null,\"location\":null,\"topic\":null,\"source\":null,\"weight\":null,\"expire_at\":\"2025-11-04T00:00:00Z\",\"expire_action\":\"soft_delete\",\"expire_reason\":null,\"read_perm_level\":null,\"write_perm_level\":null,\"read_whitelist\":null,\"read_blacklist\":null,\"write_whitelist\":null,\"write_blacklist\":null,\"owner\":null,\"lineage_parents\":[2],\"created_at\":\"2025-10-21T00:00:00Z\",\"updated_at\":\"2025-10-21T00:00:00Z\",\"deleted\":0,\"embedding_model\":\"t2m-ngram-256\"},\"5\":{\"id\":5,\"text\":\"Fix the export bug.\",\"type\":\"note\",\"tags\":[\"sprint\"],\"facets\":{},\"time\":\"2025-10-20T09:00:00Z\",\"subject\":null,\"location\":null,\"topic\":null,\"source\":null,\"weight\":null,\"expire_at\":\"2025-11-04T00:00:00Z\",\"expire_action\":\"soft_delete\",\"expire_reason\":null,\"read_perm_level\":null,\"write_perm_level\":null,\"read_whitelist\":null,\"read_blacklist\":null,\"write_whitelist\":null,\"write_blacklist\":null,\"owner\":null,\"lineage_parents\":[2],\"created_at\":\"2025-10-21T00:00:00Z\",\"updated_at\":\"2025-10-21T00:00:00Z\",\"deleted\":0,\"embedding_model\":\"t2m-ngram-256\"}}"]

-- [5] Label: ids 3, 4, 5
SELECT * FROM "memory" WHERE "deleted" = ? AND ("expire_at" IS NULL OR "expire_at" > ?) AND "id" IN (?, ?, ?) ORDER BY "id" ASC;
--   params [0,"2025-10-21T00:00:00Z",3,4,5]
UPDATE "memory" SET "tags" = ?, "updated_at" = ?, "search_text" = ? WHERE "id" = ?;
--   params ["[\"sprint\",\"sprint:item\"]","2025-10-21T00:00:00Z","sprint 42 plan sprint sprint item",3]
UPDATE "memory" SET "tags" = ?, "updated_at" = ?, "search_text" = ? WHERE "id" = ?;
--   params ["[\"sprint\",\"sprint:item\"]","2025-10-21T00:00:00Z","ship search filter sprint sprint item",4]
UPDATE "memory" SET "tags" = ?, "updated_at" = ?, "search_text" = ? WHERE "id" = ?;
--   params ["[\"sprint\",\"sprint:item\"]","2025-10-21T00:00:00Z","fix export bug sprint sprint item",5]
INSERT INTO "audit_log" (at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?);
--   params ["2025-10-21T00:00:00Z",null,"Label","{\"stage\":\"STO\",\"op\":\"Label\",\"target\":{\"ids\":[\"3\",\"4\",\"5\"]},\"args\":{\"tags\":[\"sprint:item\"]},\"_let\":\"labelled\"}","[3,4,5]","{\"3\":{\"tags\":[\"sprint\"]},\"4\":{\"tags\":[\"sprint\"]},\"5\":{\"tags\":[\"sprint\"]}}","{\"3\":{\"tags\":[\"sprint\",\"sprint:item\"]},\"4\":{\"tags\":[\"sprint\",\"sprint:item\"]},\"5\":{\"tags\":[\"sprint\",\"sprint:item\"]}}"]

-- [6] Merge: ids 3, 4, 5
SELECT * FROM "memory" WHERE "deleted" = ? AND ("expire_at" IS NULL OR "expire_at" > ?) AND "id" IN (?, ?, ?) ORDER BY "id" ASC;
--   params [0,"2025-10-21T00:00:00Z",3,4,5]
UPDATE "memory" SET "text" = ?, "lineage_children" = ?, "embedding_f32" = ?, "updated_at" = ?, "search_text" = ? WHERE "id" = ?;
--   params ["Sprint 42 plan.\nShip search filters.\nFix the export bug.","[4,5]","<vector of 256 floats, sha256 c0a128e6f0c6>","2025-10-21T00:00:00Z","sprint 42 plan ship search filter fix export bug sprint sprint item",3]
UPDATE "memory" SET "lineage_parents" = ?, "deleted" = ?, "deleted_at" = ?, "updated_at" = ? WHERE "id" = ?;
--   params ["[2,3]",1,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",4]
UPDATE "memory" SET "lineage_parents" = ?, "deleted" = ?, "deleted_at" = ?, "updated_at" = ? WHERE "id" = ?;
--   params ["[2,3]",1,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",5]
INSERT INTO "audit_log" (at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?);
--   params ["2025-10-21T00:00:00Z",null,"Merge","{\"stage\":\"STO\",\"op\":\"Merge\",\"target\":{\"ids\":[\"3\",\"4\",\"5\"]},\"args\":{\"primary_id\":\"auto\"},\"_let\":\"merged\"}","[3,4,5]","{\"3\":{\"text\":\"Sprint 42 plan.\",\"lineage_children\":null},\"4\":{\"lineage_parents\":[2],\"deleted\":0,\"deleted_at\":null},\"5\":{\"lineage_parents\":[2],\"deleted\":0,\"deleted_at\":null}}","{\"3\":{\"text\":\"Sprint 42 plan.\\nShip search filters.\\nFix the export bug.\",\"lineage_children\":[4,5]},\"4\":{\"lineage_parents\":[2,3],\"deleted\":1,\"deleted_at\":\"2025-10-21T00:00:00Z\"},\"5\":{\"lineage_parents\":[2,3],\"deleted\":1,\"deleted_at\":\"2025-10-21T00:00:00Z\"}}"]

-- [7] Retrieve: ids 3
SELECT * FROM "memory" WHERE "deleted" = ? AND ("expire_at" IS NULL OR "expire_at" > ?) AND "id" IN (?) AND ("read_perm_level" IS NULL OR "read_perm_level" = ?) ORDER BY "id" ASC LIMIT ?;
--   params [0,"2025-10-21T00:00:00Z",3,"public",10001]

-- [8] Promote: ids 3
SELECT * FROM "memory" WHERE "deleted" = ? AND ("expire_at" IS NULL OR "expire_at" > ?) AND "id" IN (?) ORDER BY "id" ASC;
--   params [0,"2025-10-21T00:00:00Z",3]
UPDATE "memory" SET "weight" = ?, "updated_at" = ? WHERE "id" = ?;
--   params [0.9,"2025-10-21T00:00:00Z",3]
INSERT INTO "audit_log" (at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?);
--   params ["2025-10-21T00:00:00Z",null,"Promote","{\"stage\":\"STO\",\"op\":\"Promote\",\"target\":{\"ids\":[\"3\"]},\"args\":{\"weight\":0.9}}","[3]","{\"3\":{\"weight\":null}}","{\"3\":{\"weight\":0.9}}"]
