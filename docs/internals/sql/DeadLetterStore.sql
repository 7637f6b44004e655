-- The statements of store DeadLetterStore, rendered by RenderedSqlTest from the code: do not edit by hand.

-- DeadLetterStore.STATS
select count(*), min(discardedAt), max(discardedAt) from FinishedJobEntity where deadLetter = true;

-- DeadLetterStore.BY_QUEUE
select queue, count(*) from FinishedJobEntity where deadLetter = true group by queue order by count(*) desc;

-- DeadLetterStore.BY_ERROR_TYPE
select coalesce(errorType, 'Unknown'), count(*) from FinishedJobEntity where deadLetter = true group by coalesce(errorType, 'Unknown') order by count(*) desc;

-- DeadLetterStore.listing(every dead letter, newest first)
deadLetter = true order by discardedAt desc, id desc;

-- DeadLetterStore.listing(every dead letter, the next page)
deadLetter = true and (discardedAt, id) < (:afterAt, :afterId) order by discardedAt desc, id desc;

-- DeadLetterStore.listing(queue, type, error type and time range)
deadLetter = true and queue = :queue and type = :type and errorType = :errorType and discardedAt >= :since and discardedAt < :until order by discardedAt desc, id desc;

-- DeadLetterStore.where(queue, type, error type and time range)
deadLetter = true and queue = :queue and type = :type and errorType = :errorType and discardedAt >= :since and discardedAt < :until;
