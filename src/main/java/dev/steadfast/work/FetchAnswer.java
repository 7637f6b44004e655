package dev.steadfast.work;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.steadfast.jobs.JobView;
import java.util.List;

/** FETCH's answer: {@code {"jobs": [...], "job": first}}; {@code job} is left out when nothing was claimed. */
@JsonInclude(JsonInclude.Include.NON_NULL)
record FetchAnswer(List<JobView> jobs, JobView job) {

    static FetchAnswer of(List<JobView> jobs) {
        return new FetchAnswer(jobs, jobs.isEmpty() ? null : jobs.get(0));
    }
}
