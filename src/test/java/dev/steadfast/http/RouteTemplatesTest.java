package dev.steadfast.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which route template a request path was meant for, as failed-authentication lines name it. */
class RouteTemplatesTest {

    private final RouteTemplates routes = new RouteTemplates(List.of("/ojs/v1/jobs", "/ojs/v1/jobs//{id}",
            "/ojs/v1/jobs/batch", "/ojs/v1/jobs/{id}/activate", "/ojs/v1/queues/{name}/pause",
            "/ojs/v1/admin/queues/{name}/config", "/ojs/v1/admin/queues/{name}", "/ojs/v1/dead-letter/{id: [^/]+}",
            "/ojs/v1/workers/fetch", "/ojs/v1/jobs/{id}"));

    @Test
    void idsBecomeTheirParameterName() {
        assertEquals("/ojs/v1/jobs/{id}", routes.of("/ojs/v1/jobs/019a0000-0000-7000-8000-000000000001"));
        assertEquals("/ojs/v1/jobs/{id}/activate", routes.of("/ojs/v1/jobs/0199/activate"));
        assertEquals("/ojs/v1/queues/{name}/pause", routes.of("/ojs/v1/queues/billing/pause"));
        assertEquals("/ojs/v1/admin/queues/{name}/config", routes.of("/ojs/v1/admin/queues/q/config"));
        assertEquals("/ojs/v1/dead-letter/{id}", routes.of("/ojs/v1/dead-letter/x"), "a parameter's regex is dropped");
    }

    @Test
    void aLiteralSegmentBeatsAParameter() {
        assertEquals("/ojs/v1/jobs/batch", routes.of("/ojs/v1/jobs/batch"));
        assertEquals("/ojs/v1/jobs", routes.of("/ojs/v1/jobs/"));
        assertEquals("/ojs/v1/workers/fetch", routes.of("/ojs/v1/workers/fetch"));
    }

    @Test
    void aPathNoRouteServesIsNotEchoed() {
        assertEquals(RouteTemplates.NONE, routes.of("/ojs/v1/no-such-thing/<script>"));
        assertEquals(RouteTemplates.NONE, routes.of("/ojs/v1/jobs/a/b/c"));
        assertEquals(RouteTemplates.NONE, routes.of(null));
    }
}
