package dev.steadfast.store;

import java.util.List;

/** Encodes a tag list as a JSON array text (tags are plain strings; only quotes and control characters need care). */
final class TagsJson {

    private TagsJson() {
    }

    static String of(List<String> tags) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < tags.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append('"');
            for (char c : tags.get(i).toCharArray()) {
                switch (c) {
                    case '"' -> sb.append("\\\"");
                    case '\\' -> sb.append("\\\\");
                    default -> {
                        if (c < 0x20) {
                            sb.append(String.format("\\u%04x", (int) c));
                        } else {
                            sb.append(c);
                        }
                    }
                }
            }
            sb.append('"');
        }
        return sb.append(']').toString();
    }
}
