-- brief_promote.t2m explained on a fresh sqlite store, clock 2025-10-21T00:00:00Z

-- transaction 1: statement [1], would commit

-- [1] Promote: ids -

-- warning no-match at 2:9-2:44 [1] (target): Promote: the target matches no live record
