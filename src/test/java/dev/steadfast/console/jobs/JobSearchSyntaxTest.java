package dev.steadfast.console.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.OjsException;
import dev.steadfast.model.JobFilter.ArgsEquals;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The jobs search box's syntax: text words and args.<path>:<value> conditions, without a database. */
class JobSearchSyntaxTest {

    @Test
    void emptyOrBlankIsNoSearch() {
        assertEquals(new JobSearchSyntax.Parsed(null, List.of()), JobSearchSyntax.parse(null));
        assertEquals(new JobSearchSyntax.Parsed(null, List.of()), JobSearchSyntax.parse("   "));
    }

    @Test
    void plainTextStaysText() {
        JobSearchSyntax.Parsed p = JobSearchSyntax.parse("timeout  while sending");
        assertEquals("timeout while sending", p.text());
        assertEquals(List.of(), p.args());
    }

    @Test
    void numbersStringsAndNestedPaths() {
        JobSearchSyntax.Parsed p = JobSearchSyntax.parse("args.user_id:42 args.address.city:Edinburgh");
        assertNull(p.text());
        assertEquals(List.of(new ArgsEquals(List.of("user_id"), "42"),
                new ArgsEquals(List.of("address", "city"), "\"Edinburgh\"")), p.args());
    }

    @Test
    void conditionsAndTextMix() {
        JobSearchSyntax.Parsed p = JobSearchSyntax.parse("refund args.currency:EUR failed");
        assertEquals("refund failed", p.text());
        assertEquals(List.of(new ArgsEquals(List.of("currency"), "\"EUR\"")), p.args());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "args.n:42            | 42",
            "args.n:-1.50         | -1.5",
            "args.n:1e3           | 1000",
            "args.n:0             | 0",
            "args.n:true          | true",
            "args.n:false         | false",
            "args.n:042           | \"042\"",
            "args.n:42abc         | \"42abc\"",
            "args.n:\"42\"        | \"42\"",
            "args.n:\"New York\"  | \"New York\"",
            "args.n:null          | \"null\"",
            "args.n:a\\b          | \"a\\\\b\"",
            "args.n:say\"hi       | \"say\\\"hi\"",
            "args.n:\"\"          | \"\"",
    })
    void valuesBecomeJson(String q, String json) {
        assertEquals(json, JobSearchSyntax.parse(q).args().get(0).json());
    }

    @ParameterizedTest
    @ValueSource(strings = {"args.user_id", "args.user_id: 42", "args.:42", "args.a..b:1", "args.a.:1",
            "args.user id:1", "args.a$b:1", "args.city:\"Edin", "args.city:\"Edin\"burgh",
            "args.a.b.c.d.e.f.g.h.i:1", "args.a:1 args.b:1 args.c:1 args.d:1 args.e:1 args.f:1"})
    void badSyntaxIsA400NamingTheSearchBox(String q) {
        OjsException e = assertThrows(OjsException.class, () -> JobSearchSyntax.parse(q));
        assertEquals(ErrorCode.INVALID_REQUEST, e.code(), q);
        assertTrue(e.getMessage().contains("args."), e.getMessage());
    }

    @Test
    void tooLongAndNulValuesAreRefused() {
        assertThrows(OjsException.class, () -> JobSearchSyntax.parse("args.a:" + "x".repeat(201)));
        assertThrows(OjsException.class, () -> JobSearchSyntax.parse("args.a:\"x\u0000y\""));
    }

    @Test
    void aWordThatOnlyLooksLikeArgsIsText() {
        assertEquals("args:42 myargs.x:1", JobSearchSyntax.parse("args:42 myargs.x:1").text());
    }
}
