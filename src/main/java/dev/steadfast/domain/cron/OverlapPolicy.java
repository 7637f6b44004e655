package dev.steadfast.domain.cron;

import java.util.Locale;

/**
 * What an occurrence does while the schedule's previous run has not finished (ojs-cron.md section 6). A run
 * counts as unfinished from enqueue until it reaches a terminal state: waiting, scheduled, active and retrying
 * alike, so {@code skip} never piles occurrences up in a queue nobody drains. The spec's {@code enqueue} policy
 * (queue the run but never execute two at once) is not offered: it needs the claim itself to look at sibling
 * runs, and is refused at registration rather than silently treated as {@code allow}.
 */
public enum OverlapPolicy {
    /** Skip the occurrence (recorded with its reason); the default (ojs-cron.md 6.2). */
    SKIP,
    /** Enqueue regardless; runs may overlap. */
    ALLOW,
    /** Cancel the unfinished previous run, then enqueue. */
    CANCEL_PREVIOUS;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The policy named {@code s}, or null when there is none by that name. */
    public static OverlapPolicy of(String s) {
        for (OverlapPolicy p : values()) {
            if (p.wire().equals(s)) {
                return p;
            }
        }
        return null;
    }
}
