-- The statements of store DeadLetterStore, rendered by RenderedSqlTest from the code: do not edit by hand.

-- DeadLetterStore.STATS
select count(*), min(discardedAt), max(discardedAt) from FinishedJobEntity where deadLetter = true;

-- DeadLetterStore.BY_QUEUE
select queue, count(*) from FinishedJobEntity where deadLetter = true group by queue order by count(*) desc;

-- DeadLetterStore.BY_ERROR_TYPE
select coalesce(errorType, 'Unknown'), count(*) from FinishedJobEntity where deadLetter = true group by coalesce(errorType, 'Unknown') order by count(*) desc;
