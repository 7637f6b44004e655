package dev.steadfast.grpc;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.Any;
import com.google.rpc.ErrorInfo;
import dev.steadfast.domain.ErrorCode;
import dev.steadfast.domain.OjsException;
import dev.steadfast.http.Json;
import dev.steadfast.store.DatabaseFaults;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * The one place failures become gRPC answers (ojs-grpc-binding.md 7 and 8), as http.ErrorMapper is for HTTP: the
 * status code of the binding's table for the OJS code, and a {@code google.rpc.Status} whose {@code ErrorInfo} has
 * domain {@value #DOMAIN}, the OJS code as reason and, as metadata, {@code retryable}, {@code request_id} and the
 * details the HTTP envelope carries (strings as they are, anything else as JSON). A passing database fault is
 * UNAVAILABLE with {@code retry-after}; anything else is logged with its request id and answered INTERNAL without a
 * stack trace. Status exceptions raised before a service method runs (the access checks) pass through unchanged.
 */
final class GrpcErrors {

    static final String DOMAIN = "openjobspec.org";
    static final Metadata.Key<String> RETRY_AFTER = Metadata.Key.of("retry-after", Metadata.ASCII_STRING_MARSHALLER);
    private static final Logger LOG = Logger.getLogger(GrpcErrors.class);

    private GrpcErrors() {
    }

    /** The gRPC status code for an OJS error code (section 7.1). */
    static Status.Code status(ErrorCode code) {
        return switch (code) {
            case INVALID_REQUEST, INVALID_PAYLOAD, SCHEMA_VALIDATION, VALIDATION_ERROR, METHOD_NOT_ALLOWED,
                    URI_TOO_LONG, HEADERS_TOO_LARGE, PAYLOAD_TOO_LARGE -> Status.Code.INVALID_ARGUMENT;
            case UNAUTHENTICATED -> Status.Code.UNAUTHENTICATED;
            case PERMISSION_DENIED -> Status.Code.PERMISSION_DENIED;
            case NOT_FOUND -> Status.Code.NOT_FOUND;
            case DUPLICATE -> Status.Code.ALREADY_EXISTS;
            case CONFLICT, QUEUE_PAUSED, UNSUPPORTED -> Status.Code.FAILED_PRECONDITION;
            case QUEUE_FULL, TENANT_LIMIT_EXCEEDED -> Status.Code.RESOURCE_EXHAUSTED;
            case BACKEND_UNAVAILABLE, SERVER_BUSY -> Status.Code.UNAVAILABLE;
            case INTERNAL -> Status.Code.INTERNAL;
        };
    }

    /** {@code failure} as the status exception the client receives. */
    static StatusRuntimeException of(Throwable failure, String requestId, ObjectMapper json) {
        if (failure instanceof StatusRuntimeException s) {
            return s;
        }
        if (failure instanceof OjsException e) {
            return of(e.code(), e.getMessage(), e.details(), requestId, json);
        }
        if (DatabaseFaults.isTransient(failure)) {
            return of(ErrorCode.BACKEND_UNAVAILABLE, "The database is unavailable (restarting, unreachable, out of"
                    + " connections or too slow); retry with backoff.", Map.of(), requestId, json);
        }
        LOG.errorf(failure, "gRPC request %s failed", requestId);
        return of(ErrorCode.INTERNAL, "Internal server error (request " + requestId + ").", Map.of(), requestId, json);
    }

    static StatusRuntimeException of(ErrorCode code, String message, Map<String, Object> details, String requestId,
                                     ObjectMapper json) {
        ErrorInfo.Builder info = ErrorInfo.newBuilder().setDomain(DOMAIN).setReason(code.wire())
                .putMetadata("retryable", Boolean.toString(code.retryable()));
        if (requestId != null) {
            info.putMetadata("request_id", requestId);
        }
        if (details != null) {
            details.forEach((k, v) -> {
                if (v != null) {
                    info.putMetadata(k, v instanceof String s ? s : Json.write(json, v));
                }
            });
        }
        Status.Code status = status(code);
        com.google.rpc.Status rpc = com.google.rpc.Status.newBuilder().setCode(status.value())
                .setMessage(message == null ? "" : message).addDetails(Any.pack(info.build())).build();
        Metadata trailers = new Metadata();
        if (status == Status.Code.RESOURCE_EXHAUSTED || status == Status.Code.UNAVAILABLE) {
            // as every HTTP 429 and 503 says when to come back (ojs-errors.md ERR-006); binding 9.3
            Object after = details == null ? null : details.get("retry_after_seconds");
            trailers.put(RETRY_AFTER, after == null ? "1" : after.toString());
        }
        return StatusProto.toStatusRuntimeException(rpc, trailers);
    }
}
