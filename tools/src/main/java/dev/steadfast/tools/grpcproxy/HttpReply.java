package dev.steadfast.tools.grpcproxy;

import com.fasterxml.jackson.databind.JsonNode;

/** What the proxy answers an HTTP request with: a status and a JSON body. */
record HttpReply(int status, JsonNode body) {
}
