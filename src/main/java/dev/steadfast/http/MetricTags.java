package dev.steadfast.http;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Set;

/**
 * Keeps the request metrics' {@code uri} tag to the route templates, so nobody can blind the metrics with made-up
 * paths. Quarkus tags a request with its route template when a resource method matched it, and otherwise with the
 * raw path (a 401 refused before routing, a 405); Micrometer keeps at most 100 {@code uri} values
 * (quarkus.micrometer.binder.http-server.max-uri-tags) and records nothing new past them. Here any value that is
 * neither a route template of the resources ({@link ResourceMethods}) nor one of Quarkus's shared values
 * ({@code NOT_FOUND}, {@code REDIRECTION}, {@code root}, {@code UNKNOWN}) becomes {@code UNKNOWN}.
 *
 * <p>Not quarkus.micrometer.binder.http-server.suppress4xx-errors: that also turns every 4xx of a route without
 * parameters into {@code UNKNOWN} (a 409 duplicate on POST /ojs/v1/jobs: the template equals the path, so Quarkus
 * cannot tell it matched), and leaves a 2xx or 5xx to an unmatched path (a static file) its raw path.
 */
@Singleton
class MetricTags {

    static final String REQUESTS = "http.server.requests";
    static final String UNMATCHED = "UNKNOWN";
    private static final Set<String> SHARED = Set.of("NOT_FOUND", "REDIRECTION", "root", UNMATCHED);

    @Produces
    @Singleton
    MeterFilter templatesOnly(ResourceMethods routes) {
        return new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                if (!REQUESTS.equals(id.getName())) {
                    return id;
                }
                String uri = id.getTag("uri");
                if (uri == null || SHARED.contains(uri) || routes.isTemplate(uri)) {
                    return id;
                }
                return id.replaceTags(Tags.of(id.getTagsAsIterable()).and("uri", UNMATCHED));
            }
        };
    }
}
