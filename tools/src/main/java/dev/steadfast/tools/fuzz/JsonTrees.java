package dev.steadfast.tools.fuzz;

import com.fasterxml.jackson.databind.util.RawValue;
import dev.steadfast.tools.ojs.OjsJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.UnaryOperator;

/** Request bodies as trees of Map / List / scalars, with one leaf swapped for a broken value, written by Jackson. */
final class JsonTrees {

    private JsonTrees() {
    }

    /** An ordered object from key, value, key, value, ... */
    static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    /** Text written as it is, valid JSON or not ({@code 1e999999}, {@code "\ud800"}). */
    static RawValue raw(String text) {
        return new RawValue(text);
    }

    static String json(Object tree) {
        return OjsJson.write(tree);
    }

    /** A copy of {@code tree} with one leaf (chosen at random among all leaves) replaced by {@code f(leaf)}. */
    static Object replaceOne(Object tree, Random r, UnaryOperator<Object> f) {
        int[] target = {r.nextInt(Math.max(1, countLeaves(tree)))};
        return copy(tree, target, f);
    }

    static int countLeaves(Object o) {
        if (o instanceof Map<?, ?> m) {
            return m.values().stream().mapToInt(JsonTrees::countLeaves).sum();
        }
        if (o instanceof List<?> l) {
            return l.stream().mapToInt(JsonTrees::countLeaves).sum();
        }
        return 1;
    }

    private static Object copy(Object o, int[] target, UnaryOperator<Object> f) {
        if (o instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put((String) k, copy(v, target, f)));
            return out;
        }
        if (o instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            for (Object e : l) {
                out.add(copy(e, target, f));
            }
            return out;
        }
        return target[0]-- == 0 ? f.apply(o) : o;
    }
}
