-- brief_promote.t2m explained on a fresh postgres store, clock 2025-10-21T00:00:00Z

-- transaction 1: statement [1], would commit

-- [1] Promote: ids -
SELECT e.value AS term, (SELECT COUNT(*) FROM memory_term AS t WHERE t.term = e.value) AS df, s.docs AS docs, s.tokens AS tokens FROM (SELECT value FROM json_array_elements_text($1::json)) AS e, memory_search_stats AS s WHERE s.id = 1;
--   params ["[\"okr\",\"progress\"]"]

-- warning no-match at 2:9-2:44 [1] (target): Promote: the target matches no live record
