package dev.steadfast.testsupport;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Sends many OJS requests at once (each its own HTTP request, all started before any is awaited), to servers at
 * one or more base URLs: the parallel callers of the workflow concurrency tests.
 */
public final class Parallel {

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private Parallel() {
    }

    /** A POST of a JSON body to {@code base + path}, with an optional bearer token. */
    public record Call(String base, String path, Object body, String token) {
    }

    /** The answers, in the order of {@code calls}. */
    public static List<HttpResponse<String>> send(List<Call> calls) {
        List<CompletableFuture<HttpResponse<String>>> futures = new ArrayList<>();
        for (Call c : calls) {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(c.base() + c.path()))
                    .timeout(Duration.ofSeconds(60)).header("Content-Type", Api.OJS_JSON)
                    .POST(HttpRequest.BodyPublishers.ofString(Api.json(c.body())));
            if (c.token() != null) {
                b.header("Authorization", "Bearer " + c.token());
            }
            futures.add(CLIENT.sendAsync(b.build(), HttpResponse.BodyHandlers.ofString()));
        }
        return futures.stream().map(CompletableFuture::join).toList();
    }
}
