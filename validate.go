package etcdshapes

import (
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/monitoring"
	"regexp"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
)

// apiVersionPattern is an entry of --api-versions as Helm's
// .Capabilities.APIVersions spells them: group/version, group/version/Kind,
// or a core version (v1, v1/Kind). Groups are DNS-1123 subdomains, versions
// start with v and a digit (any CRD's version name), kinds upper-case.
var apiVersionPattern = regexp.MustCompile(`^(([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)/)?v[0-9][a-z0-9]*(/[A-Z][A-Za-z0-9]*)?$`)

// OptionalAPIs lists the stacks' optional APIs, in the table's order
// (APIVerticalPodAutoscaler, APIVMPodScrape, APICiliumNetworkPolicy,
// APIPodMonitor, APIGrafanaDashboard): each of their objects renders only
// where the options' APIVersions (the CLI's --api-versions) list its API
// exactly so, but the etcd chart's VPA and VMPodScrape, which always
// render (Shape.AlwaysFor).
func OptionalAPIs() []string { return slices.Clone(optionalAPIs) }

// stackInputs checks what both stacks take beside their own options: the
// chart version (monitoring.ValidateChartVersion, Helm's rule) and the
// served APIs (parseAPIVersions), which it returns as a set. Both are
// checked, so that every refusal is reported.
func stackInputs(chartVersion string, apiVersions []string) (map[string]bool, error) {
	var c invalid.Collector
	c.Add(monitoring.ValidateChartVersion("chartVersion", chartVersion))
	set, err := parseAPIVersions(apiVersions)
	if c.Add(err) {
		return nil, c.Err()
	}
	return set, c.Err()
}

// parseAPIVersions validates the served API set and returns it as a set.
//
// Entries are what Helm's --api-versions takes: group/version or
// group/version/Kind (core: v1, v1/Kind); anything else is refused. An entry
// in the group of one of the optional APIs (autoscaling.k8s.io,
// operator.victoriametrics.com, monitoring.coreos.com,
// grafana.integreatly.org, cilium.io) is refused, for both stacks, unless
// the list also holds that group's optional API exactly: "cilium.io/v2" alone, or
// "cilium.io/v3/CiliumNetworkPolicy", renders no CiliumNetworkPolicy in Helm
// either, silently, and is almost always a mistake. With the exact API
// listed, the group's other entries (the whole served list of a cluster,
// "cilium.io/v2", "cilium.io/v2alpha1/CiliumNodeConfig") are accepted.
//
// Every malformed entry is refused first, in list order, then every
// well-formed entry the group rule refuses, in list order; an entry listed
// twice is refused once, where it is first listed.
func parseAPIVersions(list []string) (map[string]bool, error) {
	gated := optionalAPIs
	set := make(map[string]bool, len(list))
	listed := make(map[string]bool, len(list))
	distinct := make([]string, 0, len(list))
	for _, a := range list {
		if !listed[a] {
			listed[a] = true
			distinct = append(distinct, a)
		}
	}
	var c invalid.Collector
	for _, a := range distinct {
		if !apiVersionPattern.MatchString(a) {
			c.Addf("apiVersions", a, "must be group/version/Kind or group/version, e.g. %q", APIVerticalPodAutoscaler)
			continue
		}
		set[a] = true
	}
	for _, a := range distinct {
		if !set[a] {
			continue // malformed, refused above
		}
		group := apiGroup(a)
		for _, known := range gated {
			if apiGroup(known) == group && !set[known] {
				c.Addf("apiVersions", a, "is in the API group of %s but the list does not hold it; the optional APIs render only when listed exactly: %s",
					known, strings.Join(gated, ", "))
				break
			}
		}
	}
	if err := c.Err(); err != nil {
		return nil, err
	}
	return set, nil
}

// apiGroup is the group of a well-formed --api-versions entry ("" for the
// core group).
func apiGroup(a string) string {
	parts := strings.Split(a, "/")
	if strings.HasPrefix(parts[0], "v") && !strings.Contains(parts[0], ".") {
		// A core version (v1, v1/Kind), or a single-label group that
		// happens to start with v; the pattern only tells them apart by
		// what follows.
		if len(parts) == 1 || (len(parts) == 2 && parts[1] != "" && parts[1][0] >= 'A' && parts[1][0] <= 'Z') {
			return ""
		}
	}
	return parts[0]
}

func validateStorageClass(field, name string) error {
	if name == "" {
		return nil
	}
	if errs := validation.IsDNS1123Subdomain(name); len(errs) > 0 {
		return invalid.Errorf(field, name, "must be a StorageClass name (DNS-1123 subdomain)")
	}
	return nil
}

// Validate checks the live state's names: a DataStore name and a
// StorageClass name (DNS-1123 subdomains), named live.dataStoreName and
// live.storageClassName. Both are checked: two bad names give an
// invalid.List.
func (l LiveState) Validate() error {
	var c invalid.Collector
	if l.DataStoreName != "" {
		if errs := validation.IsDNS1123Subdomain(l.DataStoreName); len(errs) > 0 {
			c.Addf("live.dataStoreName", l.DataStoreName, "must be a DataStore name (DNS-1123 subdomain)")
		}
	}
	if l.StorageClassName != nil {
		c.Add(validateStorageClass("live.storageClassName", *l.StorageClassName))
	}
	return c.Err()
}
