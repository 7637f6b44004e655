package dev.steadfast.events;

import dev.steadfast.domain.JobIds;
import dev.steadfast.http.Timestamps;
import java.time.Instant;

/**
 * One lifecycle event in the OJS event envelope (ojs-events.md section 2): an id, a type such as
 * {@code job.completed}, the time, the job id as subject, and the type's data fields: one of {@link EventData}'s
 * records for the events this instance emits, a map of the same fields for one heard from another instance.
 */
public record JobEvent(String id, String type, Instant time, String subject, String queue, String jobType,
                       Object data) {

    /**
     * A new event id: {@code evt_} and a UUIDv7 of {@code at}, so ids sort by time and serve as the polling cursor
     * ({@link EventLog}).
     */
    public static String newId(Instant at) {
        return "evt_" + JobIds.nextPlain(at.toEpochMilli());
    }

    /** The event as a CloudEvent (the JSON of the event stream and the events listing). */
    public static CloudEvent cloudEvent(JobEvent e) {
        return new CloudEvent("1.0", e.id(), e.type(), "ojs://steadfast/api", Timestamps.format(e.time()),
                e.subject(), "application/json", e.data());
    }

    /** The CloudEvents 1.0 envelope; {@code data} is the event type's own fields. */
    public record CloudEvent(String specversion, String id, String type, String source, String time, String subject,
                             String datacontenttype, Object data) {
    }
}
