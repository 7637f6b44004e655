package dev.steadfast.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steadfast.store.maintenance.StatsStore.QueueMinute;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueueMinutesTest {

    private static QueueMinute m(String q, long minute, long finished) {
        return new QueueMinute(q, minute, finished, finished, finished * 100);
    }

    @Test
    void settledMinutesAreCountedOnceAndTheNewestEveryTime() {
        QueueMinutes f = new QueueMinutes();
        assertEquals(41, f.countFrom(41), "nothing remembered: the whole window");
        List<QueueMinute> first = f.window(41, 100, 41, List.of(m("a", 50, 5), m("b", 50, 1), m("a", 98, 3),
                m("a", 100, 1)));
        assertEquals(4, first.size());
        assertEquals(99, f.countFrom(41), "minutes up to 98 (now - 2) are remembered");

        // a minute later: 99 and 100 counted again (100 grew), 101 is new; 98 and before are not read again
        List<QueueMinute> second = f.window(42, 101, 99, List.of(m("a", 99, 4), m("a", 100, 6), m("b", 101, 1)));
        assertEquals(List.of(m("a", 50, 5), m("b", 50, 1), m("a", 98, 3), m("a", 99, 4), m("a", 100, 6),
                m("b", 101, 1)), second);
        assertEquals(100, f.countFrom(42));

        // an hour on, the remembered minutes have left the window
        assertEquals(111, f.countFrom(111));
        assertEquals(List.of(m("c", 170, 7)), f.window(111, 170, 111, List.of(m("c", 170, 7))));
        f.forget();
        assertEquals(1, f.countFrom(1));
    }

    @Test
    void activityIsOneSeriesPerQueueWithTheMeanWaitOfEachMinute() {
        long since = 1_000;
        Map<String, QueueActivity> a = StatsService.activity(List.of(
                new QueueMinute("mail", since, 4, 4, 4_000), new QueueMinute("mail", since + 59, 2, 1, 300),
                new QueueMinute("mail", since - 1, 9, 9, 9), new QueueMinute("pdf", since + 10, 1, 0, 0)), since);
        assertEquals(List.of("mail", "pdf"), List.copyOf(a.keySet()));
        QueueActivity mail = a.get("mail");
        assertEquals(StatsService.WINDOW_MINUTES, mail.finished().size());
        assertEquals(4L, mail.finished().get(0));
        assertEquals(2L, mail.finished().get(59));
        assertEquals(6, mail.totalFinished(), "a minute before the window is left out");
        assertEquals(1_000L, mail.meanWaitMs().get(0));
        assertEquals(300L, mail.meanWaitMs().get(59), "the mean over the jobs that started");
        assertEquals(0L, a.get("pdf").meanWaitMs().get(10), "no started job: no wait");
    }
}
