package dev.steadfast.tools.grpcproxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.ErrorInfo;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.io.IOException;
import java.util.Map;

/**
 * A refused RPC as the HTTP binding's error envelope (ojs-grpc-binding.md 7, 8; ojs-http-binding.md's error
 * codes): the OJS code is ErrorInfo's {@code reason}, the HTTP status the one the HTTP binding gives that code;
 * {@code retryable} and {@code request_id} come from ErrorInfo's metadata and every other metadata entry is a
 * {@code details} field (read as JSON when it is JSON, as the server writes objects and numbers there). A status
 * without ErrorInfo (the gRPC runtime's own, or a server that breaks rule 8.4) keeps its gRPC status in the code,
 * with the HTTP status gRPC's HTTP mapping gives it.
 */
final class ErrorAnswers {

    /** The HTTP status of each OJS code, as the HTTP binding answers it. */
    private static final Map<String, Integer> HTTP_STATUS = Map.ofEntries(
            Map.entry("invalid_request", 400), Map.entry("invalid_payload", 400),
            Map.entry("schema_validation", 400), Map.entry("validation_error", 422),
            Map.entry("unauthenticated", 401), Map.entry("permission_denied", 403),
            Map.entry("not_found", 404), Map.entry("conflict", 409), Map.entry("duplicate", 409),
            Map.entry("payload_too_large", 413), Map.entry("queue_paused", 422), Map.entry("unsupported", 422),
            Map.entry("rate_limited", 429), Map.entry("QUEUE_FULL", 429), Map.entry("TENANT_LIMIT_EXCEEDED", 429),
            Map.entry("backend_error", 503), Map.entry("internal_error", 500));

    private final ObjectMapper json;

    ErrorAnswers(ObjectMapper json) {
        this.json = json;
    }

    HttpReply of(StatusRuntimeException e) {
        com.google.rpc.Status details = StatusProto.fromThrowable(e);
        ErrorInfo info = details == null ? null : errorInfo(details);
        Status status = e.getStatus();
        String message = status.getDescription() == null ? status.getCode().name() : status.getDescription();
        if (info == null) {
            return envelope(httpStatus(status.getCode()), "grpc_" + status.getCode().name().toLowerCase(java.util.Locale.ROOT),
                    message, status.getCode() == Status.Code.UNAVAILABLE, null, json.createObjectNode());
        }
        ObjectNode more = json.createObjectNode();
        info.getMetadataMap().forEach((k, v) -> {
            if (!k.equals("retryable") && !k.equals("request_id")) {
                more.set(k, jsonOrText(v));
            }
        });
        int http = HTTP_STATUS.getOrDefault(info.getReason(), httpStatus(status.getCode()));
        return envelope(http, info.getReason(), message, "true".equals(info.getMetadataMap().get("retryable")),
                info.getMetadataMap().get("request_id"), more);
    }

    /** An answer of the proxy itself (a route with no RPC, a request the message cannot carry). */
    HttpReply proxy(int http, String code, String message) {
        ObjectNode more = json.createObjectNode().put("answered_by", "grpc-proxy");
        return envelope(http, code, message, false, null, more);
    }

    private HttpReply envelope(int http, String code, String message, boolean retryable, String requestId,
                               ObjectNode details) {
        ObjectNode error = json.createObjectNode().put("code", code).put("message", message).put("retryable", retryable);
        error.set("details", details);
        if (requestId != null) {
            error.put("request_id", requestId);
        }
        ObjectNode body = json.createObjectNode();
        body.set("error", error);
        return new HttpReply(http, body);
    }

    private static ErrorInfo errorInfo(com.google.rpc.Status s) {
        for (Any a : s.getDetailsList()) {
            if (a.is(ErrorInfo.class)) {
                try {
                    return a.unpack(ErrorInfo.class);
                } catch (InvalidProtocolBufferException e) {
                    return null;
                }
            }
        }
        return null;
    }

    private JsonNode jsonOrText(String v) {
        try {
            JsonNode n = json.readTree(v);
            return n == null || n.isMissingNode() || !(n.isContainerNode() || n.isNumber() || n.isBoolean())
                    ? json.getNodeFactory().textNode(v) : n;
        } catch (IOException e) {
            return json.getNodeFactory().textNode(v);
        }
    }

    /** gRPC's own mapping of its codes to HTTP (grpc's http-grpc-status-mapping, the other way round). */
    private static int httpStatus(Status.Code c) {
        return switch (c) {
            case INVALID_ARGUMENT, OUT_OF_RANGE -> 400;
            case UNAUTHENTICATED -> 401;
            case PERMISSION_DENIED -> 403;
            case NOT_FOUND -> 404;
            case ALREADY_EXISTS, ABORTED, FAILED_PRECONDITION -> 409;
            case RESOURCE_EXHAUSTED -> 429;
            case UNIMPLEMENTED -> 501;
            case UNAVAILABLE -> 503;
            case DEADLINE_EXCEEDED -> 504;
            default -> 500;
        };
    }
}
