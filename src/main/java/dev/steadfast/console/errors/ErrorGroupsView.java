package dev.steadfast.console.errors;

import dev.steadfast.console.Format;
import dev.steadfast.errorgroups.ErrorGroupService;
import dev.steadfast.store.errorgroups.ErrorGroupRow;
import java.time.Instant;
import java.util.List;

/** The error groups page: one line per group, the most recently failing first, and the next page's link. */
public record ErrorGroupsView(List<Line> groups, String nextHref, boolean paged) {

    /** One group as the list shows it. */
    public record Line(String href, String errorType, String message, String failures, Sparkline sparkline,
                       String firstSeen, String firstSeenIso, String firstAgo, String lastSeen, String lastSeenIso,
                       String lastAgo, String queues, String types) {
    }

    static Line line(ErrorGroupService.Group g, Instant now) {
        ErrorGroupRow r = g.row();
        return new Line("/admin/errors/" + g.id(), r.errorType().isEmpty() ? "(no type)" : r.errorType(),
                r.message().isEmpty() ? "(no message)" : r.message(), Format.count(r.failures()),
                Sparkline.of(g.hourly()), Format.time(r.firstSeen()), Format.iso(r.firstSeen()),
                Format.relative(r.firstSeen(), now), Format.time(r.lastSeen()), Format.iso(r.lastSeen()),
                Format.relative(r.lastSeen(), now), String.join(", ", r.queues()), String.join(", ", r.types()));
    }
}
