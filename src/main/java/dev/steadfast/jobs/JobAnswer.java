package dev.steadfast.jobs;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * {@code {"job": ...}}, the answer of PUSH, INFO, CANCEL and the operator's job actions; PUSH adds
 * {@code "deduplicated": true} when an existing job holds the unique key (ojs-unique-jobs.md 5.4) and
 * {@code warnings} when a schema in warn mode had any (ojs-schema-registry.md 7.3).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record JobAnswer<J>(J job, Boolean deduplicated,
                           @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> warnings) {

    public static <J> JobAnswer<J> of(J job) {
        return new JobAnswer<>(job, null, null);
    }
}
