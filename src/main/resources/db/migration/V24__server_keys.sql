-- Keys the instances on one database share, made once by the first instance that needs one (store.ServerKeyStore:
-- INSERT ... ON CONFLICT DO NOTHING, then every instance reads the row). 'console-session' signs console session
-- cookies when steadfast.console.session-secret is not set, so instances started without that setting (a rolling
-- upgrade with the defaults) honour each other's sessions. A configured secret is used instead and never stored.
-- Safe while older instances run: they do not read this table.
CREATE TABLE server_keys (
    name       text        PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 64),
    key        bytea       NOT NULL CHECK (length(key) >= 32),
    created_at timestamptz NOT NULL DEFAULT now()
);
