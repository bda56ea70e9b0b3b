package plan

// The stack's PKI: a change the apply makes to a CA, to the Issuer that
// signs with it, to a certificate's identity or key, or to a TLS Secret's
// key material is never safe. The etcd members load their trusted CAs only
// at start (docs/procedures.md, "When a CA must change"), every client and
// member verifies a peer's chain against them, and the EtcdCluster and the
// DataStore name the Secrets by name: a new CA, another signer, a Secret
// under another name or a lost key breaks TLS between members, or between
// the tenant control planes and their etcd, until every party holds the
// new material and every member has restarted.

// caIdentityFields are a CA Certificate's fields whose change makes
// cert-manager issue another CA: another Secret, subject (the issuer DN
// every leaf names), key, or issuer; or no CA at all. The stacks' CAs keep
// their key on re-issue (rotationPolicy Never), so a change of only their
// lifetime re-issues the same CA identity, which leaves still verify
// against.
var caIdentityFields = []string{
	"spec.secretName", "spec.commonName", "spec.subject", "spec.literalSubject",
	"spec.privateKey", "spec.isCA", "spec.issuerRef",
}

// leafIdentityFields are a leaf Certificate's fields whose change is
// another certificate than the one the stack names: another Secret (the
// EtcdCluster and the DataStore name it), another signer, another key
// algorithm or size, another subject (the client certificate's common name
// is its etcd user), or a CA.
var leafIdentityFields = []string{
	"spec.secretName", "spec.issuerRef", "spec.isCA", "spec.commonName", "spec.subject",
	"spec.literalSubject", "spec.privateKey.algorithm", "spec.privateKey.size", "spec.privateKey.encoding",
}

// pkiFindings grade the changes of an update of the stack's Issuers,
// Certificates and Secrets (l live, after as stored after the apply).
func pkiFindings(d, l *planObject, after map[string]any, changes []FieldChange) []Finding {
	var out []Finding
	add := func(v Verdict, path, msg string) {
		out = append(out, Finding{Verdict: v, Object: d.ref, Path: path, Message: msg})
	}
	const restart = "; every member loads its trusted CAs only at start (docs/procedures.md, \"When a CA must change\"): plan the change as that procedure does, or keep the live value"
	switch d.key.groupKind() {
	case issuerKind:
		for _, c := range changes {
			if covers(c, "spec", l.tree, after) {
				add(NeedsDecision, c.Path, "the Issuer signs the etcd's certificates: changed ("+show(c.Live)+" -> "+show(c.Desired)+
					"), cert-manager signs every certificate it issues from now on with another CA or in another way, which the members and clients that trust the old CA reject"+restart)
			}
		}
	case certificateKind:
		isCA := valueAt(l.tree, dotted("spec.isCA")) == true || valueAt(after, dotted("spec.isCA")) == true
		fields, what := leafIdentityFields, "another certificate than the one the stack names (its Secret, signer, key or subject): the members, the operator or the tenant control planes present or trust material the others do not"
		if isCA {
			fields, what = caIdentityFields, "cert-manager issues another CA (another Secret, subject, key or issuer): every certificate signed by the live CA stops verifying against it, and the members and clients that trust the live CA reject the new one"
		}
		for _, c := range changes {
			for _, f := range fields {
				if covers(c, f, l.tree, after) {
					add(NeedsDecision, f, f+" "+show(valueAt(l.tree, dotted(f)))+" -> "+show(valueAt(after, dotted(f)))+": "+what+restart)
				}
			}
		}
	case secretKind:
		for _, c := range changes {
			switch {
			case covers(c, "type", l.tree, after):
				add(Refused, "type", "a Secret's type is immutable (the API server refuses the apply): "+show(valueAt(l.tree, dotted("type")))+" -> "+show(valueAt(after, dotted("type"))))
			case covers(c, "data", l.tree, after) || covers(c, "stringData", l.tree, after):
				add(NeedsDecision, c.Path, "the apply "+map[ChangeType]string{FieldAdded: "adds", FieldChanged: "changes", FieldRemoved: "removes"}[c.Type]+" key material of a Secret of the stack ("+c.Path+"): a lost private key makes cert-manager issue a new one, for a CA's Secret a new CA that no member or client trusts"+restart)
			}
		}
	}
	return out
}
