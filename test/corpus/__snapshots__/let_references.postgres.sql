-- let_references.t2m explained on a fresh postgres store, clock 2025-10-21T00:00:00Z

-- transaction 1: statements [1]-[8], would commit

-- [1] Encode: ids 1
INSERT INTO "memory" ("text", "type", "tags", "facets", "source", "auto_frequency", "expire_at", "next_auto_update_at", "read_perm_level", "write_perm_level", "time", "owner", "created_at", "updated_at", "deleted", "embedding", "embedding_model") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) RETURNING id;
--   params ["Old sprint plan.","note","[\"sprint\"]","{}",null,null,null,null,null,null,"2025-09-01T09:00:00Z",null,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",0,"<vector of 64 numbers, sha256 84ded9017e4b>","t2m-hash-64"]
INSERT INTO "audit_log" (at, actor, op, ir, affected_ids, before, after) VALUES ($1, $2, $3, $4, $5, $6, $7);
--   params ["2025-10-21T00:00:00Z",null,"Encode","{\"stage\":\"ENC\",\"op\":\"Encode\",\"args\":{\"payload\":{\"text\":\"Old sprint plan.\"},\"type\":\"note\",\"tags\":[\"sprint\"],\"time\":\"2025-09-01T09:00:00Z\"}}","[1]","{\"1\":null}","{\"1\":{\"id\":1,\"text\":\"Old sprint plan.\",\"type\":\"note\",\"tags\":[\"sprint\"],\"facets\":{},\"source\":null,\"auto_frequency\":null,\"expire_at\":null,\"next_auto_update_at\":null,\"read_perm_level\":null,\"write_perm_level\":null,\"time\":\"2025-09-01T09:00:00Z\",\"owner\":null,\"created_at\":\"2025-10-21T00:00:00Z\",\"updated_at\":\"2025-10-21T00:00:00Z\",\"deleted\":0,\"embedding_model\":\"t2m-hash-64\"}}"]

-- [2] Encode: ids 2
INSERT INTO "memory" ("text", "type", "tags", "facets", "source", "auto_frequency", "expire_at", "next_auto_update_at", "read_perm_level", "write_perm_level", "time", "owner", "created_at", "updated_at", "deleted", "embedding", "embedding_model") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) RETURNING id;
--   params ["Sprint 42 plan. Ship search filters. Fix the export bug.","note","[\"sprint\"]","{}",null,null,null,null,null,null,"2025-10-20T09:00:00Z",null,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",0,"<vector of 64 numbers, sha256 22eeee568d34>","t2m-hash-64"]
INSERT INTO "audit_log" (at, actor, op, ir, affected_ids, before, after) VALUES ($1, $2, $3, $4, $5, $6, $7);
--   params ["2025-10-21T00:00:00Z",null,"Encode","{\"stage\":\"ENC\",\"op\":\"Encode\",\"args\":{\"payload\":{\"text\":\"Sprint 42 plan. Ship search filters. Fix the export bug.\"},\"type\":\"note\",\"tags\":[\"sprint\"],\"time\":\"2025-10-20T09:00:00Z\"},\"_let\":\"plan\"}","[2]","{\"2\":null}","{\"2\":{\"id\":2,\"text\":\"Sprint 42 plan. Ship search filters. Fix the export bug.\",\"type\":\"note\",\"tags\":[\"sprint\"],\"facets\":{},\"source\":null,\"auto_frequency\":null,\"expire_at\":null,\"next_auto_update_at\":null,\"read_perm_level\":null,\"write_perm_level\":null,\"time\":\"2025-10-20T09:00:00Z\",\"owner\":null,\"created_at\":\"2025-10-21T00:00:00Z\",\"updated_at\":\"2025-10-21T00:00:00Z\",\"deleted\":0,\"embedding_model\":\"t2m-hash-64\"}}"]

-- [3] Expire: ids 2
SELECT * FROM "memory" WHERE "deleted" = $1 AND ("expire_at" IS NULL OR "expire_at" > $2) AND "id" IN ($3) ORDER BY "id" ASC;
--   params [0,"2025-10-21T00:00:00Z",2]
UPDATE "memory" SET "expire_at" = $1, "expire_action" = $2, "updated_at" = $3 WHERE "id" = $4;
--   params ["2025-11-04T00:00:00Z","soft_delete","2025-10-21T00:00:00Z",2]
INSERT INTO "audit_log" (at, actor, op, ir, affected_ids, before, after) VALUES ($1, $2, $3, $4, $5, $6, $7);
--   params ["2025-10-21T00:00:00Z",null,"Expire","{\"stage\":\"STO\",\"op\":\"Expire\",\"target\":{\"ids\":[\"2\"]},\"args\":{\"ttl\":\"P14D\"}}","[2]","{\"2\":{\"expire_at\":null,\"expire_action\":null}}","{\"2\":{\"expire_at\":\"2025-11-04T00:00:00Z\",\"expire_action\":\"soft_delete\"}}"]

-- [4] Split: ids 2, 3, 4, 5
SELECT * FROM "memory" WHERE "deleted" = $1 AND ("expire_at" IS NULL OR "expire_at" > $2) AND "id" IN ($3) ORDER BY "id" ASC;
--   params [0,"2025-10-21T00:00:00Z",2]
INSERT INTO "memory" ("text", "type", "tags", "facets", "time", "subject", "location", "topic", "source", "weight", "expire_at", "expire_action", "expire_reason", "read_perm_level", "write_perm_level", "read_whitelist", "read_blacklist", "write_whitelist", "write_blacklist", "owner", "lineage_parents", "created_at", "updated_at", "deleted", "embedding", "embedding_model") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26) RETURNING id;
--   params ["Sprint 42 plan.","note","[\"sprint\"]","{}","2025-10-20T09:00:00Z",null,null,null,null,null,"2025-11-04T00:00:00Z","soft_delete",null,null,null,null,null,null,null,null,"[2]","2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",0,"<vector of 64 numbers, sha256 2a1434b60eca>","t2m-hash-64"]
INSERT INTO "memory" ("text", "type", "tags", "facets", "time", "subject", "location", "topic", "source", "weight", "expire_at", "expire_action", "expire_reason", "read_perm_level", "write_perm_level", "read_whitelist", "read_blacklist", "write_whitelist", "write_blacklist", "owner", "lineage_parents", "created_at", "updated_at", "deleted", "embedding", "embedding_model") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26) RETURNING id;
--   params ["Ship search filters.","note","[\"sprint\"]","{}","2025-10-20T09:00:00Z",null,null,null,null,null,"2025-11-04T00:00:00Z","soft_delete",null,null,null,null,null,null,null,null,"[2]","2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",0,"<vector of 64 numbers, sha256 55db205bf8ce>","t2m-hash-64"]
INSERT INTO "memory" ("text", "type", "tags", "facets", "time", "subject", "location", "topic", "source", "weight", "expire_at", "expire_action", "expire_reason", "read_perm_level", "write_perm_level", "read_whitelist", "read_blacklist", "write_whitelist", "write_blacklist", "owner", "lineage_parents", "created_at", "updated_at", "deleted", "embedding", "embedding_model") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26) RETURNING id;
--   params ["Fix the export bug.","note","[\"sprint\"]","{}","2025-10-20T09:00:00Z",null,null,null,null,null,"2025-11-04T00:00:00Z","soft_delete",null,null,null,null,null,null,null,null,"[2]","2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",0,"<vector of 64 numbers, sha256 ee43dbb2f7a0>","t2m-hash-64"]
UPDATE "memory" SET "lineage_children" = $1, "deleted" = $2, "deleted_at" = $3, "updated_at" = $4 WHERE "id" = $5;
--   params ["[3,4,5]",1,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",2]
INSERT INTO "audit_log" (at, actor, op, ir, affected_ids, before, after) VALUES ($1, $2, $3, $4, $5, $6, $7);
--   params ["2025-10-21T00:00:00Z",null,"Split","{\"stage\":\"STO\",\"op\":\"Split\",\"target\":{\"ids\":[\"2\"]},\"args\":{\"strategy\":\"by_sentences\"},\"_let\":\"items\"}","[3,4,5,2]","{\"2\":{\"lineage_children\":null,\"deleted\":0,\"deleted_at\":null},\"3\":null,\"4\":null,\"5\":null}","{\"2\":{\"lineage_children\":[3,4,5],\"deleted\":1,\"deleted_at\":\"2025-10-21T00:00:00Z\"},\"3\":{\"id\":3,\"text\":\"Sprint 42 plan.\",\"type\":\"note\",\"tags\":[\"sprint\"],\"facets\":{},\"time\":\"2025-10-20T09:00:00Z\",\"subject\":null,\"location\":null,\"topic\":null,\"source\":null,\"weight\":null,\"expire_at\":\"2025-11-04T00:00:00Z\",\"expire_action\":\"soft_delete\",\"expire_reason\":null,\"read_perm_level\":null,\"write_perm_level\":null,\"read_whitelist\":null,\"read_blacklist\":null,\"write_whitelist\":null,\"write_blacklist\":null,\"owner\":null,\"lineage_parents\":[2],\"created_at\":\"2025-10-21T00:00:00Z\",\"updated_at\":\"2025-10-21T00:00:00Z\",\"deleted\":0,\"embedding_model\":\"t2m-hash-64\"},\"4\":{\"id\":4,\"text\":\"Ship search filters.\",\"type\":\"note\",\"tags\":[\"sprint\"],\"facets\":{},\"time\":\"2025-10-20T09:00:00Z\",\"subject\":null,\"location\":null,\"topic\":null,\"source\":null,\"weight\":null,\"expire_at\":\"2025-11-04T00:00:00Z\",\"expire_action\":\"soft_delete\",\"expire_reason\":null,\"read_perm_level\":null,\"write_perm_level\":null,\"read_whitelist\":null,\"read_blacklist\":null,\"write_whitelist\":null,\"write_blacklist\":null,\"owner\":null,\"lineage_parents\":[2],\"created_at\":\"2025-10-21T00:00:00Z\",\"updated_at\":\"2025-10-21T00:00:00Z\",\"deleted\":0,\"embedding_model\":\"t2m-hash-64\"},\"5\":{\"id\":5,\"text\":\"Fix the export bug.\",\"type\":\"note\",\"tags\":[\"sprint\"],\"facets\":{},\"time\":\"2025-10-20T09:00:00Z\",\"subject\":null,\"location\":null,\"topic\":null,\"source\":null,\"weight\":null,\"expire_at\":\"2025-11-04T00:00:00Z\",\"expire_action\":\"soft_delete\",\"expire_reason\":null,\"read_perm_level\":null,\"write_perm_level\":null,\"read_whitelist\":null,\"read_blacklist\":null,\"write_whitelist\":null,\"write_blacklist\":null,\"owner\":null,\"lineage_parents\":[2],\"created_at\":\"2025-10-21T00:00:00Z\",\"updated_at\":\"2025-10-21T00:00:00Z\",\"deleted\":0,\"embedding_model\":\"t2m-hash-64\"}}"]

-- [5] Label: ids 3, 4, 5
SELECT * FROM "memory" WHERE "deleted" = $1 AND ("expire_at" IS NULL OR "expire_at" > $2) AND "id" IN ($3, $4, $5) ORDER BY "id" ASC;
--   params [0,"2025-10-21T00:00:00Z",3,4,5]
UPDATE "memory" SET "tags" = $1, "updated_at" = $2 WHERE "id" = $3;
--   params ["[\"sprint\",\"sprint:item\"]","2025-10-21T00:00:00Z",3]
UPDATE "memory" SET "tags" = $1, "updated_at" = $2 WHERE "id" = $3;
--   params ["[\"sprint\",\"sprint:item\"]","2025-10-21T00:00:00Z",4]
UPDATE "memory" SET "tags" = $1, "updated_at" = $2 WHERE "id" = $3;
--   params ["[\"sprint\",\"sprint:item\"]","2025-10-21T00:00:00Z",5]
INSERT INTO "audit_log" (at, actor, op, ir, affected_ids, before, after) VALUES ($1, $2, $3, $4, $5, $6, $7);
--   params ["2025-10-21T00:00:00Z",null,"Label","{\"stage\":\"STO\",\"op\":\"Label\",\"target\":{\"ids\":[\"3\",\"4\",\"5\"]},\"args\":{\"tags\":[\"sprint:item\"]},\"_let\":\"labelled\"}","[3,4,5]","{\"3\":{\"tags\":[\"sprint\"]},\"4\":{\"tags\":[\"sprint\"]},\"5\":{\"tags\":[\"sprint\"]}}","{\"3\":{\"tags\":[\"sprint\",\"sprint:item\"]},\"4\":{\"tags\":[\"sprint\",\"sprint:item\"]},\"5\":{\"tags\":[\"sprint\",\"sprint:item\"]}}"]

-- [6] Merge: ids 3, 4, 5
SELECT * FROM "memory" WHERE "deleted" = $1 AND ("expire_at" IS NULL OR "expire_at" > $2) AND "id" IN ($3, $4, $5) ORDER BY "id" ASC;
--   params [0,"2025-10-21T00:00:00Z",3,4,5]
UPDATE "memory" SET "text" = $1, "lineage_children" = $2, "embedding" = $3, "updated_at" = $4 WHERE "id" = $5;
--   params ["Sprint 42 plan.\nShip search filters.\nFix the export bug.","[4,5]","<vector of 64 numbers, sha256 22eeee568d34>","2025-10-21T00:00:00Z",3]
UPDATE "memory" SET "lineage_parents" = $1, "deleted" = $2, "deleted_at" = $3, "updated_at" = $4 WHERE "id" = $5;
--   params ["[2,3]",1,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",4]
UPDATE "memory" SET "lineage_parents" = $1, "deleted" = $2, "deleted_at" = $3, "updated_at" = $4 WHERE "id" = $5;
--   params ["[2,3]",1,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",5]
INSERT INTO "audit_log" (at, actor, op, ir, affected_ids, before, after) VALUES ($1, $2, $3, $4, $5, $6, $7);
--   params ["2025-10-21T00:00:00Z",null,"Merge","{\"stage\":\"STO\",\"op\":\"Merge\",\"target\":{\"ids\":[\"3\",\"4\",\"5\"]},\"args\":{\"primary_id\":\"auto\"},\"_let\":\"merged\"}","[3,4,5]","{\"3\":{\"text\":\"Sprint 42 plan.\",\"lineage_children\":null},\"4\":{\"lineage_parents\":[2],\"deleted\":0,\"deleted_at\":null},\"5\":{\"lineage_parents\":[2],\"deleted\":0,\"deleted_at\":null}}","{\"3\":{\"text\":\"Sprint 42 plan.\\nShip search filters.\\nFix the export bug.\",\"lineage_children\":[4,5]},\"4\":{\"lineage_parents\":[2,3],\"deleted\":1,\"deleted_at\":\"2025-10-21T00:00:00Z\"},\"5\":{\"lineage_parents\":[2,3],\"deleted\":1,\"deleted_at\":\"2025-10-21T00:00:00Z\"}}"]

-- [7] Retrieve: ids 3
SELECT * FROM "memory" WHERE "deleted" = $1 AND ("expire_at" IS NULL OR "expire_at" > $2) AND "id" IN ($3) AND ("read_perm_level" IS NULL OR "read_perm_level" = $4) ORDER BY "id" ASC LIMIT $5;
--   params [0,"2025-10-21T00:00:00Z",3,"public",10001]

-- [8] Promote: ids 3
SELECT * FROM "memory" WHERE "deleted" = $1 AND ("expire_at" IS NULL OR "expire_at" > $2) AND "id" IN ($3) ORDER BY "id" ASC;
--   params [0,"2025-10-21T00:00:00Z",3]
UPDATE "memory" SET "weight" = $1, "updated_at" = $2 WHERE "id" = $3;
--   params [0.9,"2025-10-21T00:00:00Z",3]
INSERT INTO "audit_log" (at, actor, op, ir, affected_ids, before, after) VALUES ($1, $2, $3, $4, $5, $6, $7);
--   params ["2025-10-21T00:00:00Z",null,"Promote","{\"stage\":\"STO\",\"op\":\"Promote\",\"target\":{\"ids\":[\"3\"]},\"args\":{\"weight\":0.9}}","[3]","{\"3\":{\"weight\":null}}","{\"3\":{\"weight\":0.9}}"]
