package dev.steadfast.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.steadfast.console.ConfirmView.Hidden;
import dev.steadfast.cron.CronService;
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
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * {@code /admin/cron}: the schedules (next and last occurrence, last run and its state, the latest skip and why),
 * pause / resume, and delete after a confirmation; the same {@link CronService} as the API.
 */
@Path("/admin/cron")
@Produces(MediaType.TEXT_HTML)
@PermitAll
class CronPage {

    private static final Logger LOG = Logger.getLogger(CronPage.class);
    private static final int SHOWN = 500;

    /** How many upcoming occurrences and recorded ones a schedule's page shows. */
    static final int NEXT = 5;
    static final int RUNS = 20;

    private final CronService crons;
    private final ConsoleRequest request;
    private final Clock clock;
    private final ObjectMapper json;

    public CronPage(CronService crons, ConsoleRequest request, Clock clock,
                    ObjectMapper json) {
        this.crons = crons;
        this.request = request;
        this.clock = clock;
        this.json = json;
    }

    /** One schedule: its expression in words, the next {@value #NEXT} occurrences, its latest occurrences. */
    @GET
    @Path("/{name}")
    public Uni<TemplateInstance> schedule(@PathParam("name") String name) {
        Chrome chrome = request.chrome("cron");
        Instant now = clock.instant();
        return crons.get(name).flatMap(c -> crons.recentRuns(name, RUNS).map(runs -> Pages.cronSchedule(chrome,
                CronScheduleView.of(c, CronView.describe(c.expression()), pretty(c.templateJson()),
                        CronService.fireTimes(c.expression(), c.timezone()).next(now, NEXT), runs, now))));
    }

    /** Run now: one occurrence enqueued at once from the schedule's template ({@link CronService#runNow}). */
    @POST
    @Path("/{name}/run")
    public Uni<Response> run(@PathParam("name") String name, @FormParam("back") String back) {
        return crons.runNow(name, request.actor()).map(r -> Flash.redirect(backTo(back, name), "Enqueued job "
                + r.jobId() + " in queue " + r.queue() + " from cron " + name + "."));
    }

    /** Back to the schedule's page or the list, never elsewhere. */
    private static String backTo(String back, String name) {
        return "schedule".equals(back) ? "/admin/cron/" + name : "/admin/cron";
    }

    private String pretty(String templateJson) {
        try {
            return json.writerWithDefaultPrettyPrinter().writeValueAsString(json.readTree(templateJson));
        } catch (IOException e) {
            return templateJson;
        }
    }

    @GET
    public Uni<TemplateInstance> page() {
        Chrome chrome = request.chrome("cron");
        return crons.list(SHOWN, 0).map(p -> Pages.cron(chrome, CronView.of(p.rows(), p.total(), clock.instant())));
    }

    @POST
    @Path("/{name}/pause")
    public Uni<Response> pause(@PathParam("name") String name, @FormParam("back") String back) {
        return crons.setEnabled(name, false).map(c -> {
            LOG.infof("cron %s paused by %s", name, request.actor());
            return Flash.redirect(backTo(back, name), "Paused cron " + name + ": no occurrence fires until it is resumed.");
        });
    }

    @POST
    @Path("/{name}/resume")
    public Uni<Response> resume(@PathParam("name") String name, @FormParam("back") String back) {
        return crons.setEnabled(name, true).map(c -> {
            LOG.infof("cron %s resumed by %s", name, request.actor());
            return Flash.redirect(backTo(back, name), "Resumed cron " + name + "; next run " + Format.time(c.nextFireAt())
                    + " UTC.");
        });
    }

    @POST
    @Path("/{name}/delete")
    public Uni<Response> delete(@PathParam("name") String name, @FormParam("confirm") String confirm) {
        if (!ConsoleParams.confirmed(confirm)) {
            Chrome chrome = request.chrome("cron");
            return crons.get(name).map(c -> Response.ok(Pages.confirm(chrome, new ConfirmView(
                    "Delete cron " + name + "?", "The schedule '" + c.expression() + "' (" + c.timezone()
                    + ") stops for good; jobs it already enqueued are not affected.", "/admin/cron/" + name
                    + "/delete", List.of(new Hidden("confirm", "yes")), "Delete", true, "/admin/cron"))).build());
        }
        return crons.delete(name).map(c -> {
            LOG.infof("cron %s deleted by %s", name, request.actor());
            return Flash.redirect("/admin/cron", "Deleted cron " + name + ".");
        });
    }
}
