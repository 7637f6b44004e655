package dev.steadfast.tools.faults;

/** Sleeping that gives up quietly when interrupted (the thread's loop then sees its stop condition). */
final class Pace {

    private Pace() {
    }

    static void sleepUntil(long nanoTime) {
        long d = nanoTime - System.nanoTime();
        if (d > 0) {
            sleep(d / 1_000_000);
        }
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(Math.max(0, ms));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
