package dev.steadfast.work;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.steadfast.http.Pagination;
import java.util.List;

/** The admin API's workers: each as last seen, counts by state, and one page holding them all. */
record WorkerList(List<Item> items, Summary summary, Pagination pagination) {

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Item(String id, String hostname, String state, String directive, List<String> queues, long activeJobs,
                String startedAt, String lastHeartbeatAt) {
    }

    record Summary(int total, int running, int quiet, int stale) {
    }

    /** What a directive answers: the worker and the directive it gets on its next heartbeat. */
    record Directed(String id, String directive) {
    }
}
