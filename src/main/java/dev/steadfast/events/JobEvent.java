package dev.steadfast.events;

import dev.steadfast.http.Timestamps;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One lifecycle event in the OJS event envelope (ojs-events.md section 2): an id, a type such as
 * {@code job.completed}, the time, the job id as subject, and the type's data fields.
 */
public record JobEvent(String id, String type, Instant time, String subject, String queue, String jobType,
                       Map<String, Object> data) {

    /** The event as a CloudEvent (the JSON of the event stream and the events listing). */
    public static Map<String, Object> cloudEvent(JobEvent e) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("specversion", "1.0");
        v.put("id", e.id());
        v.put("type", e.type());
        v.put("source", "ojs://steadfast/api");
        v.put("time", Timestamps.format(e.time()));
        v.put("subject", e.subject());
        v.put("datacontenttype", "application/json");
        v.put("data", e.data());
        return v;
    }
}
