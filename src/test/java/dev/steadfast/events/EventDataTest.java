package dev.steadfast.events;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * The events' data as their JSON reads (ojs-events.md 3): the field names, their order (job_type and queue first)
 * and which fields are left out when null (only the ones an event carries sometimes).
 */
class EventDataTest {

    private final ObjectMapper json = new ObjectMapper();

    private String write(Object data) throws JsonProcessingException {
        return json.writeValueAsString(data);
    }

    @Test
    void jobEventsOpenWithTheJobTypeAndTheQueue() throws JsonProcessingException {
        assertEquals("{\"job_type\":\"email.send\",\"queue\":\"mail\",\"job_id\":\"j1\",\"priority\":3}",
                write(new EventData.Enqueued("email.send", "mail", "j1", 3)));
        assertEquals("{\"job_type\":\"t\",\"queue\":\"q\",\"job_id\":\"j1\",\"priority\":0,"
                        + "\"scheduled_at\":\"2026-11-30T06:00:00.000Z\"}",
                write(new EventData.Scheduled("t", "q", "j1", 0, "2026-11-30T06:00:00.000Z")));
        assertEquals("{\"job_type\":\"t\",\"queue\":\"q\",\"duration_ms\":12,\"attempt\":1}",
                write(new EventData.Completed("t", "q", 12, 1)));
    }

    @Test
    void anAnonymousWorkerIsANullWorkerId() throws JsonProcessingException {
        assertEquals("{\"job_type\":\"t\",\"queue\":\"q\",\"worker_id\":null,\"attempt\":2}",
                write(new EventData.Started("t", "q", null, 2)));
    }

    @Test
    void aFailureCarriesItsDurationOnlyWhenTheAttemptHadStarted() throws JsonProcessingException {
        EventData.Failure err = new EventData.Failure(null, "TimeoutError", "took too long", true);
        assertEquals("{\"job_type\":\"t\",\"queue\":\"q\",\"attempt\":1,\"error\":{\"code\":null,"
                        + "\"type\":\"TimeoutError\",\"message\":\"took too long\",\"retryable\":true},"
                        + "\"duration_ms\":40}",
                write(new EventData.Failed("t", "q", 1, err, 40L)));
        assertEquals("{\"job_type\":\"t\",\"queue\":\"q\",\"attempt\":1,\"error\":{\"code\":null,"
                        + "\"type\":\"TimeoutError\",\"message\":\"took too long\",\"retryable\":true}}",
                write(new EventData.Failed("t", "q", 1, err, null)));
        assertEquals("{\"job_type\":\"t\",\"queue\":\"q\",\"attempt\":1,\"error\":{\"code\":null,"
                        + "\"type\":\"TimeoutError\",\"message\":\"took too long\",\"retryable\":true},"
                        + "\"max_attempts\":3,\"next_retry_at\":\"2026-11-30T06:00:01.000Z\"}",
                write(new EventData.Retrying("t", "q", 1, err, null, 3, "2026-11-30T06:00:01.000Z")));
    }

    @Test
    void aDiscardedJobNamesItsLastErrorOrWhyItExpired() throws JsonProcessingException {
        EventData.Failure err = new EventData.Failure("handler_error", "Boom", "no", false);
        assertEquals("{\"job_type\":\"t\",\"queue\":\"q\",\"total_attempts\":3,\"last_error\":{\"code\":"
                        + "\"handler_error\",\"type\":\"Boom\",\"message\":\"no\",\"retryable\":false},"
                        + "\"dead_letter\":true}",
                write(new EventData.Discarded("t", "q", 3, err, true)));
        assertEquals("{\"job_type\":\"t\",\"queue\":\"q\",\"reason\":\"expired\","
                        + "\"expires_at\":\"2026-11-30T06:00:00.000Z\",\"total_attempts\":0,\"dead_letter\":false}",
                write(new EventData.Expired("t", "q", "expired", "2026-11-30T06:00:00.000Z", 0, false)));
    }

    @Test
    void queueEventsNameTheQueueAndWhoActed() throws JsonProcessingException {
        assertEquals("{\"queue\":\"q\",\"paused_by\":\"ops\"}", write(new EventData.QueuePaused("q", "ops")));
        assertEquals("{\"queue\":\"q\",\"resumed_by\":\"ops\"}", write(new EventData.QueueResumed("q", "ops")));
    }

    @Test
    void aCronFiringSaysWhyItWasHeldOrWhoFiredItOnlyWhenSo() throws JsonProcessingException {
        assertEquals("{\"job_type\":\"t\",\"queue\":\"q\",\"cron_name\":\"nightly\","
                        + "\"scheduled_time\":\"2026-11-30T00:00:00.000Z\",\"job_id\":\"j1\"}",
                write(new EventData.CronTriggered("t", "q", "nightly", "2026-11-30T00:00:00.000Z", "j1", null, null,
                        null)));
        assertEquals("{\"job_type\":\"t\",\"queue\":\"q\",\"cron_name\":\"nightly\","
                        + "\"scheduled_time\":\"2026-11-30T00:00:00.000Z\",\"job_id\":\"j1\",\"held\":true,"
                        + "\"queued_occurrences\":2}",
                write(new EventData.CronTriggered("t", "q", "nightly", "2026-11-30T00:00:00.000Z", "j1", true, 2,
                        null)));
    }

    @Test
    void aDeadDeliveryKeepsItsErrorEvenWhenNullAndHasNoNextAttempt() throws JsonProcessingException {
        assertEquals("{\"delivery_id\":\"del_1\",\"subscription_id\":\"sub_1\",\"event_type\":\"job.completed\","
                        + "\"attempt\":8,\"status_code\":500,\"duration_ms\":15,\"error\":null}",
                write(new EventData.WebhookFailed("del_1", "sub_1", "job.completed", 8, 500, 15, null, null)));
        assertEquals("{\"delivery_id\":\"del_1\",\"subscription_id\":\"sub_1\",\"event_type\":\"job.completed\","
                        + "\"attempt\":1,\"duration_ms\":3}",
                write(new EventData.WebhookDelivered("del_1", "sub_1", "job.completed", 1, null, 3)));
    }
}
