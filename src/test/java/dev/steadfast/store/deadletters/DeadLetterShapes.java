package dev.steadfast.store.deadletters;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The shapes of the dead letter queue's queries that RenderedSqlTest renders, made here because the listing's builder
 * is visible in this package only. They are HQL on FinishedJobEntity, which Hibernate turns into SQL: the listing's
 * whole query, and the condition the count and the bulk actions' batches select by.
 */
public final class DeadLetterShapes {

    private DeadLetterShapes() {
    }

    /** Each shape by its name, the cursor at ({@code at}, {@code id}). */
    public static Map<String, String> rendered(Instant at, UUID id) {
        DeadLetterFilter every = new DeadLetterFilter("mail", "mail.send", "SmtpTimeout", at.minusSeconds(86_400), at);
        Map<String, String> v = new LinkedHashMap<>();
        v.put("DeadLetterStore.listing(every dead letter, newest first)",
                DeadLetterStore.listing(DeadLetterFilter.ALL, null, null).hql());
        v.put("DeadLetterStore.listing(every dead letter, the next page)",
                DeadLetterStore.listing(DeadLetterFilter.ALL, at, id).hql());
        v.put("DeadLetterStore.listing(queue, type, error type and time range)",
                DeadLetterStore.listing(every, null, null).hql());
        v.put("DeadLetterStore.where(queue, type, error type and time range)", DeadLetterStore.where(every).hql());
        return v;
    }
}
