// The pieces the generated decoders are built from: scalars read with the
// reference decoder's rules (u32, u64 and f32 exact, `null` never taken for a
// value), objects read by member name or in their positional array form, and
// tagged unions. A port of the decoding half of the Go module's runtime.go.
// This file is copied as-is by `cargo xtask codegen`.

package io.github.cgpschema.cgptypes;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The scalar, array, object and union readers of the generated decoders. */
final class Values {
    private Values() {}

    /** A decoder of one shape, as the generated code passes it around. */
    @FunctionalInterface
    interface Decoder<T> {
        T decode(Json.Value v, Path p) throws WireException;
    }

    static String describe(Json.Value v) {
        switch (v.kind) {
            case Json.NULL:
                return "null";
            case Json.BOOL:
                return v.bool ? "the boolean true" : "the boolean false";
            case Json.STRING:
                return "the string " + Canonical.quoted(v.text);
            case Json.UNSIGNED:
                return "the integer " + Long.toUnsignedString(v.u);
            case Json.NEGATIVE:
                return "the integer " + v.i;
            case Json.FLOAT:
                return "the float " + v.f;
            case Json.ARRAY:
                return "an array";
            default:
                return "an object";
        }
    }

    static WireException expected(String what, Json.Value v, Path p) {
        return Path.errAt(p, "expected " + what + ", found " + describe(v));
    }

    static String decodeString(Json.Value v, Path p) throws WireException {
        if (v.kind != Json.STRING) {
            throw expected("a string", v, p);
        }
        return v.text;
    }

    static boolean decodeBool(Json.Value v, Path p) throws WireException {
        if (v.kind != Json.BOOL) {
            throw expected("a boolean", v, p);
        }
        return v.bool;
    }

    /** A u64, held in a long read as unsigned. */
    static long decodeUint64(Json.Value v, Path p) throws WireException {
        if (v.kind == Json.UNSIGNED) {
            return v.u;
        }
        if (v.kind == Json.NEGATIVE) {
            throw Path.errAt(p, "the integer " + v.i + " is out of range");
        }
        throw expected("an integer", v, p);
    }

    /** A u32, held in a long. */
    static long decodeUint32(Json.Value v, Path p) throws WireException {
        long u = decodeUint64(v, p);
        if (Long.compareUnsigned(u, 0xffff_ffffL) > 0) {
            throw Path.errAt(p, "the integer " + Long.toUnsignedString(u) + " is out of range");
        }
        return u;
    }

    /**
     * An f32, rounded as the reference rounds it: an integer straight to the
     * nearest f32, a float through its nearest f64.
     */
    static float decodeFloat32(Json.Value v, Path p) throws WireException {
        switch (v.kind) {
            case Json.UNSIGNED:
                if (v.u >= 0) {
                    return (float) v.u;
                }
                // Above 2^63: halve, keeping the lost bit sticky, so the one
                // rounding to float is still the nearest.
                return 2f * (float) ((v.u >>> 1) | (v.u & 1));
            case Json.NEGATIVE:
                return (float) v.i;
            case Json.FLOAT:
                return (float) v.f;
            default:
                throw expected("a number", v, p);
        }
    }

    static double decodeFloat64(Json.Value v, Path p) throws WireException {
        switch (v.kind) {
            case Json.UNSIGNED:
                if (v.u >= 0) {
                    return (double) v.u;
                }
                return 2d * (double) ((v.u >>> 1) | (v.u & 1));
            case Json.NEGATIVE:
                return (double) v.i;
            case Json.FLOAT:
                return v.f;
            default:
                throw expected("a number", v, p);
        }
    }

    static <T> List<T> decodeArray(Json.Value v, Path p, Decoder<T> item) throws WireException {
        if (v.kind != Json.ARRAY) {
            throw expected("an array", v, p);
        }
        List<T> out = new ArrayList<>(v.items.size());
        for (int i = 0; i < v.items.size(); i++) {
            out.add(item.decode(v.items.get(i), new Path(p, i)));
        }
        return Collections.unmodifiableList(out);
    }

    /**
     * The string of a closed vocabulary's value: the string itself, or the
     * one key of {"<value>": null} (or {"<value>": {}}), which the reference
     * reads the same way; null for anything else.
     */
    static String unitName(Json.Value v) {
        if (v.kind == Json.STRING) {
            return v.text;
        }
        if (v.kind == Json.OBJECT && v.members.size() == 1) {
            Json.Value inner = v.members.get(0).value;
            if (inner.kind == Json.NULL || (inner.kind == Json.OBJECT && inner.members.isEmpty())) {
                return v.members.get(0).key;
            }
        }
        return null;
    }

    static WireException missing(Path p, String name) {
        return Path.errAt(p, "missing member `" + name + "`");
    }

    /** How the generated decoder of one object (or union branch) finds its members. */
    static final class ObjectShape {
        private final String[] names;
        private final Map<String, Integer> index = new HashMap<>();
        /** The union's tag member, read by the caller; "" for a plain object. */
        private final String tag;

        ObjectShape(String tag, String... names) {
            this.names = names;
            this.tag = tag;
            for (int i = 0; i < names.length; i++) {
                index.put(names[i], i);
            }
        }

        /**
         * The value of each member in v, null where absent: by name in an
         * object (a duplicate is an error, an unknown member is ignored), or
         * by position in the array form the reference also reads.
         */
        Json.Value[] slots(Json.Value v, Path p) throws WireException {
            Json.Value[] out = new Json.Value[names.length];
            if (v.kind == Json.OBJECT) {
                for (Json.Member m : v.members) {
                    if (!tag.isEmpty() && m.key.equals(tag)) {
                        continue;
                    }
                    Integer at = index.get(m.key);
                    if (at == null) {
                        continue;
                    }
                    if (out[at] != null) {
                        throw Path.errAt(p, "duplicate member `" + m.key + "`");
                    }
                    out[at] = m.value;
                }
                return out;
            }
            if (v.kind == Json.ARRAY) {
                int next = 0;
                for (int at = 0; at < names.length; at++) {
                    if (!tag.isEmpty() && names[at].equals(tag)) {
                        continue;
                    }
                    if (next < v.items.size()) {
                        out[at] = v.items.get(next);
                    }
                    next++;
                }
                if (v.items.size() > next) {
                    throw Path.errAt(p, "invalid length " + v.items.size() + ", expected " + next + " elements");
                }
                return out;
            }
            throw expected("an object", v, p);
        }
    }

    /** Which branch of a tagged union a value is, and the value holding its other members. */
    static final class Branch {
        final int index;
        final Json.Value body;

        Branch(int index, Json.Value body) {
            this.index = index;
            this.body = body;
        }
    }

    /**
     * Finds which branch of a tagged union v is. positional allows the array
     * form whose first item is the tag; byIndex allows the branch's index in
     * place of its tag.
     */
    static Branch unionBranch(Json.Value v, Path p, String tag, String[] tags, boolean positional, boolean byIndex)
            throws WireException {
        Json.Value found = null;
        Json.Value body = v;
        if (v.kind == Json.OBJECT) {
            for (Json.Member m : v.members) {
                if (!m.key.equals(tag)) {
                    continue;
                }
                if (found != null) {
                    throw Path.errAt(p, "duplicate member `" + tag + "`");
                }
                found = m.value;
            }
            if (found == null) {
                throw missing(p, tag);
            }
        } else if (v.kind == Json.ARRAY && positional) {
            if (v.items.isEmpty()) {
                throw missing(p, tag);
            }
            found = v.items.get(0);
            body = new Json.Value();
            body.kind = Json.ARRAY;
            body.items = v.items.subList(1, v.items.size());
        } else {
            throw expected("an object", v, p);
        }
        if (found.kind == Json.STRING) {
            for (int i = 0; i < tags.length; i++) {
                if (tags[i].equals(found.text)) {
                    return new Branch(i, body);
                }
            }
        } else if (found.kind == Json.UNSIGNED && byIndex) {
            if (Long.compareUnsigned(found.u, tags.length) < 0) {
                return new Branch((int) found.u, body);
            }
        }
        StringBuilder what = new StringBuilder("one of");
        for (int i = 0; i < tags.length; i++) {
            what.append(i > 0 ? ", " : " ").append(Canonical.quoted(tags[i]));
        }
        throw expected(what.toString(), found, new Path(p, tag));
    }
}
