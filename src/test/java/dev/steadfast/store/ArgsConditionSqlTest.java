package dev.steadfast.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.steadfast.model.JobFilter;
import dev.steadfast.model.JobFilter.ArgsEquals;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How an args condition becomes SQL: the trigram needle, the jsonpath and its bound values, without a database. */
class ArgsConditionSqlTest {

    @Test
    void longStringsAreLookedForAloneShortValuesWithTheirKey() {
        assertEquals("\"Edinburgh\"", JobQueryStore.needle(new ArgsEquals(List.of("address", "city"), "\"Edinburgh\"")));
        assertEquals("\"currency\": \"EUR\"", JobQueryStore.needle(new ArgsEquals(List.of("currency"), "\"EUR\"")));
        assertEquals("\"width\": 640", JobQueryStore.needle(new ArgsEquals(List.of("width"), "640")));
        assertEquals("\"ok\": true", JobQueryStore.needle(new ArgsEquals(List.of("ok"), "true")));
    }

    @Test
    void thePathIsQuotedKeysAndTheValueABoundVariable() {
        assertEquals("$.\"address\".\"city\" ? (@ == $v)", JobQueryStore.jsonPath(List.of("address", "city")));
        List<String> where = new ArrayList<>();
        List<Object> params = new ArrayList<>(List.of("x"));
        JobQueryStore.conditions(new JobFilter(null, null, null, false, null, null, null, null,
                List.of(new ArgsEquals(List.of("user_id"), "42"))), where, params);
        assertEquals(List.of("job_search_text(args, meta, errors) ILIKE $2",
                "jsonb_path_exists(args, $3::text::jsonpath, $4::text::jsonb)"), where);
        assertEquals(List.of("x", "%\"user\\_id\": 42%", "$.\"user_id\" ? (@ == $v)", "{\"v\": 42}"), params);
    }

    @Test
    void aKeyOutsideTheSafeCharactersNeverReachesSql() {
        assertThrows(IllegalArgumentException.class, () -> new ArgsEquals(List.of("a\" || true"), "1"));
    }
}
