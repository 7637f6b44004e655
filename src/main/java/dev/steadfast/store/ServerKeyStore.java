package dev.steadfast.store;

import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.security.SecureRandom;

/**
 * Secret keys every instance on this database shares (table {@code server_keys}, V24), made once: the first
 * instance that asks for a name inserts a fresh random key, and every instance, that one included, then reads
 * whichever key won. Two instances starting at the same moment therefore end up with the same key; nothing ever
 * replaces or deletes one (a key is rotated by configuring one, see console.auth.SessionKeys, or by deleting the
 * row and restarting every instance).
 *
 * <p>Limit: whoever can read this table can sign what the key signs; that is no more than database access already
 * allows (it can change every job and setting).
 */
@ApplicationScoped
public class ServerKeyStore {

    /** Key length in bytes (256 bits, the size of an HMAC-SHA256 block's useful key). */
    public static final int KEY_BYTES = 32;
    /** Only the first instance's key is kept: a concurrent second insert does nothing (no error, no overwrite). */
    static final String CREATE_KEY_ONCE = "INSERT INTO server_keys (name, key) VALUES ($1, $2)"
            + " ON CONFLICT (name) DO NOTHING";
    static final String READ_KEY = "SELECT key FROM server_keys WHERE name = $1";

    private final Pool pool;
    private final SecureRandom random = new SecureRandom();

    public ServerKeyStore(Pool pool) {
        this.pool = pool;
    }

    /** The shared key called {@code name}, made now when no instance has made it yet. */
    public Uni<byte[]> sharedKey(String name) {
        byte[] fresh = new byte[KEY_BYTES];
        random.nextBytes(fresh);
        return pool.preparedQuery(CREATE_KEY_ONCE).execute(Tuple.of(name, Buffer.buffer(fresh)))
                .chain(() -> pool.preparedQuery(READ_KEY).execute(Tuple.of(name)))
                .map(rows -> rows.iterator().next().getBuffer("key").getBytes());
    }
}
