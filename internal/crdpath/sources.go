package crdpath

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"
)

// Source is where the CRD of one group's custom kinds comes from, as
// docs/testing.md's table lists it (TestCRDSourcesTable holds the two
// together).
type Source struct {
	// Group is the API group, e.g. "etcd-operator.cozystack.io".
	Group string
	// Kinds are the group's kinds the library emits.
	Kinds []string
	// Project is the project that publishes the CRDs and its repository.
	Project string
	// Files are the CRD files in that repository, one per kind.
	Files []string
	// Version is the release the files are of, where they record it;
	// else the controller-gen version that generated them (their
	// controller-gen.kubebuilder.io/version annotation).
	Version string
}

// Sources are the CRDs of every custom kind the library emits, in
// docs/testing.md's order: what EnvVar's directories must hold.
var Sources = []Source{
	{"etcd-operator.cozystack.io", []string{"EtcdCluster", "EtcdSnapshot"}, "Cozystack's etcd-operator (github.com/cozystack/etcd-operator)",
		[]string{"config/crd/bases/etcd-operator.cozystack.io_etcdclusters.yaml", "config/crd/bases/etcd-operator.cozystack.io_etcdsnapshots.yaml"}, "not recorded (controller-gen v0.18.0)"},
	{"cert-manager.io", []string{"Issuer", "Certificate"}, "cert-manager (github.com/cert-manager/cert-manager)",
		[]string{"deploy/crds/cert-manager.io_issuers.yaml", "deploy/crds/cert-manager.io_certificates.yaml"}, "not recorded (controller-gen v0.21.0); the library's Go types are v1.21.2's"},
	{"kamaji.clastix.io", []string{"DataStore"}, "Kamaji (github.com/clastix/kamaji)",
		[]string{"config/crd/bases/kamaji.clastix.io_datastores.yaml"}, "not recorded (controller-gen v0.20.0)"},
	{"cozystack.io", []string{"WorkloadMonitor"}, "Cozystack (github.com/cozystack/cozystack, the cozystack-controller's CRDs)",
		[]string{"cozystack.io_workloadmonitors.yaml"}, "not recorded (controller-gen v0.16.4)"},
	{"autoscaling.k8s.io", []string{"VerticalPodAutoscaler"}, "the Vertical Pod Autoscaler (github.com/kubernetes/autoscaler)",
		[]string{"vertical-pod-autoscaler/deploy/vpa-v1-crd-gen.yaml (its VerticalPodAutoscaler)"}, "not recorded (controller-gen v0.16.5); the library's Go types are v1.8.1's"},
	{"operator.victoriametrics.com", []string{"VMPodScrape"}, "the VictoriaMetrics operator (github.com/VictoriaMetrics/operator)",
		[]string{"config/crd/bases/operator.victoriametrics.com_vmpodscrapes.yaml"}, "not recorded (controller-gen v0.20.0)"},
	{"monitoring.coreos.com", []string{"PrometheusRule", "PodMonitor"}, "prometheus-operator (github.com/prometheus-operator/prometheus-operator)",
		[]string{"example/prometheus-operator-crd/monitoring.coreos.com_prometheusrules.yaml", "example/prometheus-operator-crd/monitoring.coreos.com_podmonitors.yaml"}, "v0.87.0 (the files' operator.prometheus.io/version)"},
	{"grafana.integreatly.org", []string{"GrafanaDashboard"}, "grafana-operator (github.com/grafana/grafana-operator)",
		[]string{"config/crd/bases/grafana.integreatly.org_grafanadashboards.yaml"}, "v5.24.0"},
	{"cilium.io", []string{"CiliumNetworkPolicy"}, "Cilium (github.com/cilium/cilium)",
		[]string{"pkg/k8s/apis/cilium.io/client/crds/v2/ciliumnetworkpolicies.yaml"}, "not recorded (controller-gen v0.20.1)"},
}

// What says what EnvVar must list, for the messages of the tools that
// read the CRDs.
const What = EnvVar + " lists the directories, like PATH (dir1" + string(os.PathListSeparator) + "dir2), that hold the CustomResourceDefinitions " +
	"(.yaml, .yml or .json files) of every custom kind the library emits: etcd-operator's EtcdCluster and EtcdSnapshot, cert-manager's Issuer and Certificate, " +
	"Kamaji's DataStore, Cozystack's WorkloadMonitor, the VerticalPodAutoscaler, VictoriaMetrics' VMPodScrape, prometheus-operator's PrometheusRule and PodMonitor, " +
	"grafana-operator's GrafanaDashboard and Cilium's CiliumNetworkPolicy; docs/testing.md (\"The CRDs\") says where each comes from"

// Resolve is the CRD directories a tool reads: those EnvVar lists (Dirs,
// relative ones from root), or, with EnvVar unset or blank, the layout of
// the project's CI, ../shared/crds and ../shared/crds-planned beside
// root. fromEnv says which.
func Resolve(root string) (dirs []string, fromEnv bool) {
	if dirs := Dirs(os.Getenv(EnvVar), root); len(dirs) > 0 {
		return dirs, true
	}
	return []string{filepath.Join(root, "..", "shared", "crds"), filepath.Join(root, "..", "shared", "crds-planned")}, false
}

// Check is what a tool that reads the CRDs from dirs (Resolve's) says
// before it reads them: nil when each directory can be read and together
// they hold the CRD of every kind of Sources; else an error that names
// EnvVar, what it lists (or that it is unset, and the directories looked
// at instead), what is wrong, and What.
func Check(dirs []string, fromEnv bool) error {
	listed := fmt.Sprintf("%s lists %q", EnvVar, strings.Join(dirs, string(os.PathListSeparator)))
	if !fromEnv {
		listed = fmt.Sprintf("%s is not set, so the CRDs are read from the directories CI uses, beside the repository (%s)", EnvVar, strings.Join(dirs, string(os.PathListSeparator)))
	}
	have := map[string]bool{}
	for _, dir := range dirs {
		docs, err := Documents(dir)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
				return fmt.Errorf("%s: %w. %s", listed, err, What)
			}
			return fmt.Errorf("%s: %w", listed, err)
		}
		for _, d := range docs {
			var crd struct {
				Kind string `json:"kind"`
				Spec struct {
					Group string `json:"group"`
					Names struct {
						Kind string `json:"kind"`
					} `json:"names"`
				} `json:"spec"`
			}
			if yaml.Unmarshal(d.Data, &crd) != nil || crd.Kind != "CustomResourceDefinition" {
				continue // the tools refuse what they cannot read, naming the file
			}
			have[crd.Spec.Group+"/"+crd.Spec.Names.Kind] = true
		}
	}
	var missing []string
	for _, s := range Sources {
		for _, k := range s.Kinds {
			if !have[s.Group+"/"+k] {
				missing = append(missing, k+" ("+s.Group+")")
			}
		}
	}
	sort.Strings(missing)
	switch {
	case len(have) == 0:
		return fmt.Errorf("%s, which hold no CustomResourceDefinition. %s", listed, What)
	case len(missing) > 0:
		return fmt.Errorf("%s, which lack the CRDs of %s: what is generated from them would lack them too. %s", listed, strings.Join(missing, ", "), What)
	}
	return nil
}
