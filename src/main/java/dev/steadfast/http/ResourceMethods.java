package dev.steadfast.http;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Inject;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The HTTP methods each route takes, from the JAX-RS resources' {@code @Path} templates and their {@code @GET},
 * {@code @POST}, ... annotations: what a 405 names in its {@code Allow} header and {@code details.allowed}
 * (RFC 9110 15.5.6). RESTEasy's own NotAllowedException carries no Allow header. The methods of a path are those of
 * every template it matches, as RESTEasy answers 405 when any method's templates match the path.
 */
@ApplicationScoped
class ResourceMethods {

    private final Map<String, Set<String>> byTemplate = new HashMap<>();
    private final RouteTemplates templates;

    @Inject
    public ResourceMethods(BeanManager beans) {
        this(scan(beans));
    }

    ResourceMethods(Map<String, Set<String>> methods) {
        methods.forEach((t, m) -> byTemplate.computeIfAbsent(RouteTemplates.normalize(t), k -> new TreeSet<>())
                .addAll(m));
        this.templates = new RouteTemplates(byTemplate.keySet());
    }

    /** Whether {@code uri} is a route template as written by {@link RouteTemplates#normalize} (not a path). */
    public boolean isTemplate(String uri) {
        return byTemplate.containsKey(uri);
    }

    /** The methods {@code path} takes, sorted; empty when no route serves it. */
    public List<String> allowed(String path) {
        Set<String> out = new TreeSet<>();
        for (String t : templates.allOf(path)) {
            out.addAll(byTemplate.getOrDefault(t, Set.of()));
        }
        return List.copyOf(out);
    }

    private static Map<String, Set<String>> scan(BeanManager beans) {
        Map<String, Set<String>> out = new HashMap<>();
        for (Bean<?> b : beans.getBeans(Object.class, Any.Literal.INSTANCE)) {
            Path base = b.getBeanClass().getAnnotation(Path.class);
            if (base == null) {
                continue;
            }
            for (Method m : b.getBeanClass().getDeclaredMethods()) {
                Path sub = m.getAnnotation(Path.class);
                String template = sub == null ? base.value() : base.value() + "/" + sub.value();
                for (Annotation a : m.getAnnotations()) {
                    HttpMethod http = a.annotationType().getAnnotation(HttpMethod.class);
                    if (http != null) {
                        out.computeIfAbsent(template, k -> new TreeSet<>()).add(http.value());
                    }
                }
            }
        }
        return out;
    }
}
