package etcdshapes

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/monitoring"
	"github.com/etcdshapes/etcdshapes/naming"

	"k8s.io/apimachinery/pkg/util/validation"
)

// The optional APIs of the stacks, spelled as Helm's
// .Capabilities.APIVersions.Has (and `helm template --api-versions`) spell
// them. The per-cluster stack renders the VPA, the VMPodScrape and the
// CiliumNetworkPolicy only where their API is served (the etcd chart
// renders its VPA and VMPodScrape always, as upstream does); both stacks
// render the PodMonitor and the GrafanaDashboard only where theirs is.
const (
	APIVerticalPodAutoscaler = "autoscaling.k8s.io/v1/VerticalPodAutoscaler"
	APIVMPodScrape           = "operator.victoriametrics.com/v1beta1/VMPodScrape"
	APICiliumNetworkPolicy   = "cilium.io/v2/CiliumNetworkPolicy"
	APIPodMonitor            = "monitoring.coreos.com/v1/PodMonitor"
	APIGrafanaDashboard      = "grafana.integreatly.org/v1beta1/GrafanaDashboard"
)

// optionalAPIs are the table's optional APIs, in its order.
var optionalAPIs = func() []string {
	var out []string
	for _, s := range shapes {
		if s.API != "" && !slices.Contains(out, s.API) {
			out = append(out, s.API)
		}
	}
	return out
}()

// OptionalAPIsOf lists the optional APIs that decide whether caller's
// stack renders a shape (those of its AlwaysFor shapes left out), in the
// table's order.
func OptionalAPIsOf(caller naming.Caller) []string {
	var out []string
	for _, s := range shapes {
		if s.API != "" && slices.Contains(s.Callers, caller) && !slices.Contains(s.AlwaysFor, caller) && !slices.Contains(out, s.API) {
			out = append(out, s.API)
		}
	}
	return out
}

// OptionalAPIs lists the stacks' optional APIs, in the table's order
// (APIVerticalPodAutoscaler, APIVMPodScrape, APIPodMonitor,
// APIGrafanaDashboard, APICiliumNetworkPolicy): each of their objects renders only
// where the options' APIVersions (the CLI's --api-versions) hold its API
// exactly so, byte for byte, but the etcd chart's VPA and VMPodScrape,
// which always render (Shape.AlwaysFor).
func OptionalAPIs() []string { return slices.Clone(optionalAPIs) }

// stackInputs checks what both stacks take beside their own options: the
// chart version (monitoring.ValidateChartVersion, Helm's rule). It returns
// the optional APIs the served list holds (servedAPIs), which nothing in
// it can make fail.
func stackInputs(chartVersion string, apiVersions []string, p inputPaths) (map[string]bool, error) {
	return servedAPIs(apiVersions), monitoring.ValidateChartVersion(p.chartVersion, chartVersion)
}

// servedAPIs is the set of the optional APIs that list holds.
//
// An entry is matched whole, byte for byte, as Helm's
// .Capabilities.APIVersions.Has matches it (chartutil.VersionSet.Has in
// Helm v3, common.VersionSet.Has in v4: string equality): the charts this
// library replaces, and the charts chartgen generates, render an optional
// object exactly when Has of its API is true. So nothing is trimmed or
// folded ("cilium.io/v2/CiliumNetworkPolicy " serves nothing), a group or
// a group/version alone ("cilium.io/v2") serves none of its kinds, and an
// entry listed twice is the entry once.
//
// Nothing is refused. The list is often a cluster's own served list
// (discovery, .Capabilities), which may hold any name an API server or an
// aggregated API serves: refusing one entry would stop every render on
// that cluster, and the generated charts, which cannot refuse what Helm
// puts in .Capabilities, would disagree with the library. What is likely
// a mistake is told by APIVersionWarnings instead.
func servedAPIs(list []string) map[string]bool {
	set := make(map[string]bool, len(optionalAPIs))
	for _, api := range optionalAPIs {
		if slices.Contains(list, api) {
			set[api] = true
		}
	}
	return set
}

// maxNameWarnings bounds the warnings about entries that name no API; the
// rest are counted in one more warning, so a long list of garbage prints
// a dozen lines, not one a entry.
const maxNameWarnings = 10

// APIVersionWarnings lists what in apiVersions, the served list of
// caller's stack (naming.CallerEtcd or naming.CallerCluster; Request.APIVersions,
// EtcdChartStackOptions.APIVersions, ClusterStackOptions.APIVersions, the CLI's
// --api-versions), is likely a mistake, in list order, each entry once.
// The stacks render the same with and without the warnings: none of them
// is a refusal (see servedAPIs), and the CLI prints them on stderr, where
// Helm, given the same list, says nothing. The library prints nothing.
//
// Two kinds of entry are told:
//
//   - an entry that is not an API's name as an API server serves it
//     (group/version, group/version/Kind, the core group's v1 and v1/Kind:
//     a DNS-1123 group, a DNS-1035 version, a kind of letters, digits and
//     "-"), such as "", " cilium.io/v2/CiliumNetworkPolicy" or
//     "cilium.io/CiliumNetworkPolicy", which matches nothing; when it is
//     one of caller's optional APIs but for surrounding spaces, quotes,
//     invisible characters or case, the warning names that API. At most
//     10 such entries are named; one more warning counts the rest;
//   - for each optional API of caller's (OptionalAPIsOf) that the list
//     does not hold, the entries of its API group that it does hold
//     ("cilium.io/v2", "autoscaling.k8s.io/v1beta2/VerticalPodAutoscaler",
//     "monitoring.coreos.com/v1/ServiceMonitor" without the PodMonitor):
//     the API's objects are not rendered, as in Helm. One warning per API
//     names the first such entry and counts the others.
//
// An entry of the group of an API the caller always renders (the etcd
// chart's VPA and VMPodScrape) or does not render at all is no mistake
// and is not told. Each entry is printed as errors print values
// (invalid.FormatValue: quoted and escaped where needed, cut past about
// 120 bytes).
func APIVersionWarnings(caller naming.Caller, apiVersions []string) []string {
	gated := OptionalAPIsOf(caller)
	var (
		out       []string
		malformed int
		seen      = make(map[string]bool, len(apiVersions))
		inGroup   = make([][]string, len(gated))
	)
	for _, a := range apiVersions {
		if seen[a] {
			continue
		}
		seen[a] = true
		if !isAPIName(a) {
			malformed++
			if malformed > maxNameWarnings {
				continue
			}
			msg := fmt.Sprintf("apiVersions: %s is not an API's name (group/version or group/version/Kind), so it matches nothing, as in Helm", invalid.FormatValue(a))
			if api, ok := resembles(a, gated); ok {
				msg += fmt.Sprintf("; did you mean %s?", api)
			}
			out = append(out, msg)
			continue
		}
		group := apiGroup(a)
		for i, api := range gated {
			if a != api && apiGroup(api) == group {
				inGroup[i] = append(inGroup[i], a)
			}
		}
	}
	if malformed > maxNameWarnings {
		out = append(out, fmt.Sprintf("apiVersions: %d more entries are not an API's name", malformed-maxNameWarnings))
	}
	for i, api := range gated {
		entries := inGroup[i]
		if len(entries) == 0 || seen[api] {
			continue
		}
		kind := api[strings.LastIndexByte(api, '/')+1:]
		what := invalid.FormatValue(entries[0]) + " is"
		if len(entries) > 1 {
			what = fmt.Sprintf("%s and %d more entries are", invalid.FormatValue(entries[0]), len(entries)-1)
		}
		msg := fmt.Sprintf("apiVersions: %s in the API group of %s, which the list does not hold, so no %s is rendered: an API is served only when listed exactly, as Helm's .Capabilities.APIVersions.Has matches it",
			what, api, kind)
		for _, e := range entries {
			if strings.EqualFold(e, api) {
				msg += fmt.Sprintf("; did you mean %s?", api)
				break
			}
		}
		out = append(out, msg)
	}
	return out
}

// resembles reports the API of apis that a is but for surrounding spaces,
// quotes or invisible characters and case.
func resembles(a string, apis []string) (string, bool) {
	core := strings.TrimFunc(a, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) || unicode.IsControl(r) || r == '"' || r == '\'' || r == '`' || r == ','
	})
	for _, api := range apis {
		if strings.EqualFold(core, api) {
			return api, true
		}
	}
	return "", false
}

// maxAPIName is the longest name isAPIName accepts: a group (a DNS-1123
// subdomain), a version and a kind (DNS-1035 labels) and two slashes.
const maxAPIName = validation.DNS1123SubdomainMaxLength + 2*validation.DNS1035LabelMaxLength + 2

// isAPIName reports whether a is an API's name as an API server's
// discovery serves it and Helm lists it in .Capabilities.APIVersions:
// group/version or group/version/Kind, or the core group's version (v1)
// and version/Kind. Groups are DNS-1123 subdomains and versions DNS-1035
// labels (as the API server requires of a CRD's or an APIService's); a
// kind starts with a letter and holds letters, digits and "-" (a CRD's
// kind lower-cased is a DNS-1035 label), at most 63 characters.
func isAPIName(a string) bool {
	if len(a) > maxAPIName {
		return false
	}
	parts := strings.Split(a, "/")
	switch len(parts) {
	case 1:
		return isCoreVersion(parts[0])
	case 2:
		return (isGroup(parts[0]) && isVersion(parts[1])) || (isCoreVersion(parts[0]) && isKind(parts[1]))
	case 3:
		return isGroup(parts[0]) && isVersion(parts[1]) && isKind(parts[2])
	}
	return false
}

func isGroup(s string) bool   { return len(validation.IsDNS1123Subdomain(s)) == 0 }
func isVersion(s string) bool { return len(validation.IsDNS1035Label(s)) == 0 }

// isCoreVersion reports whether s is a version of the core (legacy) group,
// which is named without a group: v1, and v followed by letters and
// digits for any later one.
func isCoreVersion(s string) bool {
	if len(s) < 2 || s[0] != 'v' || s[1] < '0' || s[1] > '9' {
		return false
	}
	for i := 2; i < len(s); i++ {
		if c := s[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return false
		}
	}
	return len(s) <= validation.DNS1035LabelMaxLength
}

func isKind(s string) bool {
	if s == "" || len(s) > validation.DNS1035LabelMaxLength || !isLetter(s[0]) || s[len(s)-1] == '-' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !isLetter(c) && (c < '0' || c > '9') && c != '-' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

// apiGroup is the group of an API's name (isAPIName); "" for the core
// group.
func apiGroup(a string) string {
	parts := strings.Split(a, "/")
	if len(parts) == 1 || (len(parts) == 2 && !(isGroup(parts[0]) && isVersion(parts[1]))) {
		return ""
	}
	return parts[0]
}
