package dev.steadfast.jobs;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** PUSH batch's answer: {@code {"jobs": [...], "count": n}}, plus {@code warnings} when there are any. */
record JobBatch(List<JobView> jobs, int count,
                       @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> warnings) {
}
