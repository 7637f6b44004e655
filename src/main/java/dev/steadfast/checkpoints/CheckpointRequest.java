package dev.steadfast.checkpoints;

import com.fasterxml.jackson.databind.JsonNode;
import dev.steadfast.domain.OjsException;
import dev.steadfast.domain.WorkerId;
import dev.steadfast.http.Body;

/**
 * A save's body: {@code {"state": <any JSON>, "worker_id"?, "step_index"?, "metadata"?: {...}}}. {@code state} is
 * required and may be any JSON value, null included; {@code step_index} and {@code metadata} are what the JavaScript
 * SDK sends beside it and are kept with it. Other fields are ignored.
 */
final class CheckpointRequest {

    private CheckpointRequest() {
    }

    static CheckpointService.Save from(Body b) {
        JsonNode state = b.node().get("state");
        if (state == null) {
            throw OjsException.invalidField("state", "A checkpoint needs 'state': the JSON value to resume from"
                    + " (any JSON value, null included).", "present", "missing");
        }
        String worker = b.string(WorkerId.FIELD, false);
        Long step = b.integer("step_index");
        if (step != null && (step < 0 || step > Integer.MAX_VALUE)) {
            throw OjsException.invalidField("step_index", "'step_index' must be an integer from 0 to "
                    + Integer.MAX_VALUE + ".", "integer in [0, " + Integer.MAX_VALUE + "]", step.toString());
        }
        Body metadata = b.object("metadata");
        return new CheckpointService.Save(state.toString(), step == null ? null : step.intValue(),
                metadata == null ? null : metadata.node().toString(),
                worker == null ? null : WorkerId.check(WorkerId.FIELD, worker));
    }
}
