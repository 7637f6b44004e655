package dev.steadfast.work;

import dev.steadfast.domain.ClaimCursors;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** This instance's claim cursors (domain ClaimCursors), set up from steadfast.fetch. */
class ClaimCursorsProducer {

    @Produces
    @Singleton
    ClaimCursors cursors(FetchConfig config) {
        return new ClaimCursors(config.scanLookback(), config.fullScanInterval(), config.fullScanCostShare());
    }
}
