-- scenario_investor_update.t2m explained on a fresh postgres store, clock 2025-10-21T00:00:00Z

-- transaction 1: statements [1]-[3], would commit

-- [1] Encode: ids 1
INSERT INTO "memory" ("text", "type", "tags", "facets", "subject", "topic", "source", "auto_frequency", "expire_at", "next_auto_update_at", "read_perm_level", "write_perm_level", "time", "owner", "created_at", "updated_at", "deleted", "embedding", "embedding_model") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19) RETURNING id;
--   params ["Q3 Week 12 指标：ARR 计入 42.6M，同比增长 18%；净留存率 118%；本周新增 3 家企业客户，其中 2 家来自合作渠道。风险：美国区两个续约谈判推迟到 10 月底。","executive_note","[\"investor-update\",\"metric\",\"owner:ceo\"]","{\"subject\":\"Q3 Investor Update\",\"topic\":\"financials\"}","Q3 Investor Update","financials","notion_board",null,null,null,null,null,"2025-09-29T00:15:00Z",null,"2025-10-21T00:00:00Z","2025-10-21T00:00:00Z",0,"<vector of 64 numbers, sha256 f081e7ed83d0>","t2m-hash-64"]
INSERT INTO "audit_log" (at, actor, op, ir, affected_ids, before, after) VALUES ($1, $2, $3, $4, $5, $6, $7);
--   params ["2025-10-21T00:00:00Z",null,"Encode","{\"stage\":\"ENC\",\"op\":\"Encode\",\"args\":{\"payload\":{\"text\":\"Q3 Week 12 指标：ARR 计入 42.6M，同比增长 18%；净留存率 118%；本周新增 3 家企业客户，其中 2 家来自合作渠道。风险：美国区两个续约谈判推迟到 10 月底。\"},\"type\":\"executive_note\",\"tags\":[\"investor-update\",\"metric\",\"owner:ceo\"],\"time\":\"2025-09-29T08:15:00+08:00\",\"source\":\"notion_board\",\"facets\":{\"subject\":\"Q3 Investor Update\",\"topic\":\"financials\"}},\"_comment\":\"CEO 周一早上先把 CFO 发来的核心经营指标记入系统，邮件里还有 Excel 附件的详细分部数据，这里先抓重点免得准备投资人更新时反复翻邮件。\"}","[1]","{\"1\":null}","{\"1\":{\"id\":1,\"text\":\"Q3 Week 12 指标：ARR 计入 42.6M，同比增长 18%；净留存率 118%；本周新增 3 家企业客户，其中 2 家来自合作渠道。风险：美国区两个续约谈判推迟到 10 月底。\",\"type\":\"executive_note\",\"tags\":[\"investor-update\",\"metric\",\"owner:ceo\"],\"facets\":{\"subject\":\"Q3 Investor Update\",\"topic\":\"financials\"},\"subject\":\"Q3 Investor Update\",\"topic\":\"financials\",\"source\":\"notion_board\",\"auto_frequency\":null,\"expire_at\":null,\"next_auto_update_at\":null,\"read_perm_level\":null,\"write_perm_level\":null,\"time\":\"2025-09-29T00:15:00Z\",\"owner\":null,\"created_at\":\"2025-10-21T00:00:00Z\",\"updated_at\":\"2025-10-21T00:00:00Z\",\"deleted\":0,\"embedding_model\":\"t2m-hash-64\"}}"]

-- [2] Retrieve: ids 1
SELECT * FROM "memory" WHERE "deleted" = $1 AND ("expire_at" IS NULL OR "expire_at" > $2) AND (("read_perm_level" IS NULL OR "read_perm_level" = $3 OR "read_perm_level" = $4 OR "owner" = $5 OR COALESCE("read_whitelist", '[]'::jsonb) @> jsonb_build_array($6::text)) AND NOT COALESCE("read_blacklist", '[]'::jsonb) @> jsonb_build_array($7::text)) ORDER BY "time" IS NULL, "time" DESC, "id" DESC;
--   params [0,"2025-10-21T00:00:00Z","public","team","ceo-office","ceo-office","ceo-office"]

-- [3] Promote: ids -
SELECT * FROM "memory" WHERE "deleted" = $1 AND ("expire_at" IS NULL OR "expire_at" > $2) AND "tags" @> jsonb_build_array($3::text) AND "tags" @> jsonb_build_array($4::text) ORDER BY "time" IS NULL, "time" DESC, "id" DESC LIMIT $5;
--   params [0,"2025-10-21T00:00:00Z","investor-update","draft",30]

-- warning no-match at 22:9-22:59 [3] (target): Promote: the target matches no live record
