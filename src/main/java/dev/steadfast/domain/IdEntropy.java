package dev.steadfast.domain;

import java.security.SecureRandom;

/**
 * The {@link SecureRandom} behind {@link JobIds}, in a holder of its own so that it is created on first use at
 * run time. A native build initialises classes at build time unless told otherwise; a SecureRandom created then
 * would be frozen into the image with its seed, and every process started from that image would make the same
 * "random" bits. application.properties therefore names this class in
 * {@code quarkus.native.additional-build-args=--initialize-at-run-time=dev.steadfast.domain.IdEntropy}: GraalVM
 * then runs this initialiser in each process, and fails the build if anything touches it at build time. A
 * top-level class (not a nested one) keeps the name free of {@code $} in the property.
 */
final class IdEntropy {

    static final SecureRandom RANDOM = new SecureRandom();

    private IdEntropy() {
    }
}
