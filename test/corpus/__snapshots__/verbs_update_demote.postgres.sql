-- verbs_update_demote.t2m explained on a fresh postgres store, clock 2025-10-21T00:00:00Z

-- transaction 1: statements [1]-[6], would commit

-- [1] Encode: ids 1
INSERT INTO "memory" ("text", "type", "tags", "facets", "source", "auto_frequency", "expire_at", "next_auto_update_at", "read_perm_level", "write_perm_level", "time", "owner", "created_at", "updated_at", "deleted", "embedding", "embedding_model") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) RETURNING id;
--   params ["Q4 budget: 2M USD","note","[\"budget\",\"Q4\"]","{}",null,null,null,null,null,null,"2025-10-01T09:00:00Z",null,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",0,"<vector of 64 numbers, sha256 13b9bcbbc5e6>","t2m-hash-64"]
INSERT INTO "audit_log" (at, actor, op, ir, affected_ids, before, after) VALUES ($1, $2, $3, $4, $5, $6, $7);
--   params ["2025-10-21T00:00:00Z",null,"Encode","{\"stage\":\"ENC\",\"op\":\"Encode\",\"args\":{\"payload\":{\"text\":\"Q4 budget: 2M USD\"},\"type\":\"note\",\"tags\":[\"budget\",\"Q4\"],\"time\":\"2025-10-01T09:00:00Z\"}}","[1]","{\"1\":null}","{\"1\":{\"id\":1,\"text\":\"Q4 budget: 2M USD\",\"type\":\"note\",\"tags\":[\"budget\",\"Q4\"],\"facets\":{},\"source\":null,\"auto_frequency\":null,\"expire_at\":null,\"next_auto_update_at\":null,\"read_perm_level\":null,\"write_perm_level\":null,\"time\":\"2025-10-01T09:00:00Z\",\"owner\":null,\"created_at\":\"2025-10-21T00:00:00Z\",\"updated_at\":\"2025-10-21T00:00:00Z\",\"deleted\":0,\"embedding_model\":\"t2m-hash-64\"}}"]

-- [2] Encode: ids 2
INSERT INTO "memory" ("text", "type", "tags", "facets", "source", "auto_frequency", "expire_at", "next_auto_update_at", "read_perm_level", "write_perm_level", "time", "owner", "created_at", "updated_at", "deleted", "embedding", "embedding_model") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) RETURNING id;
--   params ["Offsite venue: Lisbon, 12-13 June","note","[\"offsite\"]","{}",null,null,null,null,null,null,"2025-06-12T09:00:00Z",null,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",0,"<vector of 64 numbers, sha256 12ff45fa5cd0>","t2m-hash-64"]
INSERT INTO "audit_log" (at, actor, op, ir, affected_ids, before, after) VALUES ($1, $2, $3, $4, $5, $6, $7);
--   params ["2025-10-21T00:00:00Z",null,"Encode","{\"stage\":\"ENC\",\"op\":\"Encode\",\"args\":{\"payload\":{\"text\":\"Offsite venue: Lisbon, 12-13 June\"},\"type\":\"note\",\"tags\":[\"offsite\"],\"time\":\"2025-06-12T09:00:00Z\"}}","[2]","{\"2\":null}","{\"2\":{\"id\":2,\"text\":\"Offsite venue: Lisbon, 12-13 June\",\"type\":\"note\",\"tags\":[\"offsite\"],\"facets\":{},\"source\":null,\"auto_frequency\":null,\"expire_at\":null,\"next_auto_update_at\":null,\"read_perm_level\":null,\"write_perm_level\":null,\"time\":\"2025-06-12T09:00:00Z\",\"owner\":null,\"created_at\":\"2025-10-21T00:00:00Z\",\"updated_at\":\"2025-10-21T00:00:00Z\",\"deleted\":0,\"embedding_model\":\"t2m-hash-64\"}}"]

-- [3] Encode: ids 3
INSERT INTO "memory" ("text", "type", "tags", "facets", "source", "auto_frequency", "expire_at", "next_auto_update_at", "read_perm_level", "write_perm_level", "time", "owner", "created_at", "updated_at", "deleted", "embedding", "embedding_model") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) RETURNING id;
--   params ["Offsite agenda draft","note","[\"offsite\",\"draft\"]","{}",null,null,null,null,null,null,"2025-06-13T09:00:00Z",null,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",0,"<vector of 64 numbers, sha256 c8fc26f17f8b>","t2m-hash-64"]
INSERT INTO "audit_log" (at, actor, op, ir, affected_ids, before, after) VALUES ($1, $2, $3, $4, $5, $6, $7);
--   params ["2025-10-21T00:00:00Z",null,"Encode","{\"stage\":\"ENC\",\"op\":\"Encode\",\"args\":{\"payload\":{\"text\":\"Offsite agenda draft\"},\"type\":\"note\",\"tags\":[\"offsite\",\"draft\"],\"time\":\"2025-06-13T09:00:00Z\"}}","[3]","{\"3\":null}","{\"3\":{\"id\":3,\"text\":\"Offsite agenda draft\",\"type\":\"note\",\"tags\":[\"offsite\",\"draft\"],\"facets\":{},\"source\":null,\"auto_frequency\":null,\"expire_at\":null,\"next_auto_update_at\":null,\"read_perm_level\":null,\"write_perm_level\":null,\"time\":\"2025-06-13T09:00:00Z\",\"owner\":null,\"created_at\":\"2025-10-21T00:00:00Z\",\"updated_at\":\"2025-10-21T00:00:00Z\",\"deleted\":0,\"embedding_model\":\"t2m-hash-64\"}}"]

-- [4] Update: ids 1
SELECT * FROM "memory" WHERE "deleted" = $1 AND ("expire_at" IS NULL OR "expire_at" > $2) AND "id" IN ($3) ORDER BY "id" ASC;
--   params [0,"2025-10-21T00:00:00Z",1]
UPDATE "memory" SET "text" = $1, "tags" = $2, "weight" = $3, "embedding" = $4, "updated_at" = $5 WHERE "id" = $6;
--   params ["Q4 budget raised to 3M USD","[\"budget\",\"Q4\",\"approved\"]",0.8,"<vector of 64 numbers, sha256 4f3a8c37da20>","2025-10-21T00:00:00Z",1]
INSERT INTO "audit_log" (at, actor, op, ir, affected_ids, before, after) VALUES ($1, $2, $3, $4, $5, $6, $7);
--   params ["2025-10-21T00:00:00Z",null,"Update","{\"stage\":\"STO\",\"op\":\"Update\",\"target\":{\"ids\":\"1\"},\"args\":{\"set\":{\"text\":\"Q4 budget raised to 3M USD\",\"tags\":[\"budget\",\"Q4\",\"approved\"],\"weight\":0.8}}}","[1]","{\"1\":{\"text\":\"Q4 budget: 2M USD\",\"tags\":[\"budget\",\"Q4\"],\"weight\":null}}","{\"1\":{\"text\":\"Q4 budget raised to 3M USD\",\"tags\":[\"budget\",\"Q4\",\"approved\"],\"weight\":0.8}}"]

-- [5] Demote: ids 3, 2
SELECT * FROM "memory" WHERE "deleted" = $1 AND ("expire_at" IS NULL OR "expire_at" > $2) AND "tags" @> jsonb_build_array($3::text) ORDER BY "time" IS NULL, "time" DESC, "id" DESC LIMIT $4;
--   params [0,"2025-10-21T00:00:00Z","offsite",10]
UPDATE "memory" SET "weight" = $1, "demote_reason" = $2, "updated_at" = $3 WHERE "id" = $4;
--   params [0.1,"the offsite is over","2025-10-21T00:00:00Z",3]
UPDATE "memory" SET "weight" = $1, "demote_reason" = $2, "updated_at" = $3 WHERE "id" = $4;
--   params [0.1,"the offsite is over","2025-10-21T00:00:00Z",2]
INSERT INTO "audit_log" (at, actor, op, ir, affected_ids, before, after) VALUES ($1, $2, $3, $4, $5, $6, $7);
--   params ["2025-10-21T00:00:00Z",null,"Demote","{\"stage\":\"STO\",\"op\":\"Demote\",\"target\":{\"filter\":{\"has_tags\":[\"offsite\"],\"limit\":10}},\"args\":{\"archive\":true,\"reason\":\"the offsite is over\"}}","[3,2]","{\"2\":{\"weight\":null,\"demote_reason\":null},\"3\":{\"weight\":null,\"demote_reason\":null}}","{\"2\":{\"weight\":0.1,\"demote_reason\":\"the offsite is over\"},\"3\":{\"weight\":0.1,\"demote_reason\":\"the offsite is over\"}}"]

-- [6] Retrieve: ids 1, 3, 2
SELECT * FROM "memory" WHERE "deleted" = $1 AND ("expire_at" IS NULL OR "expire_at" > $2) AND "type" = $3 AND ("read_perm_level" IS NULL OR "read_perm_level" = $4) ORDER BY "time" IS NULL, "time" DESC, "id" DESC LIMIT $5;
--   params [0,"2025-10-21T00:00:00Z","note","public",10]
