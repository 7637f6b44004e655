package dev.steadfast.console.audit;

import dev.steadfast.console.Format;
import dev.steadfast.console.Links;
import dev.steadfast.model.AuditRow;
import java.time.Instant;
import java.util.List;

/**
 * The audit page: the filter form as the user sent it, one line per entry (newest first), and the links to the
 * next and the first page (null when there is none).
 */
public record AuditView(String actor, String action, String sinceInput, String untilInput, boolean filtered,
                        List<Line> lines, String nextHref, String firstHref) {

    /** One entry as the page shows it; {@code jobs} is empty when the action is not about a number of jobs. */
    public record Line(String id, String at, String iso, String ago, String actor, String via, String action,
                       String scope, String jobs, String client, String outcome, int status) {

        public String actorHref() {
            return Links.to("/admin/audit").with("actor", actor).toString();
        }

        public String actionHref() {
            return Links.to("/admin/audit").with("action", action).toString();
        }

        static Line of(AuditRow r, Instant now) {
            return new Line(Long.toString(r.id()), Format.time(r.at()), Format.iso(r.at()), Format.relative(r.at(), now),
                    r.actor(), r.via(), r.action(), scope(r.scope()), r.jobs() == null ? "" : Format.count(r.jobs()),
                    r.client() == null ? "" : r.client(), r.outcome(), r.status());
        }

        /** The stored JSON object, without its braces: {@code "queue":"mail","id":"..."}. */
        static String scope(String json) {
            return json == null || json.length() < 2 || json.equals("{}") ? "" : json.substring(1, json.length() - 1);
        }
    }

    /** The page's URL with these filters, after {@code cursor} (null: the first page). */
    static String href(String actor, String action, Instant since, Instant until, String cursor) {
        return Links.to("/admin/audit").with("actor", actor).with("action", action).with("since", Format.input(since))
                .with("until", Format.input(until)).with("after", cursor).toString();
    }
}
