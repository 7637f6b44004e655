-- The statements of store ServerKeyStore, rendered by RenderedSqlTest from the code: do not edit by hand.

-- ServerKeyStore.CREATE_KEY_ONCE
INSERT INTO server_keys (name, key) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING;

-- ServerKeyStore.READ_KEY
SELECT key FROM server_keys WHERE name = $1;
