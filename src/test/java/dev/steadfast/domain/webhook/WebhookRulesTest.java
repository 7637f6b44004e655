package dev.steadfast.domain.webhook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.retry.RetryPolicy;
import dev.steadfast.domain.webhook.DeliveryDecision.Failure;
import dev.steadfast.domain.webhook.DeliveryDecision.Kind;
import dev.steadfast.domain.webhook.DeliveryDecision.Outcome;
import dev.steadfast.domain.webhook.DeliveryDecision.Result;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The webhooks' pure rules: event filters, where a delivery may go, and what an attempt leads to. */
class WebhookRulesTest {

    static final Instant NOW = Instant.parse("2026-11-29T08:00:00Z");
    static final RetryPolicy SPEC = DeliveryDecision.schedule(8, false);

    @Test
    void typesMatchExactlyByPrefixWildcardOrStar() {
        EventFilter f = new EventFilter(List.of("job.completed", "workflow.*"), List.of(), List.of());
        assertTrue(f.matches("job.completed", "q", "t"));
        assertFalse(f.matches("job.failed", "q", "t"));
        assertTrue(f.matches("workflow.completed", null, null));
        assertFalse(f.matches("workflows.completed", null, null), "the prefix ends at the dot");
        assertTrue(new EventFilter(List.of("*"), List.of(), List.of()).matches("queue.paused", "q", null));
        assertTrue(new EventFilter(List.of("webhook.*"), List.of(), List.of())
                .matches("webhook.subscription.created", null, null));
    }

    @Test
    void queueAndJobTypeListsFilterOnlyWhenGiven() {
        EventFilter f = new EventFilter(List.of("*"), List.of("payments"), List.of("charge"));
        assertTrue(f.matches("job.completed", "payments", "charge"));
        assertFalse(f.matches("job.completed", "billing", "charge"));
        assertFalse(f.matches("job.completed", "payments", "refund"));
        assertFalse(f.matches("queue.paused", "payments", null), "no job type: a job-type filter refuses it");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Job.completed", "job..completed", "job.*.x", "**", "job.", ".job", "job completed", ""})
    void malformedPatternsAreRefused(String pattern) {
        OjsException e = assertThrows(OjsException.class, () -> EventFilter.checkEvents("events", List.of(pattern)));
        assertEquals("events[0]", e.details().get("field"));
    }

    @Test
    void duplicatePatternsAreKeptOnce() {
        assertEquals(List.of("job.*", "*"), EventFilter.checkEvents("events", List.of("job.*", "*", "job.*")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.0.1", "169.254.169.254",
            "100.64.0.1", "0.0.0.0", "224.0.0.1", "::1", "fe80::1", "fd00::1", "::ffff:10.0.0.1", "::"})
    void privateAddressesAreRefused(String address) throws Exception {
        assertTrue(WebhookTarget.refuses(InetAddress.getByName(address), List.of()), address);
    }

    @ParameterizedTest
    @ValueSource(strings = {"93.184.215.14", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700::1111",
            "::ffff:8.8.8.8"})
    void publicAddressesAreAllowed(String address) throws Exception {
        assertFalse(WebhookTarget.refuses(InetAddress.getByName(address), List.of()), address);
    }

    @Test
    void anAllowedRangeLetsItsAddressesThroughAndNoOthers() throws Exception {
        List<AddressRange> loopback = List.of(AddressRange.parse("127.0.0.0/8"));
        assertFalse(WebhookTarget.refuses(InetAddress.getByName("127.0.0.1"), loopback));
        assertFalse(WebhookTarget.refuses(InetAddress.getByName("127.9.9.9"), loopback));
        assertTrue(WebhookTarget.refuses(InetAddress.getByName("10.0.0.1"), loopback));
        assertTrue(WebhookTarget.refuses(InetAddress.getByName("::1"), loopback), "another family");
        assertThrows(IllegalArgumentException.class, () -> AddressRange.parse("10.0.0.0/33"));
        assertThrows(IllegalArgumentException.class, () -> AddressRange.parse("example.com/8"));
    }

    @Test
    void urlsMustBeHttpsUnlessAllowedAndNameAPublicHost() {
        assertEquals("https://hooks.example.com/x?a=1",
                WebhookTarget.check("url", "https://hooks.example.com/x?a=1", false, List.of()).toString());
        assertThrows(OjsException.class, () -> WebhookTarget.check("url", "http://hooks.example.com/", false,
                List.of()));
        assertEquals("http", WebhookTarget.check("url", "http://hooks.example.com/", true, List.of()).getScheme());
        assertThrows(OjsException.class, () -> WebhookTarget.check("url", "https://localhost/", true, List.of()));
        assertThrows(OjsException.class, () -> WebhookTarget.check("url", "https://x.localhost/", true, List.of()));
        assertThrows(OjsException.class, () -> WebhookTarget.check("url", "https://[fd12::1]/", true, List.of()));
        assertThrows(OjsException.class, () -> WebhookTarget.check("url", "https:///nohost", true, List.of()));
        assertThrows(OjsException.class, () -> WebhookTarget.check("url", "https://a.example.com/#frag", true,
                List.of()));
    }

    @Test
    void theScheduleIsTheSpecsTable() {
        Instant at = NOW;
        List<Duration> seen = new java.util.ArrayList<>();
        for (int attempt = 1; attempt < 8; attempt++) {
            Outcome o = DeliveryDecision.decide(attempt, Result.answered(503, null), at, SPEC, new Random(1));
            assertEquals(Kind.RETRY, o.kind());
            seen.add(Duration.between(at, o.nextAttemptAt()));
        }
        assertEquals(DeliveryDecision.SPEC_DELAYS, seen);
        assertEquals(Kind.DEAD, DeliveryDecision.decide(8, Result.answered(503, null), at, SPEC, new Random(1)).kind(),
                "the eighth attempt is the last");
    }

    @Test
    void anotherScheduleRepeatsItsLastDelay() {
        RetryPolicy short_ = DeliveryDecision.schedule(6, false, List.of(Duration.ofSeconds(1), Duration.ofSeconds(5)));
        List<Duration> seen = new java.util.ArrayList<>();
        for (int attempt = 1; attempt < 6; attempt++) {
            seen.add(Duration.between(NOW, DeliveryDecision.decide(attempt, Result.answered(500, null), NOW, short_,
                    new Random(1)).nextAttemptAt()));
        }
        assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(5),
                Duration.ofSeconds(5), Duration.ofSeconds(5)), seen);
    }

    @Test
    void jitterSpreadsTheDelayWithinHalfToOneAndAHalf() {
        RetryPolicy jittered = DeliveryDecision.schedule(8, true);
        for (int seed = 0; seed < 50; seed++) {
            Duration d = Duration.between(NOW, DeliveryDecision.decide(1, Result.failed(Failure.TIMEOUT), NOW,
                    jittered, new Random(seed)).nextAttemptAt());
            assertTrue(d.compareTo(Duration.ofSeconds(15)) >= 0 && d.compareTo(Duration.ofSeconds(45)) < 0, d.toString());
        }
    }

    @Test
    void answersLeadWhereTheSpecSays() {
        Random r = new Random(1);
        assertEquals(Kind.DELIVERED, DeliveryDecision.decide(1, Result.answered(200, null), NOW, SPEC, r).kind());
        assertEquals(Kind.DELIVERED, DeliveryDecision.decide(3, Result.answered(204, null), NOW, SPEC, r).kind());
        Outcome bad = DeliveryDecision.decide(1, Result.answered(400, null), NOW, SPEC, r);
        assertEquals(Kind.DEAD, bad.kind());
        assertFalse(bad.subscriptionGone());
        Outcome gone = DeliveryDecision.decide(1, Result.answered(410, null), NOW, SPEC, r);
        assertEquals(Kind.DEAD, gone.kind());
        assertTrue(gone.subscriptionGone());
        assertEquals(Kind.RETRY, DeliveryDecision.decide(1, Result.failed(Failure.CONNECTION), NOW, SPEC, r).kind());
        assertEquals(Kind.RETRY, DeliveryDecision.decide(1, Result.failed(Failure.REDIRECTS), NOW, SPEC, r).kind());
        assertEquals(Kind.DEAD, DeliveryDecision.decide(1, Result.failed(Failure.TARGET_REFUSED), NOW, SPEC, r).kind());
        assertNull(DeliveryDecision.decide(1, Result.answered(200, null), NOW, SPEC, r).nextAttemptAt());
    }

    @Test
    void rateLimitedAttemptsWaitForRetryAfterAtMostADay() {
        Random r = new Random(1);
        assertEquals(NOW.plusSeconds(90), DeliveryDecision.decide(1, Result.answered(429, Duration.ofSeconds(90)), NOW,
                SPEC, r).nextAttemptAt());
        assertEquals(NOW.plus(Duration.ofHours(24)), DeliveryDecision.decide(1, Result.answered(429,
                Duration.ofDays(9)), NOW, SPEC, r).nextAttemptAt());
        assertEquals(NOW.plusSeconds(30), DeliveryDecision.decide(1, Result.answered(429, null), NOW, SPEC, r)
                .nextAttemptAt(), "without Retry-After: the schedule");
        assertEquals(Kind.DEAD, DeliveryDecision.decide(8, Result.answered(429, Duration.ofSeconds(1)), NOW, SPEC, r)
                .kind());
    }
}
