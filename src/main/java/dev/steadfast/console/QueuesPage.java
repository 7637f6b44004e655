package dev.steadfast.console;

import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.JobRules;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.limits.QueueLimits;
import dev.steadfast.queues.QueueLimiter;
import dev.steadfast.queues.QueueService;
import dev.steadfast.stats.QueueStats;
import dev.steadfast.stats.StatsService;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import org.jboss.logging.Logger;

/**
 * {@code /admin/queues}: depth by state per queue with the last hour's throughput and latency, and pause /
 * resume; {@code /admin/queues/{name}}: one queue, its concurrency and rate limits as a form. Every change goes
 * through the service the admin API uses ({@link QueueService} for pause and resume, {@link QueueLimiter#set} for
 * limits), one call per action, which answers what it changed.
 */
@Path("/admin/queues")
@Produces(MediaType.TEXT_HTML)
@PermitAll
class QueuesPage {

    private static final Logger LOG = Logger.getLogger(QueuesPage.class);

    private final StatsService stats;
    private final QueueService queues;
    private final QueueLimiter limiter;
    private final ConsoleRequest request;
    private final Clock clock;

    public QueuesPage(StatsService stats, QueueService queues, QueueLimiter limiter, ConsoleRequest request,
                      Clock clock) {
        this.stats = stats;
        this.queues = queues;
        this.limiter = limiter;
        this.request = request;
        this.clock = clock;
    }

    @GET
    public Uni<TemplateInstance> page() {
        Chrome chrome = request.chrome("queues");
        return Uni.combine().all().unis(stats.queues(), stats.queueActivity()).asTuple()
                .map(t -> Pages.queues(chrome, QueuesView.of(t.getItem1(), t.getItem2(), clock.instant())));
    }

    /** One queue: depth, limits (a form), the last hour's throughput and latency. */
    @GET
    @Path("/{name}")
    public Uni<Response> queue(@PathParam("name") String name) {
        return view(name, null, null).map(v -> Response.ok(v).build());
    }

    /**
     * Sets the queue's limits from the form (an empty field is no limit), as {@code PUT
     * /ojs/v1/admin/queues/{name}/rate-limit} does; a refused value shows the page again with the message (400)
     * and changes nothing.
     */
    @POST
    @Path("/{name}/limits")
    public Uni<Response> limits(@PathParam("name") String name, @FormParam("concurrency") String concurrency,
                                @FormParam("rate_limit") String rateLimit, @FormParam("rate_period") String ratePeriod) {
        JobRules.checkQueue(name);
        QueueLimitsForm form = new QueueLimitsForm(nz(concurrency), nz(rateLimit), nz(ratePeriod));
        QueueLimits typed;
        try {
            typed = form.limits();
        } catch (OjsException e) {
            return view(name, form, e.getMessage()).map(v -> Response.status(e.code().status()).entity(v).build());
        }
        return limiter.set(name, typed).map(l -> {
            LOG.infof("queue '%s' limits set by %s: %s", name, request.actor(), QueueView.summary(l));
            return Flash.redirect(path(name), "Limits of queue " + name + " saved: " + QueueView.summary(l));
        });
    }

    @POST
    @Path("/{name}/pause")
    public Uni<Response> pause(@PathParam("name") String name, @FormParam("back") String back) {
        return queues.pause(name, request.actor()).map(q -> Flash.redirect(back(back, name),
                "Paused queue " + name + ": workers get no jobs from it until it is resumed; enqueueing continues."));
    }

    @POST
    @Path("/{name}/resume")
    public Uni<Response> resume(@PathParam("name") String name, @FormParam("back") String back) {
        return queues.resume(name, request.actor())
                .map(q -> Flash.redirect(back(back, name), "Resumed queue " + name + "."));
    }

    private Uni<TemplateInstance> view(String name, QueueLimitsForm typed, String error) {
        JobRules.checkQueue(name);
        Chrome chrome = request.chrome("queues");
        Uni<QueueLimits> limits = limiter.get(name).onFailure(e -> e instanceof OjsException o
                && o.code() == ErrorCode.NOT_FOUND).recoverWithItem(new QueueLimits(null, null, null));
        return Uni.combine().all().unis(stats.queues(), limits, stats.queueActivity()).asTuple().map(t -> {
            QueueStats q = t.getItem1().stream().filter(s -> s.name().equals(name)).findFirst()
                    .orElseThrow(() -> OjsException.notFound("queue", name));
            QueueLimitsForm form = typed != null ? typed : QueueLimitsForm.of(t.getItem2());
            return Pages.queue(chrome, QueueView.of(q, form, QueueView.summary(t.getItem2()), error,
                    t.getItem3().byQueue().get(name), t.getItem3().through(), clock.instant()));
        });
    }

    /** The queue's page or the list, never elsewhere (the name was checked by the service). */
    private static String back(String back, String name) {
        return "queue".equals(back) ? path(name) : "/admin/queues";
    }

    private static String path(String name) {
        return "/admin/queues/" + URLEncoder.encode(name, StandardCharsets.UTF_8);
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
