package dev.steadfast.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A shared key is made once: read again, or asked for by several instances at the same moment, it is the same. */
@QuarkusTest
class ServerKeyStoreTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    ServerKeyStore keys;

    @Test
    void theKeyIsMadeOnceAndThenReadBack() {
        String name = "test-" + System.nanoTime();
        byte[] first = keys.sharedKey(name).await().atMost(WAIT);
        assertEquals(ServerKeyStore.KEY_BYTES, first.length);
        assertFalse(Arrays.equals(new byte[ServerKeyStore.KEY_BYTES], first), "a random key, not zeros");
        assertArrayEquals(first, keys.sharedKey(name).await().atMost(WAIT));
        assertFalse(Arrays.equals(first, keys.sharedKey(name + "-other").await().atMost(WAIT)));
    }

    @Test
    void instancesAskingAtOnceAllGetTheFirstKey() {
        String name = "test-race-" + System.nanoTime();
        List<byte[]> got = Uni.join().all(keys.sharedKey(name), keys.sharedKey(name), keys.sharedKey(name),
                keys.sharedKey(name)).andFailFast().await().atMost(WAIT);
        for (byte[] k : got) {
            assertArrayEquals(got.get(0), k);
        }
    }
}
