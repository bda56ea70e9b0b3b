package etcdshapes

import (
	"regexp"

	"github.com/etcdshapes/etcdshapes/naming"
	"k8s.io/apimachinery/pkg/util/validation"
)

var (
	chartVersionPattern = regexp.MustCompile(`^v?[0-9]+(\.[0-9]+){0,2}(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)
	// group/version/Kind, group/version, or a core version such as v1.
	apiVersionPattern = regexp.MustCompile(`^(([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)/)?v[0-9][a-z0-9]*(/[A-Z][A-Za-z0-9]*)?$`)
)

func validateChartVersion(v string) error {
	if v != "" && !chartVersionPattern.MatchString(v) {
		return naming.Errorf("chartVersion", v, "must be a chart version (SemVer), e.g. 1.2.3")
	}
	return nil
}

// parseAPIVersions validates the served API set and returns it as a set.
func parseAPIVersions(list []string) (map[string]bool, error) {
	set := make(map[string]bool, len(list))
	for _, a := range list {
		known := a == APIVerticalPodAutoscaler || a == APIVMPodScrape || a == APICiliumNetworkPolicy
		if !known && !apiVersionPattern.MatchString(a) {
			return nil, naming.Errorf("apiVersions", a, "must be group/version/Kind or group/version, e.g. %q", APIVerticalPodAutoscaler)
		}
		set[a] = true
	}
	return set, nil
}

func validateStorageClass(field, name string) error {
	if name == "" {
		return nil
	}
	if errs := validation.IsDNS1123Subdomain(name); len(errs) > 0 {
		return naming.Errorf(field, name, "must be a StorageClass name (DNS-1123 subdomain)")
	}
	return nil
}

func validateLive(l LiveState) error {
	if l.DataStoreName != "" {
		if errs := validation.IsDNS1123Subdomain(l.DataStoreName); len(errs) > 0 {
			return naming.Errorf("live.dataStoreName", l.DataStoreName, "must be a DataStore name (DNS-1123 subdomain)")
		}
	}
	if l.StorageClassName != nil {
		return validateStorageClass("live.storageClassName", *l.StorageClassName)
	}
	return nil
}
