package dev.steadfast.domain.retry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/** Exact and ".*" prefix matching of non_retryable_errors, including the table of spec section 6.2. */
class ErrorMatcherTest {

    private static final List<String> SPEC_PATTERNS = List.of("validation.payload_invalid", "auth.*");

    @ParameterizedTest(name = "{0} -> {1}")
    @DisplayName("spec section 6.2 table for [\"validation.payload_invalid\", \"auth.*\"]")
    @CsvSource({
        "validation.payload_invalid, true",
        "validation.schema_error, false",
        "auth.token_expired, true",
        "auth.forbidden, true",
        "auth, false",
        "external.auth.failure, false",
    })
    void specTable(String errorType, boolean expected) {
        assertEquals(expected, ErrorMatcher.matches(SPEC_PATTERNS, errorType));
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {" ", "\t"})
    void nullOrBlankErrorTypeMatchesNothing(String errorType) {
        assertFalse(ErrorMatcher.matches(List.of("auth.*", " ", ""), errorType));
    }

    @Test
    void nullOrEmptyPatternListMatchesNothing() {
        assertFalse(ErrorMatcher.matches(null, "auth.x"));
        assertFalse(ErrorMatcher.matches(List.of(), "auth.x"));
    }

    @Test
    void nullPatternEntriesAreSkipped() {
        assertTrue(ErrorMatcher.matches(Arrays.asList(null, "auth.*"), "auth.x"));
    }

    @Test
    void prefixCoversDeeperNamespaces() {
        assertTrue(ErrorMatcher.matches(List.of("external.*"), "external.stripe.card_declined"));
        assertTrue(ErrorMatcher.matches(List.of("external.stripe.*"), "external.stripe.card_declined"));
        assertFalse(ErrorMatcher.matches(List.of("external.stripe.*"), "external.stripeish.error"));
    }

    @Test
    void matchingIsCaseSensitive() {
        assertFalse(ErrorMatcher.matches(List.of("Auth.*"), "auth.token_expired"));
        assertFalse(ErrorMatcher.matches(List.of("resource.not_found"), "Resource.Not_Found"));
    }

    @Test
    void onlyATrailingDotStarIsAWildcard() {
        assertFalse(ErrorMatcher.matches(List.of("auth*"), "auth.token_expired"));
        assertFalse(ErrorMatcher.matches(List.of("*.expired"), "auth.expired"));
        assertFalse(ErrorMatcher.matches(List.of("auth.*.x"), "auth.a.x"));
        assertTrue(ErrorMatcher.matches(List.of("auth*"), "auth*"), "a non-wildcard entry still matches exactly");
    }
}
