-- The statements of store EventChannel, rendered by RenderedSqlTest from the code: do not edit by hand.

-- EventChannel.PUBLISH
SELECT count(pg_notify('steadfast_events', p)) FROM unnest($1::text[]) AS p;
