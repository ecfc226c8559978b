// The wire as plain classes for Jackson databind, the alternative the Java
// package's `Wire.decode` is measured against in `cargo xtask bench`
// (crates/cgp-bench/src/java.rs). Databind cannot read the package's sealed
// records without annotations, so the bench declares its own classes: public
// fields named as the members, vocabularies as strings, the two tagged unions
// (the envelope and the frame verdict) by Jackson's type annotations.

package cgpbench;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.util.List;

/** Plain classes for the envelope and every type it holds. */
public final class BenchTypes {
    private BenchTypes() {}

    public static class AttesterKey {
        public String key_id;
        public String algorithm;
        public String public_key;
    }

    public static class Capabilities {
        public QueryCapability query;
        public boolean correlation;
        public boolean graph;
        public String embeddings_fingerprint;
        public boolean verify;
        public List<String> representations;
        public boolean resolve;
    }

    public static class ContentRef {
        public String provider_id;
        public String uri;
        public String expires_at;
    }

    public static class ContextFrame {
        public String id;
        public String kind;
        public String title;
        public String content;
        public String content_digest;
        public String uri;
        public String representation;
        public String content_fidelity;
        public String canonical_content_hash;
        public ContentRef content_ref;
        public Transform transform;
        public String minimum_content_fidelity;
        public String inline_content_requirement;
        public float score;
        public long token_cost;
        public Long canonical_token_cost;
        public String tokenizer_ref;
        public String valid_from;
        public String valid_to;
        public String recorded_at;
        public List<Provenance> provenance;
        public String citation_label;
        public FrameEmbedding embedding;
        public List<Relation> relations;
    }

    public static class ContextQuery {
        public String goal;
        public String query_text;
        public List<Float> embedding;
        public List<String> kinds;
        public List<String> anchors;
        public long max_frames;
        public long max_tokens;
        public String as_of;
        public List<String> representation_preferences;
    }

    public static class ContextQueryResult {
        public List<ContextFrame> frames;
        public boolean truncated;
        public Long dropped_estimate;
        public List<FrameAttestation> frame_attestations;
        public ProvenanceAttestation result_attestation;
    }

    public static class DataFlow {
        public boolean reads;
        public boolean writes;
        public boolean egress;
        public List<String> egress_scopes;
    }

    public static class FrameAttestation {
        public FrameId frame;
        public ProvenanceAttestation attestation;
        public InclusionProof inclusion_proof;
    }

    public static class FrameEmbedding {
        public String fingerprint;
        public List<Float> vector;
    }

    public static class FrameId {
        public String provider_id;
        public String frame_id;
        public String content_digest;
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "status")
    @JsonSubTypes({
        @JsonSubTypes.Type(value = FrameVerdictValid.class, name = "valid"),
        @JsonSubTypes.Type(value = FrameVerdictStale.class, name = "stale"),
        @JsonSubTypes.Type(value = FrameVerdictGone.class, name = "gone"),
        @JsonSubTypes.Type(value = FrameVerdictUnknown.class, name = "unknown")
    })
    public abstract static class FrameVerdict {}

    public static class FrameVerdictValid extends FrameVerdict {
        public FrameId frame;
    }

    public static class FrameVerdictStale extends FrameVerdict {
        public FrameId frame;
        public String replacement_digest;
    }

    public static class FrameVerdictGone extends FrameVerdict {
        public FrameId frame;
    }

    public static class FrameVerdictUnknown extends FrameVerdict {
        public FrameId frame;
    }

    public static class InclusionProof {
        public java.math.BigInteger leaf_index;
        public java.math.BigInteger leaf_count;
        public List<InclusionStep> path;
    }

    public static class InclusionStep {
        public String sibling;
        public boolean sibling_is_left;
    }

    public static class Provenance {
        public String type;
        public String uri;
        public String range;
        public String digest;
        public String method;
        public String by;
    }

    public static class ProvenanceAttestation {
        public String signed_commitment;
        public String key_id;
        public String algorithm;
        public String attester_id;
        public String signature;
        public String issued_at;
    }

    public static class ProviderInfo {
        public String name;
        public String version;
        public DataFlow data_flow;
    }

    public static class QueryCapability {
        public List<String> kinds;
    }

    public static class Relation {
        public String rel;
        public String target_uri;
        public String display_name;
    }

    public static class Transform {
        public String method;
        public String implementation;
        public String version;
    }

    public static class VerifyRequest {
        public List<FrameId> frames;
    }

    public static class VerifyResponse {
        public List<FrameVerdict> verdicts;
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({
        @JsonSubTypes.Type(value = HandshakeEnvelope.class, name = "handshake"),
        @JsonSubTypes.Type(value = HandshakeAckEnvelope.class, name = "handshake_ack"),
        @JsonSubTypes.Type(value = QueryEnvelope.class, name = "query"),
        @JsonSubTypes.Type(value = FramesEnvelope.class, name = "frames"),
        @JsonSubTypes.Type(value = VerifyEnvelope.class, name = "verify"),
        @JsonSubTypes.Type(value = VerifiedEnvelope.class, name = "verified"),
        @JsonSubTypes.Type(value = ShutdownEnvelope.class, name = "shutdown"),
        @JsonSubTypes.Type(value = ErrorEnvelope.class, name = "error")
    })
    public abstract static class Envelope {}

    public static class HandshakeEnvelope extends Envelope {
        public String protocol_version;
    }

    public static class HandshakeAckEnvelope extends Envelope {
        public String protocol_version;
        public ProviderInfo provider;
        public Capabilities capabilities;
        public List<AttesterKey> attester_keys;
    }

    public static class QueryEnvelope extends Envelope {
        public String id;
        public ContextQuery query;
    }

    public static class FramesEnvelope extends Envelope {
        public String id;
        public ContextQueryResult result;
    }

    public static class VerifyEnvelope extends Envelope {
        public VerifyRequest request;
    }

    public static class VerifiedEnvelope extends Envelope {
        public VerifyResponse response;
    }

    public static class ShutdownEnvelope extends Envelope {
    }

    public static class ErrorEnvelope extends Envelope {
        public String id;
        public String code;
        public String message;
    }
}
