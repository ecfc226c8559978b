// Where a value sits, built as the walk descends and spelled as a JSON
// pointer only when an error needs it. This file is copied as-is by
// `cargo xtask codegen`.

package io.github.cgpschema.cgptypes;

/** Where a value sits: a member of its parent (key) or an item (index). */
final class Path {
    private final Path parent;
    private final String key;
    private final int index;

    /** The member {@code key} of {@code parent} (null: the top). */
    Path(Path parent, String key) {
        this.parent = parent;
        this.key = key;
        this.index = -1;
    }

    /** The item {@code index} of {@code parent}. */
    Path(Path parent, int index) {
        this.parent = parent;
        this.key = null;
        this.index = index;
    }

    static String pointer(Path p) {
        if (p == null) {
            return "";
        }
        String token = p.index >= 0
                ? Integer.toString(p.index)
                : p.key.replace("~", "~0").replace("/", "~1");
        return pointer(p.parent) + "/" + token;
    }

    /** The error {@code message} about the value at {@code p}. */
    static WireException errAt(Path p, String message) {
        return new WireException(message, pointer(p), -1);
    }
}
