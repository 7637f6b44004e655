package dev.steadfast.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.steadfast.store.maintenance.StatsStore.QueueMinute;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueueActivityTest {

    @Test
    void activityIsOneSeriesPerQueueWithTheMeanWaitOfEachMinute() {
        long since = 1_000;
        Map<String, QueueActivity> a = StatsService.activity(List.of(
                new QueueMinute("mail", since, 4, 4, 4_000), new QueueMinute("mail", since + 59, 2, 1, 300),
                new QueueMinute("mail", since - 1, 9, 9, 9), new QueueMinute("mail", since + 60, 9, 9, 9),
                new QueueMinute("pdf", since + 10, 1, 0, 0)), since);
        assertEquals(List.of("mail", "pdf"), List.copyOf(a.keySet()));
        QueueActivity mail = a.get("mail");
        assertEquals(StatsService.WINDOW_MINUTES, mail.finished().size());
        assertEquals(4L, mail.finished().get(0));
        assertEquals(2L, mail.finished().get(59));
        assertEquals(6, mail.totalFinished(), "minutes outside the window are left out");
        assertEquals(1_000L, mail.meanWaitMs().get(0));
        assertEquals(300L, mail.meanWaitMs().get(59), "the mean over the jobs that started");
        assertEquals(0L, a.get("pdf").meanWaitMs().get(10), "no started job: no wait");
    }
}
