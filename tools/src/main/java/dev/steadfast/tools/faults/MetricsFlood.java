package dev.steadfast.tools.faults;

import dev.steadfast.tools.ojs.NewJob;
import dev.steadfast.tools.ojs.OjsAnswer;
import dev.steadfast.tools.ojs.OjsClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metrics flood: {@code --flood} requests without a token, each to a different made-up path, against instance
 * 0 (anyone who reaches the port can send them), then one real PUSH with the token; instance 0's Prometheus text
 * must still record the PUSH under its route template ({@code uri="/ojs/v1/jobs"}) and name none of the made-up
 * paths. Before request metrics were tagged by template only, 100 such requests filled Micrometer's uri tag limit
 * and real routes were no longer recorded until a restart.
 */
final class MetricsFlood {

    private static final Pattern URI_TAG = Pattern.compile("^http_server_requests_seconds_count\\{[^}]*uri=\"([^\"]*)\"");

    /**
     * @param refused    flood requests answered 401
     * @param recorded   whether the PUSH afterwards is in the metrics with its template
     * @param rawTags    uri tags naming a made-up path
     * @param uriTags    distinct uri tags in the metrics
     */
    record Result(int sent, int refused, boolean recorded, int rawTags, int uriTags) {
        boolean ok() {
            return recorded && rawTags == 0;
        }

        String line() {
            return String.format("metrics flood: %d unauthenticated requests to distinct paths (%d answered 401); then"
                            + " a PUSH %s with uri=\"/ojs/v1/jobs\"; uri tags naming a made-up path: %d; uri tags in"
                            + " all: %d", sent, refused, recorded ? "recorded" : "NOT recorded", rawTags, uriTags);
        }
    }

    private MetricsFlood() {
    }

    /** Instance's Prometheus text (not through OjsClient, whose OJS Accept header the registry answers with 406). */
    private static String prometheusText(int port) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/q/metrics")).timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? r.body() : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    static Result run(FaultsOptions o, Instances servers, String queue) {
        int refused = 0;
        try (OjsClient anonymous = OjsClient.to("http://127.0.0.1:" + servers.port(0))
                .connectTimeout(Duration.ofSeconds(2)).build()) {
            for (int i = 0; i < o.flood; i++) {
                OjsAnswer a = anonymous.send("GET", (i % 2 == 0 ? "/ojs/v1/flood-" : "/ojs/v1/jobs/flood-") + i,
                        null, Duration.ofSeconds(10));
                refused += a.status() == 401 ? 1 : 0;
            }
        }
        servers.post(0, "/ojs/v1/jobs", new NewJob(Load.uuid7(), "faults.flood", List.of(),
                new NewJob.Options(queue, null, null, null)));
        String metrics = prometheusText(servers.port(0));
        Set<String> uris = new TreeSet<>();
        boolean recorded = false;
        for (String line : metrics.split("\n")) {
            Matcher m = URI_TAG.matcher(line);
            if (m.find()) {
                uris.add(m.group(1));
                recorded |= m.group(1).equals("/ojs/v1/jobs") && line.contains("method=\"POST\"");
            }
        }
        int raw = (int) uris.stream().filter(u -> u.contains("flood-")).count();
        return new Result(o.flood, refused, recorded, raw, uris.size());
    }
}
