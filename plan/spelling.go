package plan

import (
	"slices"
	"strings"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/invalid"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// knownKinds are kindScopes' kinds, in a fixed order: the kinds the
// stacks emit and the KamajiControlPlane the plan reads.
var knownKinds = func() []schema.GroupKind {
	out := []schema.GroupKind{kamajiControlPlaneKind}
	for _, s := range etcdshapes.Shapes() {
		gk := s.Kind.GroupKind()
		if !slices.Contains(out, gk) {
			out = append(out, gk)
		}
	}
	return out
}()

// checkSpelling is the rule of an object's apiVersion and kind (live or
// desired): an object of a kind the plan knows (knownKinds) is spelled as
// the API server prints it. A kind or group that is one of them but for
// its case or the whitespace around it ("etcdcluster", "EtcdCluster ",
// " cert-manager.io/v1"), or a version of one of them with upper case or
// whitespace ("v1alpha2 "), is refused, naming the object: the API server
// never prints it, so the file is hand-edited or broken, and read as it
// is the object would match nothing of the stack (the plan would create
// its twin) or miss the API server's defaults. Other kinds are taken as
// they are.
func checkSpelling(field, apiVersion, group, version, kind, name, ns string) error {
	gk := schema.GroupKind{Group: group, Kind: kind}
	if _, known := kindScopes[gk]; known {
		if plainVersion(version) {
			return nil
		}
		return misspelled(field+".apiVersion", apiVersion, groupVersion(group, version), gk, name, ns)
	}
	tk := strings.TrimSpace(kind)
	for _, k := range knownKinds {
		if !strings.EqualFold(tk, k.Kind) || !strings.EqualFold(strings.TrimSpace(group), k.Group) {
			continue
		}
		if kind != k.Kind {
			return misspelled(field+".kind", kind, k.Kind, k, name, ns)
		}
		return misspelled(field+".apiVersion", apiVersion, groupVersion(k.Group, version), k, name, ns)
	}
	return nil
}

// plainVersion reports a version as the API server prints one: no upper
// case, no whitespace around it.
func plainVersion(v string) bool {
	if v != strings.TrimSpace(v) {
		return false
	}
	for i := 0; i < len(v); i++ {
		if 'A' <= v[i] && v[i] <= 'Z' {
			return false
		}
	}
	return true
}

// groupVersion is the apiVersion of group and version as the API server
// prints it: the version in lower case, without whitespace.
func groupVersion(group, version string) string {
	v := strings.ToLower(strings.TrimSpace(version))
	if group == "" {
		return v
	}
	return group + "/" + v
}

func misspelled(field, value, want string, gk schema.GroupKind, name, ns string) error {
	where := ""
	if ns != "" {
		where = " in namespace " + invalid.FormatValue(ns)
	}
	return invalid.Errorf(field, value,
		"must be %s, as the API server prints it: %s %s%s spelled with another case or with whitespace around it is a hand-edited or broken file, "+
			"and read as it is it would match no object of the stack (the plan would create its twin over it); fix the file or fetch it again with kubectl get",
		invalid.FormatValue(want), gk.Kind, invalid.FormatValue(name), where)
}
