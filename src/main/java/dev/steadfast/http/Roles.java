package dev.steadfast.http;

/**
 * The roles an API token carries ({@link ApiAccess.Role}, on the wire in lower case), as constants for the
 * resources' {@code @RolesAllowed}. Which endpoint allows which role follows {@link ApiAccess}'s matrix; a test
 * (EndpointRolesTest) holds every endpoint to it.
 */
public final class Roles {

    public static final String PRODUCER = "producer";
    public static final String WORKER = "worker";
    public static final String READONLY = "readonly";
    public static final String ADMIN = "admin";

    private Roles() {
    }
}
