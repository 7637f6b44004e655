package dev.steadfast.deadletters;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.http.Body;
import dev.steadfast.http.Params;
import dev.steadfast.http.Responses;
import dev.steadfast.http.Timestamps;
import dev.steadfast.jobs.JobAnswer;
import dev.steadfast.jobs.JobChange;
import dev.steadfast.jobs.JobView;
import dev.steadfast.maintenance.RetentionConfig;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;

/**
 * The answers the binding's dead-letter routes and the admin API's answer alike (statistics, retry of one, bulk
 * retry by filter): one implementation behind both resources, which keep only their routes and roles.
 */
@ApplicationScoped
class DeadLetterReplies {

    private final DeadLetterService deadLetters;
    private final RetentionConfig config;
    private final ObjectMapper json;

    DeadLetterReplies(DeadLetterService deadLetters, RetentionConfig config, ObjectMapper json) {
        this.deadLetters = deadLetters;
        this.config = config;
        this.json = json;
    }

    Uni<Response> stats() {
        return deadLetters.stats().map(s -> Responses.ok(json, DeadLetterViews.stats(s, retention())));
    }

    Uni<Response> retry(String id) {
        return deadLetters.retry(Params.jobId(id)).map(j -> Responses.ok(json, JobAnswer.of(JobChange.reEnqueued(
                JobView.of(json, j), Timestamps.format(j.enqueuedAt())))));
    }

    /** Bulk retry: {@code {"filter": {...}, "confirm": true}}. */
    Uni<Response> retryMatching(String body) {
        return Uni.createFrom().item(() -> Body.parse(json, body)).flatMap(b ->
                deadLetters.retryAll(DeadLetterViews.filter(b), Boolean.TRUE.equals(b.bool("confirm"))))
                .map(r -> Responses.ok(json, DeadLetterViews.bulk(r)));
    }

    private DeadLetterAnswers.Retention retention() {
        return new DeadLetterAnswers.Retention(config.deadLetter().map(Object::toString).orElse(null), null);
    }
}
