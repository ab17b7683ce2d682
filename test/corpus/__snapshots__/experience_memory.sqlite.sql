-- experience_memory.t2m explained on a fresh sqlite store, clock 2025-10-21T00:00:00Z

-- transaction 1: statements [1]-[7], would commit

-- [1] Encode: ids 1
INSERT INTO "memory" ("text", "type", "tags", "facets", "source", "auto_frequency", "expire_at", "next_auto_update_at", "read_perm_level", "write_perm_level", "level", "owner", "created_at", "updated_at", "deleted", "embedding", "embedding_model", "tenant", "trace_id", "statement_index") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id;
--   params ["request: monthly revenue by region. final: SELECT r.name, strftime('%Y-%m', s.day) AS month, SUM(s.amount) FROM sales s JOIN regions r ON r.id = s.region_id GROUP BY 1, 2. outcome: success",null,"[\"sql-agent\"]","{}",null,null,null,null,null,null,"episode",null,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",0,"<vector of 64 numbers, sha256 2a9cebc4cc3f>","t2m-hash-64","default","corpus-experience_memory.t2m-1",0]
INSERT INTO "audit_log" (tenant, trace_id, at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
--   params ["default","corpus-experience_memory.t2m-1","2025-10-21T00:00:00Z",null,"Encode","{\"stage\":\"ENC\",\"op\":\"Encode\",\"args\":{\"payload\":{\"text\":\"request: monthly revenue by region. final: SELECT r.name, strftime('%Y-%m', s.day) AS month, SUM(s.amount) FROM sales s JOIN regions r ON r.id = s.region_id GROUP BY 1, 2. outcome: success\"},\"level\":\"episode\",\"tags\":[\"sql-agent\"]},\"_let\":\"e\"}","[1]","{\"1\":null}","{\"1\":{\"id\":1,\"text\":\"request: monthly revenue by region. final: SELECT r.name, strftime('%Y-%m', s.day) AS month, SUM(s.amount) FROM sales s JOIN regions r ON r.id = s.region_id GROUP BY 1, 2. outcome: success\",\"type\":null,\"tags\":[\"sql-agent\"],\"facets\":{},\"source\":null,\"auto_frequency\":null,\"expire_at\":null,\"next_auto_update_at\":null,\"read_perm_level\":null,\"write_perm_level\":null,\"level\":\"episode\",\"owner\":null,\"created_at\":\"2025-10-21T00:00:00Z\",\"updated_at\":\"2025-10-21T00:00:00Z\",\"deleted\":0,\"embedding_model\":\"t2m-hash-64\",\"tenant\":\"default\",\"trace_id\":\"corpus-experience_memory.t2m-1\",\"statement_index\":0}}"]

-- [2] Encode: ids 2
SELECT * FROM "memory" WHERE "tenant" = ? AND "deleted" = ? AND ("expire_at" IS NULL OR "expire_at" > ?) AND ("valid_to" IS NULL OR "valid_to" > ?) AND ("valid_from" IS NULL OR "valid_from" <= ?) AND "id" IN (?) ORDER BY "id" ASC;
--   params ["default",0,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",1]
INSERT INTO "memory" ("text", "type", "tags", "facets", "source", "auto_frequency", "expire_at", "next_auto_update_at", "read_perm_level", "write_perm_level", "level", "episode_id", "owner", "created_at", "updated_at", "deleted", "embedding", "embedding_model", "tenant", "trace_id", "statement_index") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id;
--   params ["state: error no such column amt. action: PRAGMA table_info(sales). observation: the column is amount",null,"[]","{}",null,null,null,null,null,null,"turn",1,null,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",0,"<vector of 64 numbers, sha256 870bd3396aee>","t2m-hash-64","default","corpus-experience_memory.t2m-1",1]
INSERT INTO "audit_log" (tenant, trace_id, at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
--   params ["default","corpus-experience_memory.t2m-1","2025-10-21T00:00:00Z",null,"Encode","{\"stage\":\"ENC\",\"op\":\"Encode\",\"args\":{\"payload\":{\"text\":\"state: error no such column amt. action: PRAGMA table_info(sales). observation: the column is amount\"},\"level\":\"turn\",\"episode_id\":\"1\"}}","[2]","{\"2\":null}","{\"2\":{\"id\":2,\"text\":\"state: error no such column amt. action: PRAGMA table_info(sales). observation: the column is amount\",\"type\":null,\"tags\":[],\"facets\":{},\"source\":null,\"auto_frequency\":null,\"expire_at\":null,\"next_auto_update_at\":null,\"read_perm_level\":null,\"write_perm_level\":null,\"level\":\"turn\",\"episode_id\":1,\"owner\":null,\"created_at\":\"2025-10-21T00:00:00Z\",\"updated_at\":\"2025-10-21T00:00:00Z\",\"deleted\":0,\"embedding_model\":\"t2m-hash-64\",\"tenant\":\"default\",\"trace_id\":\"corpus-experience_memory.t2m-1\",\"statement_index\":1}}"]

-- [3] Encode: ids 3
SELECT * FROM "memory" WHERE "tenant" = ? AND "deleted" = ? AND ("expire_at" IS NULL OR "expire_at" > ?) AND ("valid_to" IS NULL OR "valid_to" > ?) AND ("valid_from" IS NULL OR "valid_from" <= ?) AND "id" IN (?) ORDER BY "id" ASC;
--   params ["default",0,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",1]
INSERT INTO "memory" ("text", "type", "tags", "facets", "source", "auto_frequency", "expire_at", "next_auto_update_at", "read_perm_level", "write_perm_level", "level", "episode_id", "owner", "created_at", "updated_at", "deleted", "embedding", "embedding_model", "tenant", "trace_id", "statement_index") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id;
--   params ["state: error no such column region. action: join regions on region_id. observation: rows grouped by name",null,"[]","{}",null,null,null,null,null,null,"turn",1,null,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",0,"<vector of 64 numbers, sha256 806b035ad60b>","t2m-hash-64","default","corpus-experience_memory.t2m-1",2]
INSERT INTO "audit_log" (tenant, trace_id, at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
--   params ["default","corpus-experience_memory.t2m-1","2025-10-21T00:00:00Z",null,"Encode","{\"stage\":\"ENC\",\"op\":\"Encode\",\"args\":{\"payload\":{\"text\":\"state: error no such column region. action: join regions on region_id. observation: rows grouped by name\"},\"level\":\"turn\",\"episode_id\":\"1\"}}","[3]","{\"3\":null}","{\"3\":{\"id\":3,\"text\":\"state: error no such column region. action: join regions on region_id. observation: rows grouped by name\",\"type\":null,\"tags\":[],\"facets\":{},\"source\":null,\"auto_frequency\":null,\"expire_at\":null,\"next_auto_update_at\":null,\"read_perm_level\":null,\"write_perm_level\":null,\"level\":\"turn\",\"episode_id\":1,\"owner\":null,\"created_at\":\"2025-10-21T00:00:00Z\",\"updated_at\":\"2025-10-21T00:00:00Z\",\"deleted\":0,\"embedding_model\":\"t2m-hash-64\",\"tenant\":\"default\",\"trace_id\":\"corpus-experience_memory.t2m-1\",\"statement_index\":2}}"]

-- [4] Retrieve: ids 1
SELECT * FROM "memory" WHERE "tenant" = ? AND "deleted" = ? AND ("expire_at" IS NULL OR "expire_at" > ?) AND ("valid_to" IS NULL OR "valid_to" > ?) AND ("valid_from" IS NULL OR "valid_from" <= ?) AND "level" = ? AND ("read_perm_level" IS NULL OR "read_perm_level" = ?);
--   params ["default",0,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","episode","public"]

-- [5] Retrieve: ids 2, 1
SELECT * FROM "memory" WHERE "tenant" = ? AND "deleted" = ? AND ("expire_at" IS NULL OR "expire_at" > ?) AND ("valid_to" IS NULL OR "valid_to" > ?) AND ("valid_from" IS NULL OR "valid_from" <= ?) AND "level" = ? AND ("read_perm_level" IS NULL OR "read_perm_level" = ?);
--   params ["default",0,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","turn","public"]
SELECT * FROM "memory" WHERE "tenant" = ? AND "deleted" = ? AND ("expire_at" IS NULL OR "expire_at" > ?) AND ("valid_to" IS NULL OR "valid_to" > ?) AND ("valid_from" IS NULL OR "valid_from" <= ?) AND "id" IN (?) AND ("read_perm_level" IS NULL OR "read_perm_level" = ?) ORDER BY "id" ASC;
--   params ["default",0,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",1,"public"]

-- [6] Promote: ids 1
SELECT * FROM "memory" WHERE "tenant" = ? AND "deleted" = ? AND ("expire_at" IS NULL OR "expire_at" > ?) AND ("valid_to" IS NULL OR "valid_to" > ?) AND ("valid_from" IS NULL OR "valid_from" <= ?) AND "id" IN (?) ORDER BY "id" ASC;
--   params ["default",0,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",1]
UPDATE "memory" SET "utility" = ?, "utility_n" = ?, "updated_at" = ? WHERE "tenant" = ? AND "id" = ?;
--   params [1,1,"2025-10-21T00:00:00Z","default",1]
INSERT INTO "audit_log" (tenant, trace_id, at, actor, op, ir, affected_ids, before, after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);
--   params ["default","corpus-experience_memory.t2m-1","2025-10-21T00:00:00Z",null,"Promote","{\"stage\":\"STO\",\"op\":\"Promote\",\"target\":{\"ids\":[\"1\"]},\"args\":{\"reward\":1}}","[1]","{\"1\":{\"utility\":null,\"utility_n\":0}}","{\"1\":{\"utility\":1,\"utility_n\":1}}"]

-- [7] Retrieve: ids 1
SELECT * FROM "memory" WHERE "tenant" = ? AND "deleted" = ? AND ("expire_at" IS NULL OR "expire_at" > ?) AND ("valid_to" IS NULL OR "valid_to" > ?) AND ("valid_from" IS NULL OR "valid_from" <= ?) AND "id" IN (?) AND ("read_perm_level" IS NULL OR "read_perm_level" = ?) ORDER BY "id" ASC LIMIT ?;
--   params ["default",0,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",1,"public",10001]
