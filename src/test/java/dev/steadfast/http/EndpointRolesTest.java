package dev.steadfast.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.steadfast.http.ApiAccess.Role;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every endpoint's {@code @RolesAllowed} (what Quarkus Security enforces) is {@link ApiAccess}'s matrix for its
 * route, and only the public /ojs routes and the pages outside /ojs (the console, with its own login, and the
 * probes) are {@code @PermitAll}: a role added to or dropped from one endpoint fails here. Without a server.
 */
class EndpointRolesTest {

    record Endpoint(String method, String path, Set<Role> roles, boolean permitAll) {
    }

    static List<Endpoint> endpoints() throws IOException, ClassNotFoundException {
        List<Endpoint> out = new ArrayList<>();
        java.nio.file.Path main = java.nio.file.Path.of("src/main/java");
        List<java.nio.file.Path> sources;
        try (Stream<java.nio.file.Path> s = Files.walk(main.resolve("dev/steadfast"))) {
            sources = s.filter(f -> f.toString().endsWith(".java")).sorted().toList();
        }
        for (java.nio.file.Path f : sources) {
            String name = main.relativize(f).toString().replace('/', '.').replaceAll("\\.java$", "");
            if (name.endsWith("package-info")) {
                continue;
            }
            Class<?> c = Class.forName(name, false, EndpointRolesTest.class.getClassLoader());
            Path base = c.getAnnotation(Path.class);
            if (base == null) {
                continue;
            }
            for (Method m : c.getDeclaredMethods()) {
                String verb = verb(m);
                if (verb == null) {
                    continue;
                }
                Path sub = m.getAnnotation(Path.class);
                String path = ("/" + base.value() + (sub == null ? "" : "/" + sub.value())).replaceAll("/+", "/")
                        .replaceAll("(.)/$", "$1");
                RolesAllowed r = m.isAnnotationPresent(RolesAllowed.class) ? m.getAnnotation(RolesAllowed.class)
                        : m.isAnnotationPresent(PermitAll.class) ? null : c.getAnnotation(RolesAllowed.class);
                boolean permit = m.isAnnotationPresent(PermitAll.class)
                        || r == null && c.isAnnotationPresent(PermitAll.class);
                Set<Role> roles = EnumSet.noneOf(Role.class);
                if (r != null) {
                    for (String role : r.value()) {
                        roles.add(Role.of(role));
                    }
                }
                out.add(new Endpoint(verb, path, roles, permit));
            }
        }
        return out;
    }

    private static String verb(Method m) {
        for (Annotation a : m.getAnnotations()) {
            HttpMethod h = a.annotationType().getAnnotation(HttpMethod.class);
            if (h != null) {
                return h.value();
            }
        }
        return null;
    }

    @Test
    void everyEndpointAllowsTheRolesOfTheMatrix() throws Exception {
        List<Endpoint> all = endpoints();
        assertTrue(all.size() > 90, "the resources were found: " + all.size());
        for (Endpoint e : all) {
            String what = e.method() + " " + e.path();
            String example = e.path().replaceAll("\\{[^}]+}", "x1");
            if (!e.path().startsWith("/ojs/") || ApiAccess.isPublic(e.method(), example)) {
                assertTrue(e.permitAll() && e.roles().isEmpty(), what + " is public or has its own login");
                continue;
            }
            assertTrue(!e.permitAll(), what + " must not be @PermitAll");
            assertEquals(ApiAccess.allowed(e.method(), example), e.roles(), what);
        }
    }

    @Test
    void theRoleConstantsAreTheTokensRoles() {
        assertEquals(List.of(Role.PRODUCER, Role.WORKER, Role.READONLY, Role.ADMIN),
                Stream.of(Roles.PRODUCER, Roles.WORKER, Roles.READONLY, Roles.ADMIN).map(Role::of).toList());
    }
}
