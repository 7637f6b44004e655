package dev.steadfast.work;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.steadfast.domain.OjsException;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Batch ACK's answer: {@code {"results": [...]}}, one per item in request order, each {@code job_id} and
 * {@code ok}, then the ACK's or FAIL's own answer, or the refusal's {@code error}.
 */
record BatchAckAnswer(List<Result> results) {

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Result(String jobId, boolean ok, @JsonUnwrapped @JsonIgnoreProperties("job_id") AckAnswer acked,
                  @JsonUnwrapped @JsonIgnoreProperties("job_id") JobOutcome failed, Error error) {

        static Result acked(AckAnswer a) {
            return new Result(a.jobId(), true, a, null, null);
        }

        static Result failed(JobOutcome o) {
            return new Result(o.jobId(), true, null, o, null);
        }

        static Result refused(UUID id, OjsException e) {
            return new Result(id.toString(), false, null, null,
                    new Error(e.code().wire(), e.getMessage(), e.details()));
        }
    }

    /** A refused item's error; {@code details} is always written. */
    record Error(String code, String message, Map<String, Object> details) {
    }
}
