package dev.steadfast.testsupport;

import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;
import io.quarkus.arc.InstanceHandle;
import io.quarkus.test.junit.callback.QuarkusTestBeforeEachCallback;
import io.quarkus.test.junit.callback.QuarkusTestMethodContext;

/**
 * Puts the {@link TestClock} back to the real time before every {@code @QuarkusTest} method (registered in
 * META-INF/services), so a test that moved the clock cannot move it for the next one, even when it failed halfway.
 */
public class TestClockReset implements QuarkusTestBeforeEachCallback {

    @Override
    public void beforeEach(QuarkusTestMethodContext context) {
        ArcContainer container = Arc.container();
        if (container == null) {
            return; // a packaged-jar test (*IT): the server runs in its own process, on the real clock
        }
        InstanceHandle<TestClock> clock = container.instance(TestClock.class);
        if (clock.isAvailable()) {
            clock.get().reset();
        }
    }
}
