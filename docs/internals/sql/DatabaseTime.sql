-- The statements of store DatabaseTime, rendered by RenderedSqlTest from the code: do not edit by hand.

-- DatabaseTime.READ_CLOCK
SELECT clock_timestamp() AS t;
