-- The statements of store PrimaryHosts, rendered by RenderedSqlTest from the code: do not edit by hand.

-- PrimaryHosts.ACCEPTS_WRITES
SELECT current_setting('transaction_read_only') = 'off';
