package dev.steadfast.console;

import dev.steadfast.console.audit.AuditView;
import dev.steadfast.console.errors.ErrorGroupView;
import dev.steadfast.console.errors.ErrorGroupsView;
import dev.steadfast.console.jobs.DeadLetterView;
import dev.steadfast.console.jobs.JobDetailView;
import dev.steadfast.console.jobs.JobListView;
import dev.steadfast.console.jobs.WorkflowPanel;
import dev.steadfast.console.tools.RetrySimulation;
import dev.steadfast.console.webhooks.WebhooksView;
import dev.steadfast.console.workflows.WorkflowListView;
import dev.steadfast.console.workflows.WorkflowPageView;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;

/**
 * The console's templates (src/main/resources/templates/admin/), type-checked at build time. Each takes the
 * {@link Chrome} around the page and one view record loaded before rendering: templates do no I/O.
 */
@CheckedTemplate(basePath = "admin")
public final class Pages {

    private Pages() {
    }

    public static native TemplateInstance overview(Chrome chrome, OverviewView view);

    /** The self-refreshing part of the overview, fetched every few seconds by console.js. */
    public static native TemplateInstance overview$live(OverviewView view);

    public static native TemplateInstance queues(Chrome chrome, QueuesView view);

    public static native TemplateInstance queue(Chrome chrome, QueueView view);

    public static native TemplateInstance jobs(Chrome chrome, JobListView view);

    public static native TemplateInstance job(Chrome chrome, JobDetailView view, WorkflowPanel workflow);

    public static native TemplateInstance deadLetter(Chrome chrome, DeadLetterView view);

    public static native TemplateInstance errors(Chrome chrome, ErrorGroupsView view);

    public static native TemplateInstance errorGroup(Chrome chrome, ErrorGroupView view);

    public static native TemplateInstance workers(Chrome chrome, WorkersView view);

    public static native TemplateInstance webhooks(Chrome chrome, WebhooksView view);

    public static native TemplateInstance webhook(Chrome chrome,
                                                  WebhooksView.Detail view);

    public static native TemplateInstance cron(Chrome chrome, CronView view);

    public static native TemplateInstance cronSchedule(Chrome chrome, CronScheduleView view);

    public static native TemplateInstance workflows(Chrome chrome, WorkflowListView view);

    public static native TemplateInstance workflow(Chrome chrome, WorkflowPageView view);

    public static native TemplateInstance retrySimulator(Chrome chrome,
            RetrySimulation view);

    public static native TemplateInstance confirm(Chrome chrome, ConfirmView view);

    public static native TemplateInstance login(Chrome chrome, String next, String error);

    public static native TemplateInstance error(Chrome chrome, int status, String title, String message);

    public static native TemplateInstance audit(Chrome chrome, AuditView view);
}
