"""Checks the Python API of the generated package `cgp_types`: the types a
line decodes to, and what `encode_line` refuses. The wire itself (verdicts and
bytes) is compared with the reference in spec-tests/tests/python_package.rs.

Usage: PYTHONPATH=generated/python python3 cgp_types_api.py
Prints the number of checks passed; any failed check raises.
"""
import cgp_types as t

checks = 0


def check(condition, what):
    global checks
    if not condition:
        raise AssertionError(what)
    checks += 1


def refused(envelope, pointer):
    try:
        t.encode_line(envelope)
    except t.WireError as error:
        check(error.pointer == pointer, f"refused at {error.pointer}, not {pointer}")
        return
    raise AssertionError(f"encode_line wrote {envelope!r}")


FRAME = '{"id":"a","kind":"%s","title":"t","score":1,"token_cost":0}'
frames = t.decode_line('{"type":"frames","result":{"frames":[%s,%s],"truncated":false}}' % (FRAME % "doc", FRAME % "DOC"))
check(isinstance(frames, t.Frames) and frames.TYPE == "frames", "frames decodes to Frames")
known, unknown = frames.result.frames
check(known.kind is t.KnownFrameKind.DOC, "a known kind is the enum member")
check(type(unknown.kind) is str and unknown.kind == "DOC", "an unknown kind stays a str")
check(known.representation is t.Representation.FULL, "an absent representation is the default")
check(known.score == 1.0 and type(known.score) is float, "an f32 member is a float")
check(t.encode_line(frames).endswith('"kind":"DOC","title":"t","score":1.0,"token_cost":0}],"truncated":false}}\n'), "canonical line")

error = t.decode_line(b'{"type":"error","code":"teapot","message":"\xff"}')
check(error.code == "teapot" and error.message == "\ufffd", "bytes are read as UTF-8 with replacement")
check(issubclass(t.WireError, ValueError), "WireError is a ValueError")
try:
    t.decode_line('{"type":"query","query":{"goal":"g","max_frames":1.0,"max_tokens":1}}')
    raise AssertionError("1.0 is not an integer")
except t.WireError as problem:
    check(problem.pointer == "/query/max_frames", f"pointer {problem.pointer}")

query = t.Query(query=t.ContextQuery(goal="g", max_frames=1, max_tokens=2))
check(t.encode_line(query) == '{"type":"query","query":{"goal":"g","max_frames":1,"max_tokens":2}}\n', "omitted members")
query.query.max_frames = True
refused(query, "/query/max_frames")
query.query.max_frames = 2**32
refused(query, "/query/max_frames")
query.query.max_frames = 1.0
refused(query, "/query/max_frames")
query.query.max_frames = 1
query.query.representation_preferences = ["full"]
refused(query, "/query/representation_preferences/0")
query.query.representation_preferences = [t.Representation.COMPACT]
query.query.embedding = [float("nan"), float("inf"), 1e39]
check('"embedding":[null,null,null]' in t.encode_line(query), "a non-finite f32 is written null, as the reference writes it")
query.query.embedding = [1, 0.1]
check('"embedding":[1.0,0.1]' in t.encode_line(query), "embedding written as f32")
query.query.goal = None
refused(query, "/query/goal")
refused(t.Query(query=t.FrameId(provider_id="p", frame_id="f")), "/query")

first, second = t.Capabilities(), t.Capabilities()
check(first.query == t.QueryCapability(kinds=[]) and first.query is not second.query, "fresh defaults")
verdict = t.decode_as("FrameVerdict", '{"frame":{"provider_id":"p","frame_id":"f"},"status":"stale"}')
check(isinstance(verdict, t.FrameVerdictStale) and verdict.replacement_digest is None, "verdict branch")
check(t.encode_as("FrameVerdict", verdict) == '{"frame":{"provider_id":"p","frame_id":"f"},"status":"stale"}', "verdict bytes")
try:
    t.decode_line('{"type":"error","message":"\ud800"}')
    raise AssertionError("a str holding a lone surrogate is no UTF-8 line")
except t.WireError:
    checks += 1
try:
    t.decode_line(42)
    raise AssertionError("a number is not a line")
except TypeError:
    checks += 1
print(checks)
