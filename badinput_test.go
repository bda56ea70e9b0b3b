package etcdshapes_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/chartgen"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/etcdshapes/etcdshapes/values"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/internal/chartwrite"
	"github.com/etcdshapes/etcdshapes/internal/strvals"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/hostilefs"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/stretchr/testify/require"
	"gopkg.in/inf.v0"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// badInput is one input the library must refuse with a *invalid.Error that
// names the field, carries the value as given and states the rule.
type badInput struct {
	name  string
	run   func() error
	field string
	value any    // compared with %v
	rule  string // a substring of the rule
}

// etcdValues renders the etcd chart in tenant-root with a values file.
func etcdValues(doc string) func() error {
	return func() error {
		v, err := values.Merge([]byte(doc))
		if err != nil {
			return err
		}
		_, err = etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root", Values: v})
		return err
	}
}

// clusterValues renders the kubernetes chart's etcd in tenant-demo.
func clusterValues(doc string) func() error {
	return func() error {
		v, err := values.Merge([]byte(doc))
		if err != nil {
			return err
		}
		_, err = etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: "kubernetes-demo", Values: v})
		return err
	}
}

// goValues renders the etcd chart from values built in Go.
func goValues(v map[string]any) func() error {
	return func() error {
		_, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root", Values: v})
		return err
	}
}

func render(r etcdshapes.Request) func() error {
	return func() error {
		if r.Caller == "" {
			r.Caller = naming.CallerCluster
		}
		if r.Namespace == "" {
			r.Namespace = "tenant-demo"
		}
		if r.Release == "" && r.Caller == naming.CallerCluster {
			r.Release = "kubernetes-demo"
		}
		_, err := etcdshapes.Render(r)
		return err
	}
}

func spread(constraints string) string {
	return "_cluster:\n  scheduling:\n    globalAppTopologySpreadConstraints: |\n" + indent(constraints, "      ")
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i := range lines {
		lines[i] = prefix + lines[i]
	}
	return strings.Join(lines, "\n") + "\n"
}

const zone = "topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: topology.kubernetes.io/zone\n  whenUnsatisfiable: DoNotSchedule\n"

func badInputs() []badInput {
	long := "kubernetes-" + strings.Repeat("x", 41) // "<release>-etcd" is 57
	sf := "_cluster.scheduling.globalAppTopologySpreadConstraints"
	return append([]badInput{
		// Sizes and quantities.
		{"size unit", etcdValues("size: 4Xi"), "values.size", "4Xi", "quantity"},
		{"size negative", etcdValues("size: -1Gi"), "values.size", "-1Gi", "positive"},
		{"size zero", etcdValues(`size: "0"`), "values.size", "0", "positive"},
		{"size not a scalar", etcdValues("size: [4Gi]"), "values.size", "[4Gi]", "quantity"},
		{"size boolean", etcdValues("size: true"), "values.size", "true", "quantity"},
		{"size too large", etcdValues("size: 10E"), "values.size", "10E", "int64"},
		{"size below one byte of quota", etcdValues(`size: "0.5"`), "values.size", "0.5", "at least 256Mi"},
		// Quantities the charts' float64 arithmetic does not hold exactly
		// (quantity.ChartRule): the library, the generated and the
		// upstream charts would compute different requests.
		{"cpu of 19 significant digits", etcdValues("resources:\n  cpu: \"0.1234567890123456789\"\n"), "values.resources.cpu", "0.1234567890123456789", "at most 15"},
		{"cpu of 18 digits in m", setValues("resources.cpu=123456789012345678m"), "values.resources.cpu", "123456789012345678m", "at most 15"},
		{"memory whose binary value has 16 digits", etcdValues("resources:\n  memory: 999999Gi\n"), "values.resources.memory", "999999Gi", "in its value"},
		{"memory in whole Ei", etcdValues("resources:\n  memory: 3Ei\n"), "values.resources.memory", "3Ei", "at most 15"},
		{"cpu with a fraction of a nano", etcdValues("resources:\n  cpu: 1.5n\n"), "values.resources.cpu", "1.5n", "nano-units"},
		{"memory from 2^53 that no float64 holds", etcdValues("resources:\n  memory: \"1234567890123450000\"\n"), "values.resources.memory", "1234567890123450000", "2^53"},
		{"memory in Ei the upstream reads otherwise", etcdValues("resources:\n  memory: 0.0000213623046875Ei\n"), "values.resources.memory", "0.0000213623046875Ei", "upstream"},
		{"Go memory of 16 digits", func() error {
			_, err := etcd.SanitizeResources(corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1234567890123456")}, etcd.Ratios{})
			return err
		}, "Resources[memory]", "1234567890123456", "at most 15"},
		{"Go size in whole Ei", func() error { _, err := etcd.QuotaBackendBytes(resource.MustParse("1Ei")); return err }, "Size", "1Ei", "at most 15"},
		{"hugepages page size of 17 digits", etcdValues("resources:\n  hugepages-1.0000000000000001Gi: 2Gi\n"), "values.resources.hugepages-1.0000000000000001Gi", "hugepages-1.0000000000000001Gi", "names a page size that has more significant digits"},
		// Sizes below etcd.MinSize, in which etcd's write-ahead log does
		// not fit: every unit.
		{"size one byte", etcdValues("size: 1"), "values.size", json.Number("1"), "at least 256Mi"},
		{"size 1Ki", etcdValues("size: 1Ki"), "values.size", "1Ki", "at least 256Mi"},
		{"size 100k", setValues("size=100k"), "values.size", "100k", "at least 256Mi"},
		{"size 255Mi", etcdValues("size: 255Mi"), "values.size", "255Mi", "at least 256Mi"},
		{"size 0.25G", etcdValues("size: 0.25G"), "values.size", "0.25G", "at least 256Mi"},
		{"Go size 1Mi", func() error {
			_, err := etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: "tenant-root", Etcd: etcd.Options{Size: resource.MustParse("1Mi")}})
			return err
		}, "Size", "1Mi", "at least 256Mi"},
		{"Go quota of 4Mi", func() error { _, err := etcd.QuotaBackendBytes(resource.MustParse("4Mi")); return err }, "Size", "4Mi", "at least 256Mi"},
		// Free-form strings over their length bound (TestStringLengthBounds
		// walks every one).
		{"ratio longer than 64 characters", clusterValues("_cluster:\n  cpu-allocation-ratio: \"1." + strings.Repeat("0", 63) + "\"\n"), "_cluster.cpu-allocation-ratio", "1." + strings.Repeat("0", 63), "longer than 64"},
		{"Go ratio longer than 64 characters", func() error { return etcd.Ratios{Memory: "1." + strings.Repeat("0", 63)}.Validate() }, "Ratios.Memory", "1." + strings.Repeat("0", 63), "longer than 64"},
		{"spread constraints longer than 32 KiB", etcdValues(spread(zone + "#" + strings.Repeat("x", 32<<10))), sf, zone + "#" + strings.Repeat("x", 32<<10) + "\n", "32 KiB"},
		{"node name of matchFields", etcdValues("affinity:\n  nodeAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n      nodeSelectorTerms:\n      - matchFields:\n        - {key: metadata.name, operator: In, values: [Node_1]}\n"),
			"values.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values[0]", "Node_1", "RFC 1123 subdomain"},
		{"cpu not a quantity", etcdValues("resources:\n  cpu: lots\n"), "values.resources.cpu", "lots", "quantity"},
		{"memory negative", etcdValues("resources:\n  memory: -1Gi\n"), "values.resources.memory", "-1Gi", "negative"},
		{"resource not standard", etcdValues("resources:\n  gpu: 1\n"), "values.resources.gpu", "gpu", "extended resource"},
		{"resource storage", etcdValues("resources:\n  storage: 1Gi\n"), "values.resources.storage", "storage", "cpu, memory"},
		{"resource name invalid", etcdValues("resources:\n  \"bad name\": 1\n"), "values.resources.bad name", "bad name", "resource name"},
		{"extended resource fractional", etcdValues("resources:\n  example.com/device: 0.5\n"), "values.resources.example.com/device", "0.5", "whole number"},
		{"extended resource in kubernetes.io", etcdValues("resources:\n  kubernetes.io/x: 1\n"), "values.resources.kubernetes.io/x", "kubernetes.io/x", "kubernetes.io"},
		{"memory beyond the quantity bounds", etcdValues("resources:\n  memory: \"1000000000000000000000\"\n"), "values.resources.memory", "1000000000000000000000", "below 2^63"},
		// A request of 2^63 bytes or more: the chart's int conversion of it
		// is undefined (a negative request on amd64).
		{"memory request past int64", etcdValues("resources:\n  memory: 9E\n_cluster:\n  memory-allocation-ratio: 0.5\n"), "values.resources.memory", "9E", "2^63 bytes"},
		{"memory request past int64 as written", etcdValues("resources:\n  memory: \"9000000000000000000\"\n_cluster:\n  memory-allocation-ratio: \"0.5\"\n"), "values.resources.memory", "9000000000000000000", "2^63 bytes"},
		{"ephemeral-storage request past int64", etcdValues("resources:\n  ephemeral-storage: 9E\n_cluster:\n  ephemeral-storage-allocation-ratio: 0.5\n"), "values.resources.ephemeral-storage", "9E", "2^63 bytes"},
		{"VPA memory bound past int64", etcdValues("resources:\n  memory: null\n_cluster:\n  memory-allocation-ratio: 1e-10\n"), "_cluster.memory-allocation-ratio", "1e-10", "VPA's memory bound 8Gi"},
		// Nulls: Helm deletes a chart default for a null, and the chart then
		// renders without it (or divides by a null ratio read as 0).
		{"replicas null", etcdValues("replicas: null"), "values.replicas", "null", "must be set"},
		{"size null in a later file", func() error {
			v, err := values.Merge([]byte("size: 8Gi"), []byte("size: null"))
			if err != nil {
				return err
			}
			return render(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root", Values: v})()
		}, "values.size", "null", "must be set"},
		{"cpu ratio null", etcdValues("_cluster:\n  cpu-allocation-ratio: null\n"), "_cluster.cpu-allocation-ratio", "null", "divides by it"},
		{"ephemeral ratio null", clusterValues("_cluster:\n  ephemeral-storage-allocation-ratio: null\n"), "_cluster.ephemeral-storage-allocation-ratio", "null", "divides by it"},
		// Constraints that are not empty yet hold no list.
		{"spread blank", etcdValues("_cluster:\n  scheduling:\n    globalAppTopologySpreadConstraints: \"  \"\n"), sf, "  ", "non-empty"},
		// Fractional YAML numbers where the chart's values.schema.json
		// allows an integer or a string.
		{"size fractional number", etcdValues("size: 1.5"), "values.size", "1.5", "integer or a string"},
		{"cpu fractional number", etcdValues("resources:\n  cpu: 0.5\n"), "values.resources.cpu", "0.5", "integer or a string"},
		{"memory fractional number", etcdValues("resources:\n  memory: 1073741824.5\n"), "values.resources.memory", "1073741824.5", "integer or a string"},
		{"cpu beyond the quantity bounds", etcdValues("resources:\n  cpu: 2000E\n"), "values.resources.cpu", "2000E", "below 2^63"},
		{"cpu more precise than the chart", etcdValues("resources:\n  cpu: \"123456789.123456789\"\n_cluster:\n  cpu-allocation-ratio: 1\n"), "values.resources.cpu", "123456789.123456789", "float64"},
		// Hugepages, as the Pod API refuses them in the member Pods.
		{"hugepages not a multiple of 2Mi", etcdValues("resources:\n  memory: 1Gi\n  hugepages-2Mi: 3Mi\n"), "values.resources.hugepages-2Mi", "3Mi", "multiple of the page size 2Mi"},
		{"hugepages not a multiple of 1Gi", etcdValues("resources:\n  cpu: 1\n  hugepages-1Gi: 1536Mi\n"), "values.resources.hugepages-1Gi", "1536Mi", "multiple of the page size 1Gi"},
		{"hugepages not a multiple of 64Ki", etcdValues("resources:\n  cpu: 1\n  hugepages-64Ki: 100000\n"), "values.resources.hugepages-64Ki", "100000", "multiple of the page size 64Ki"},
		{"hugepages fractional", etcdValues("resources:\n  cpu: 1\n  hugepages-2Mi: 0.5\n"), "values.resources.hugepages-2Mi", "0.5", "multiple of the page size"},
		{"hugepages page size 0", etcdValues("resources:\n  cpu: 1\n  hugepages-0: 2Mi\n"), "values.resources.hugepages-0", "hugepages-0", "positive whole number of bytes"},
		{"hugepages page size in millis", etcdValues("resources:\n  cpu: 1\n  hugepages-1m: 2Mi\n"), "values.resources.hugepages-1m", "hugepages-1m", "positive whole number of bytes"},
		{"hugepages page size fractional", etcdValues("resources:\n  cpu: 1\n  hugepages-0.5: 2Mi\n"), "values.resources.hugepages-0.5", "hugepages-0.5", "positive whole number of bytes"},
		{"hugepages page size not a quantity", etcdValues("resources:\n  cpu: 1\n  hugepages-huge: 2Mi\n"), "values.resources.hugepages-huge", "hugepages-huge", "hugepages-<page size>"},
		{"hugepages without cpu or memory", etcdValues("resources:\n  cpu: null\n  memory: null\n  hugepages-2Mi: 2Mi\n"), "values.resources", "hugepages-2Mi", "cpu or memory"},
		{"hugepages with only ephemeral storage", etcdValues("resources:\n  cpu: null\n  memory: null\n  ephemeral-storage: 1Gi\n  hugepages-1Gi: 1Gi\n"), "values.resources", "ephemeral-storage, hugepages-1Gi", "cpu or memory"},
		{"typed hugepages", func() error {
			_, err := etcd.SanitizeResources(corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1Gi"), "hugepages-2Mi": resource.MustParse("1Mi")}, etcd.Ratios{})
			return err
		}, "Resources[hugepages-2Mi]", "1Mi", "multiple of the page size 2Mi"},
		{"typed hugepages alone", func() error {
			_, err := etcd.SanitizeResources(corev1.ResourceList{"hugepages-2Mi": resource.MustParse("2Mi")}, etcd.Ratios{})
			return err
		}, "Resources", "hugepages-2Mi", "cpu or memory"},
		// Values as written: numbers keep their spelling in errors, and a
		// number out of range says so.
		{"size beyond int64 as written", etcdValues("size: 1e21"), "values.size", "1e21", "int64"},
		{"size in exa as written", etcdValues("size: 2000E"), "values.size", "2000E", "int64"},
		{"size of many digits", etcdValues("size: " + strings.Repeat("9", 300)), "values.size", json.Number(strings.Repeat("9", 300)), lossDigits},
		{"ephemeral storage beyond the quantity bounds", etcdValues("resources:\n  ephemeral-storage: 3000E\n"), "values.resources.ephemeral-storage", "3000E", "below 2^63"},
		{"replicas past int32 as written", etcdValues("replicas: 2147483648"), "values.replicas", "2147483648", "out of range"},
		{"replicas past int64", etcdValues("replicas: 99999999999999999999"), "values.replicas", "99999999999999999999", lossDigits},
		{"replicas hexadecimal", etcdValues("replicas: 0x100"), "values.replicas", "0x100", "out of range"},
		{"replicas below range", etcdValues("replicas: -2147483649"), "values.replicas", "-2147483649", "out of range"},
		{"cluster replicas past int32", clusterValues("etcd:\n  replicas: 4294967297\n"), "etcd.replicas", "4294967297", "1 or 3"},
		{"long unknown key", etcdValues(strings.Repeat("k", 1000) + ": 1"), strings.Repeat("k", 1000), "1", "not a value of this chart"},
		{"long version", etcdValues("version: " + strings.Repeat("3", 5000)), "values.version", strings.Repeat("3", 5000), "X.Y.Z"},
		// Go-built values: every number kind reads as a YAML number.
		{"Go int replicas", goValues(map[string]any{"replicas": 0}), "values.replicas", "0", "out of range"},
		{"Go uint64 replicas", goValues(map[string]any{"replicas": uint64(1 << 40)}), "values.replicas", "1099511627776", "out of range"},
		{"Go float replicas", goValues(map[string]any{"replicas": 2.5}), "values.replicas", "2.5", "whole number"},
		{"Go NaN ratio", goValues(map[string]any{"_cluster": map[string]any{"cpu-allocation-ratio": math.NaN()}}), "_cluster.cpu-allocation-ratio", ".nan", "above 0"},
		{"Go int8 size", goValues(map[string]any{"size": int8(-1)}), "values.size", "-1", "positive"},
		{"Go map of strings", goValues(map[string]any{"resources": map[string]string{"limits": "x"}}), "values.resources.limits", "x", "flat map"},
		{"Go struct value", goValues(map[string]any{"version": struct{ A int }{1}}), "values.version", "{A: 1}", "string"},
		// Nested resources.
		{"nested limits", etcdValues("resources:\n  limits:\n    cpu: 1\n"), "values.resources.limits", "{cpu: 1}", "flat map"},
		{"nested requests", etcdValues("resources:\n  requests:\n    cpu: 1\n"), "values.resources.requests", "{cpu: 1}", "flat map"},
		{"nested resource", etcdValues("resources:\n  cpu:\n    value: 1\n"), "values.resources.cpu", "{value: 1}", "nested"},
		{"resources not a map", etcdValues("resources: 1Gi"), "values.resources", "1Gi", "flat map"},
		// Versions.
		{"version empty", etcdValues(`version: ""`), "values.version", "", "X.Y.Z"},
		{"version null", etcdValues("version: null"), "values.version", "null", "must be set"},
		{"size null", etcdValues("size: null"), "values.size", "null", "must be set"},
		{"version null in a later file", func() error {
			v, err := values.Merge([]byte("version: 3.5.21"), []byte("version: ~"))
			if err != nil {
				return err
			}
			_, err = etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root", Values: v})
			return err
		}, "values.version", "null", "must be set"},

		{"version X.Y", etcdValues("version: \"3.6\""), "values.version", "3.6", "X.Y.Z"},
		{"version with v", etcdValues("version: v3.6.11"), "values.version", "v3.6.11", "X.Y.Z"},
		{"version suffix", etcdValues("version: 3.6.11-rc.0"), "values.version", "3.6.11-rc.0", "X.Y.Z"},
		{"version a number", etcdValues("version: 3.6"), "values.version", "3.6", "string"},
		// etcd's release images are tagged v<X.Y.Z> without leading zeros:
		// "3.6.011" names an image that does not exist, in every part.
		{"version leading zero", etcdValues(`version: "3.6.011"`), "values.version", "3.6.011", "without leading zeros"},
		{"version leading zero minor", etcdValues(`version: "3.06.11"`), "values.version", "3.06.11", "without leading zeros"},
		{"version leading zero major", etcdValues(`version: "03.6.11"`), "values.version", "03.6.11", "without leading zeros"},
		{"version build suffix", etcdValues(`version: "3.6.11+1"`), "values.version", "3.6.11+1", "X.Y.Z"},
		{"version past the image tag", etcdValues(`version: "3.6.` + strings.Repeat("1", 124) + `"`), "values.version", "3.6." + strings.Repeat("1", 124), "X.Y.Z"},
		{"version not ASCII digits", etcdValues(`version: "3.6.１1"`), "values.version", "3.6.１1", "X.Y.Z"},
		{"typed version leading zero", func() error {
			_, err := etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: "tenant-root", Etcd: etcd.Options{Version: "3.6.011"}})
			return err
		}, "Version", "3.6.011", "without leading zeros"},
		{"chart version", render(etcdshapes.Request{ChartVersion: "latest"}), "chartVersion", "latest", "SemVer"},
		// Chart versions as Helm reads Chart.yaml (Masterminds/semver/v3):
		// what a regular expression let through and Helm then refuses.
		{"chart version leading zero in pre-release", render(etcdshapes.Request{ChartVersion: "1.2.3-01"}), "chartVersion", "1.2.3-01", "SemVer"},
		{"chart version empty pre-release part", render(etcdshapes.Request{ChartVersion: "1.2.3-rc..1"}), "chartVersion", "1.2.3-rc..1", "SemVer"},
		{"chart version four parts", render(etcdshapes.Request{ChartVersion: "1.2.3.4"}), "chartVersion", "1.2.3.4", "SemVer"},
		{"chart version trailing dash", render(etcdshapes.Request{ChartVersion: "1.2.3-"}), "chartVersion", "1.2.3-", "SemVer"},
		// Replicas.
		{"replicas zero", etcdValues("replicas: 0"), "values.replicas", "0", "at least 1"},
		{"replicas negative", etcdValues("replicas: -3"), "values.replicas", "-3", "at least 1"},
		{"replicas fractional", etcdValues("replicas: 1.5"), "values.replicas", "1.5", "whole number"},
		{"replicas a string", etcdValues(`replicas: "3"`), "values.replicas", "3", "number"},
		{"replicas huge", etcdValues("replicas: 2147483647"), "values.replicas", "2147483647", "at most 99"},
		{"replicas past int32", etcdValues("replicas: 1e10"), "values.replicas", "1e10", "out of range"},
		{"cluster replicas 2", clusterValues("etcd:\n  replicas: 2\n"), "etcd.replicas", "2", "1 or 3"},
		{"cluster replicas 5", clusterValues("etcd:\n  replicas: 5\n"), "etcd.replicas", "5", "1 or 3"},
		{"cluster replicas 0", clusterValues("etcd:\n  replicas: 0\n"), "etcd.replicas", "0", "1 or 3"},
		{"typed cluster replicas", func() error {
			_, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo", Replicas: 4})
			return err
		}, "Replicas", "4", "1 or 3"},
		{"typed etcd replicas", func() error {
			_, err := etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: "tenant-root", Etcd: etcd.Options{Replicas: -1}})
			return err
		}, "Replicas", "-1", "at least 1"},
		// Ratios.
		{"cpu ratio zero", etcdValues("_cluster:\n  cpu-allocation-ratio: 0\n"), "_cluster.cpu-allocation-ratio", "0", "above 0"},
		{"memory ratio negative", etcdValues("_cluster:\n  memory-allocation-ratio: \"-1\"\n"), "_cluster.memory-allocation-ratio", "-1", "above 0"},
		{"ephemeral ratio text", etcdValues("_cluster:\n  ephemeral-storage-allocation-ratio: abc\n"), "_cluster.ephemeral-storage-allocation-ratio", "abc", "decimal"},
		{"ratio empty", etcdValues("_cluster:\n  cpu-allocation-ratio: \"\"\n"), "_cluster.cpu-allocation-ratio", "", "above 0"},
		{"ratio NaN", etcdValues("_cluster:\n  cpu-allocation-ratio: NaN\n"), "_cluster.cpu-allocation-ratio", "NaN", "above 0"},
		{"ratio boolean", clusterValues("_cluster:\n  memory-allocation-ratio: true\n"), "_cluster.memory-allocation-ratio", "true", "above 0"},
		{"ratio below 1 (requests above limits)", etcdValues("_cluster:\n  cpu-allocation-ratio: \"0.5\"\n"), "_cluster.cpu-allocation-ratio", "0.5", "exceed its limit"},
		{"typed ratio", func() error {
			_, err := etcd.SanitizeResources(corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}, etcd.Ratios{Memory: "0"})
			return err
		}, "Ratios.Memory", "0", "above 0"},
		{"_cluster not a map", etcdValues("_cluster: 5"), "_cluster", "5", "map"},
		// Spread constraints.
		{"spread not a string", etcdValues("_cluster:\n  scheduling:\n    globalAppTopologySpreadConstraints:\n    - maxSkew: 1\n"), sf, "[{maxSkew: 1}]", "YAML string"},
		{"spread without topologySpreadConstraints:", etcdValues(spread("- maxSkew: 1\n  topologyKey: a\n")), sf, "- maxSkew: 1\n  topologyKey: a\n", "topologySpreadConstraints"},
		{"spread other key", etcdValues(spread("constraints:\n- maxSkew: 1\n")), sf, "constraints:\n- maxSkew: 1\n", "topologySpreadConstraints"},
		{"spread empty list", etcdValues(spread("topologySpreadConstraints: []\n")), sf, "topologySpreadConstraints: []\n", "non-empty"},
		{"spread not YAML", etcdValues(spread("topologySpreadConstraints: [[[\n")), sf, "topologySpreadConstraints: [[[\n", "YAML"},
		{"spread unknown field", etcdValues(spread("topologySpreadConstraints:\n- bogus: 1\n")), sf, "topologySpreadConstraints:\n- bogus: 1\n", "unknown field"},
		{"spread field in the wrong case", etcdValues(spread(strings.Replace(zone, "maxSkew", "maxskew", 1))), sf, strings.Replace(zone, "maxSkew", "maxskew", 1), "unknown field"},
		{"spread maxSkew 0", clusterValues(spread("topologySpreadConstraints:\n- maxSkew: 0\n  topologyKey: a\n  whenUnsatisfiable: DoNotSchedule\n")), sf + "[0].maxSkew", "0", "at least 1"},
		{"spread whenUnsatisfiable", etcdValues(spread("topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: a\n  whenUnsatisfiable: Maybe\n")), sf + "[0].whenUnsatisfiable", "Maybe", "DoNotSchedule"},
		{"spread topologyKey empty", etcdValues(spread("topologySpreadConstraints:\n- maxSkew: 1\n  whenUnsatisfiable: DoNotSchedule\n")), sf + "[0].topologyKey", "", "empty"},
		{"spread topologyKey invalid", etcdValues(spread("topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: \"bad key\"\n  whenUnsatisfiable: DoNotSchedule\n")), sf + "[0].topologyKey", "bad key", "label key"},
		{"spread duplicate", etcdValues(spread(zone + "- maxSkew: 2\n  topologyKey: topology.kubernetes.io/zone\n  whenUnsatisfiable: DoNotSchedule\n")), sf + "[1]", "topology.kubernetes.io/zone, DoNotSchedule", "duplicates"},
		{"spread selector", etcdValues(spread(zone + "  labelSelector:\n    matchLabels:\n      \"bad key\": x\n")), sf + "[0].labelSelector.matchLabels", "bad key", "name part"},
		{"spread minDomains", etcdValues(spread("topologySpreadConstraints:\n- maxSkew: 1\n  topologyKey: a\n  whenUnsatisfiable: ScheduleAnyway\n  minDomains: 2\n")), sf + "[0].minDomains", "2", "DoNotSchedule"},
		{"spread matchLabelKeys", etcdValues(spread(zone + "  matchLabelKeys: [app.kubernetes.io/instance]\n")), sf + "[0].matchLabelKeys[0]", "app.kubernetes.io/instance", "labelSelector"},
		{"spread nodeTaintsPolicy", etcdValues(spread(zone + "  nodeTaintsPolicy: Always\n")), sf + "[0].nodeTaintsPolicy", "Always", "Honor or Ignore"},
		{"typed spread", func() error {
			_, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo",
				TopologySpreadConstraints: []corev1.TopologySpreadConstraint{{MaxSkew: -1, TopologyKey: "a", WhenUnsatisfiable: corev1.DoNotSchedule}}})
			return err
		}, "TopologySpreadConstraints[0].maxSkew", "-1", "at least 1"},
		{"scheduling not a map", etcdValues("_cluster:\n  scheduling: x\n"), "_cluster.scheduling", "x", "map"},
		// Affinity.
		{"affinity not a map", etcdValues("affinity: soft"), "values.affinity", "soft", "map"},
		{"affinity unknown field", etcdValues("affinity:\n  podAntiAffinity:\n    bogus: 1\n"), "values.affinity", "{podAntiAffinity: {bogus: 1}}", "unknown field"},
		{"affinity field in the wrong case", etcdValues("affinity:\n  PodAntiAffinity: {}\n"), "values.affinity", "{PodAntiAffinity: {}}", "unknown field"},
		{"affinity without topologyKey", etcdValues("affinity:\n  podAntiAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n    - labelSelector: {}\n"),
			"values.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey", "", "empty"},
		{"affinity weight", etcdValues("affinity:\n  podAffinity:\n    preferredDuringSchedulingIgnoredDuringExecution:\n    - weight: 101\n      podAffinityTerm:\n        topologyKey: k\n"),
			"values.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight", "101", "1-100"},
		{"affinity node operator", etcdValues("affinity:\n  nodeAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n      nodeSelectorTerms:\n      - matchExpressions:\n        - key: a\n          operator: Has\n"),
			"values.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator", "Has", "supported"},
		// Namespaces, releases, name lengths.
		{"namespace not a tenant", render(etcdshapes.Request{Namespace: "default"}), "namespace", "default", "tenant"},
		{"namespace kube-system", render(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "kube-system"}), "namespace", "kube-system", "tenant"},
		{"namespace empty tenant", render(etcdshapes.Request{Namespace: "tenant-"}), "namespace", "tenant-", "DNS-1123"},
		{"namespace empty tenant part", render(etcdshapes.Request{Namespace: "tenant-a--b"}), "namespace", "tenant-a--b", "non-empty"},
		{"namespace uppercase", render(etcdshapes.Request{Namespace: "tenant-Demo"}), "namespace", "tenant-Demo", "DNS-1123"},
		{"namespace too long", render(etcdshapes.Request{Namespace: "tenant-" + strings.Repeat("a", 57)}), "namespace", "tenant-" + strings.Repeat("a", 57), "63"},
		{"etcd release other than etcd", render(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root", Release: "etcd2"}), "release", "etcd2", `"etcd"`},
		{"typed etcd release", func() error {
			_, err := etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: "tenant-root", Release: "kubernetes-demo"})
			return err
		}, "Release", "kubernetes-demo", `"etcd"`},
		{"release too long", render(etcdshapes.Request{Release: long}), "release", long, "more than 56"},
		{"release uppercase", render(etcdshapes.Request{Release: "Kubernetes-demo"}), "release", "Kubernetes-demo", "DNS-1123"},
		{"release with a dot", render(etcdshapes.Request{Release: "kubernetes.demo"}), "release", "kubernetes.demo", "DNS-1123"},
		{"release starting with a digit", render(etcdshapes.Request{Release: "1-demo"}), "release", "1-demo", "letter"},
		{"release empty", func() error {
			_, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo"})
			return err
		}, "Release", "", "empty"},
		// API versions: nothing in a served list is refused (see
		// apiListInputs below).
		// Live state.
		{"live datastore name", render(etcdshapes.Request{Live: etcdshapes.LiveState{DataStoreName: "Tenant_Root"}}), "live.dataStoreName", "Tenant_Root", "DNS-1123"},
		{"live storage class", render(etcdshapes.Request{Live: etcdshapes.LiveState{StorageClassName: ptr("bad class")}}), "live.storageClassName", "bad class", "DNS-1123"},
		{"bad input behind a shared datastore", func() error {
			v, _ := values.Merge([]byte("_cluster:\n  cpu-allocation-ratio: 0\n"))
			return render(etcdshapes.Request{Values: v, Live: etcdshapes.LiveState{DataStoreName: "tenant-root"}})()
		}, "_cluster.cpu-allocation-ratio", "0", "above 0"},
		// Storage classes.
		{"storageClass invalid", etcdValues("storageClass: Fast_SSD"), "values.storageClass", "Fast_SSD", "DNS-1123"},
		{"storageClass not a string", etcdValues("storageClass: 5"), "values.storageClass", "5", "string"},
		{"local storage class", clusterValues("_cluster:\n  etcd-storage-class-local: \"a b\"\n"), "_cluster.etcd-storage-class-local", "a b", "DNS-1123"},
		{"replicated storage class", clusterValues("etcd:\n  replicas: 1\n_cluster:\n  etcd-storage-class-replicated: 7\n"), "_cluster.etcd-storage-class-replicated", "7", "string"},
		// Unknown keys, shapes.
		{"unknown key", etcdValues("replica: 3"), "replica", "3", "not a value of this chart"},
		{"unknown empty key", etcdValues(`"": 1`), `""`, "1", "not a value of this chart"},
		{"unknown key under etcd", clusterValues("etcd:\n  size: 4Gi\n"), "etcd.size", "4Gi", "not a value of this chart"},
		{"etcd not a map", clusterValues("etcd: 3"), "etcd", "3", "map"},
		{"values not a map", etcdValues("- a\n- b\n"), "values[0]", "- a …", "YAML map"},
		{"values not YAML", etcdValues("a: [\n"), "values[0]", "a: [", "YAML map"},
		{"caller", render(etcdshapes.Request{Caller: "kubernetes"}), "caller", "kubernetes", `"etcd" or "cluster"`},
		// The zero caller is no caller: it is not the etcd chart (the int
		// naming.Caller read 0 as the etcd chart).
		{"caller empty", func() error {
			_, err := etcdshapes.Render(etcdshapes.Request{Namespace: "tenant-root", Release: "etcd"})
			return err
		}, "caller", "", `"etcd" or "cluster"`},
		{"chartgen caller", func() error { _, err := chartgen.Chart(chartgen.Options{Caller: "kubernetes"}); return err }, "caller", "kubernetes", `"etcd" or "cluster"`},
		{"typed spread parser", func() error { _, err := values.ParseSpreadConstraints(42); return err }, sf, "42", "YAML string"},
		{"typed quota", func() error { _, err := etcd.QuotaBackendBytes(resource.MustParse("-1")); return err }, "Size", "-1", "positive"},
	}, append(append(append(badLiveInputs(), quantityBadInputs()...), dupKeyBadInputs()...), authBadInputs()...)...)
}

// authBadInputs: etcd authentication's inputs, in every caller's terms
// (the etcd chart's values.auth, the kubernetes chart's etcd.auth, and
// the Go options of both stacks), each rule and each type: the root
// credentials Secret is named exactly when auth is on, is a Secret name,
// is none of the stack's TLS Secrets, and the values are of their types.
func authBadInputs() []badInput {
	type caller struct {
		field string // the auth map's field
		doc   func(auth string) func() error
		typed func(etcd.Auth) func() error
		names naming.Names
	}
	etcdNames, err := naming.ForEtcdChart("tenant-root", "etcd")
	if err != nil {
		panic(err)
	}
	clusterNames, err := naming.ForCluster("tenant-demo", "kubernetes-demo")
	if err != nil {
		panic(err)
	}
	callers := []caller{
		{"values.auth", func(a string) func() error { return etcdValues("auth: " + a) }, func(a etcd.Auth) func() error {
			return func() error {
				_, err := etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: "tenant-root", Etcd: etcd.Options{Auth: a}})
				return err
			}
		}, etcdNames},
		{"etcd.auth", func(a string) func() error { return clusterValues("etcd:\n  auth: " + a) }, func(a etcd.Auth) func() error {
			return func() error {
				_, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo", Auth: a})
				return err
			}
		}, clusterNames},
	}
	const (
		required = "when auth is enabled"
		disabled = "while auth is disabled"
		name     = "Secret name (DNS-1123 subdomain)"
		tls      = "the stack's TLS Secrets"
	)
	long := strings.Repeat("a", 254)
	var out []badInput
	for _, c := range callers {
		secret := c.field + ".rootCredentialsSecret"
		out = append(out,
			badInput{c.field + " on without a Secret", c.doc("{enabled: true}"), secret, "", required},
			badInput{c.field + " on with an empty Secret", c.doc(`{enabled: true, rootCredentialsSecret: ""}`), secret, "", required},
			badInput{c.field + " Secret while off", c.doc("{rootCredentialsSecret: root}"), secret, "root", disabled},
			badInput{c.field + " Secret while explicitly off", c.doc("{enabled: false, rootCredentialsSecret: root}"), secret, "root", disabled},
			badInput{c.field + " Secret uppercase", c.doc("{enabled: true, rootCredentialsSecret: Root}"), secret, "Root", name},
			badInput{c.field + " Secret with an underscore", c.doc("{enabled: true, rootCredentialsSecret: etcd_root}"), secret, "etcd_root", name},
			badInput{c.field + " Secret with a slash", c.doc("{enabled: true, rootCredentialsSecret: a/b}"), secret, "a/b", name},
			badInput{c.field + " Secret starting with a dash", c.doc("{enabled: true, rootCredentialsSecret: -root}"), secret, "-root", name},
			badInput{c.field + " Secret over 253 characters", c.doc("{enabled: true, rootCredentialsSecret: " + long + "}"), secret, long, "253"},
			badInput{c.field + " not a map", c.doc("on"), c.field, "true", "map"},
			badInput{c.field + " a list", c.doc("[enabled]"), c.field, "[enabled]", "map"},
			badInput{c.field + " unknown key", c.doc("{enable: true}"), c.field + ".enable", "true", "not a value of this chart"},
			badInput{c.field + ".enabled a string", c.doc(`{enabled: "true", rootCredentialsSecret: root}`), c.field + ".enabled", "true", "boolean"},
			badInput{c.field + ".enabled a number", c.doc("{enabled: 1, rootCredentialsSecret: root}"), c.field + ".enabled", "1", "boolean"},
			badInput{c.field + ".rootCredentialsSecret a number", c.doc("{enabled: true, rootCredentialsSecret: 7}"), secret, "7", "string"},
			badInput{c.field + ".rootCredentialsSecret a map", c.doc("{enabled: true, rootCredentialsSecret: {name: root}}"), secret, "{name: root}", "string"},
			badInput{"typed " + c.field + " on without a Secret", c.typed(etcd.Auth{Enabled: true}), "Auth.RootCredentialsSecret", "", required},
			badInput{"typed " + c.field + " Secret while off", c.typed(etcd.Auth{RootCredentialsSecret: "root"}), "Auth.RootCredentialsSecret", "root", disabled},
			badInput{"typed " + c.field + " Secret name", c.typed(etcd.Auth{Enabled: true, RootCredentialsSecret: "Root"}), "Auth.RootCredentialsSecret", "Root", name},
		)
		// Every TLS Secret of the stack, which holds no password.
		for _, t := range c.names.TLSSecrets() {
			out = append(out,
				badInput{c.field + " Secret " + t, c.doc("{enabled: true, rootCredentialsSecret: " + t + "}"), secret, t, tls},
				badInput{"typed " + c.field + " Secret " + t, c.typed(etcd.Auth{Enabled: true, RootCredentialsSecret: t}), "Auth.RootCredentialsSecret", t, tls})
		}
	}
	// Checked behind a shared datastore too, where nothing renders.
	out = append(out, badInput{"etcd.auth behind a shared datastore", func() error {
		v, _ := values.Merge([]byte("etcd:\n  auth: {enabled: true}\n"))
		return render(etcdshapes.Request{Values: v, Live: etcdshapes.LiveState{DataStoreName: "tenant-root"}})()
	}, "etcd.auth.rootCredentialsSecret", "", required})
	return out
}

// liveDoc reads a live file as the plan command does (ReadObjects) and
// plans the tenant cluster demo stack against it.
func liveDoc(doc string) func() error {
	return func() error {
		objs, err := plan.ReadObjects([]byte(doc))
		if err != nil {
			return err
		}
		_, _, err = plan.ForRequest(etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: "kubernetes-demo"}, objs)
		return err
	}
}

// liveObjs plans the tenant cluster demo stack against live objects as a
// Go caller passes them.
func liveObjs(objs ...etcdshapes.Object) func() error {
	return func() error {
		_, _, err := plan.ForRequest(etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: "kubernetes-demo"}, objs)
		return err
	}
}

func unstructuredObj(m map[string]any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: m}
}

// etcdClusterDoc is a live EtcdCluster of the demo stack with spec.
func etcdClusterDoc(spec string) string {
	return "apiVersion: etcd-operator.cozystack.io/v1alpha2\nkind: EtcdCluster\nmetadata: {name: kubernetes-demo-etcd, namespace: tenant-demo}\nspec:\n" + indent(spec, "  ")
}

// secretDoc is a live Secret in tenant-demo with metadata.
func secretDoc(meta string) string {
	return "apiVersion: v1\nkind: Secret\nmetadata:\n  namespace: tenant-demo\n" + indent(meta, "  ")
}

// badLiveInputs are live objects (plan) with a malformed field the plan
// reads: each is named by its position in the input, its value quoted as
// given, cut to 80 bytes.
func badLiveInputs() []badInput {
	long := strings.Repeat("a", 200)
	wide := strings.Repeat("é", 100) // 2 bytes each: the cut falls inside one
	list := make([]string, 100)
	for i := range list {
		list[i] = fmt.Sprintf("label-%d", i)
	}
	return []badInput{
		// Identity.
		{"live apiVersion a number", liveDoc("apiVersion: 1\nkind: Secret\nmetadata: {name: a}\n"), "live[0].apiVersion", "1", "group/version"},
		{"live apiVersion three parts", liveDoc("apiVersion: a/b/c\nkind: Secret\nmetadata: {name: a}\n"), "live[0].apiVersion", "a/b/c", "group/version"},
		{"live apiVersion missing", liveDoc("kind: Secret\nmetadata: {name: a}\n"), "live[0].apiVersion", "", "group/version"},
		{"live apiVersion a map", liveDoc("apiVersion: {v: 1}\nkind: Secret\nmetadata: {name: a}\n"), "live[0].apiVersion", "{v: 1}", "group/version"},
		{"live kind a number", liveDoc("apiVersion: v1\nkind: 5\nmetadata: {name: a}\n"), "live[0].kind", "5", "kind"},
		{"live kind missing", liveDoc("apiVersion: v1\nmetadata: {name: a}\n"), "live[0].kind", "", "kind"},
		{"live metadata not a map", liveDoc("apiVersion: v1\nkind: Secret\nmetadata: a\n"), "live[0].metadata", "a", "object"},
		{"live name a number", liveDoc(secretDoc("name: 7\n")), "live[0].metadata.name", "7", "name"},
		{"live name a list", liveDoc(secretDoc("name: [a]\n")), "live[0].metadata.name", "[a]", "name"},
		{"live name missing", liveDoc(secretDoc("labels: {}\n")), "live[0].metadata.name", "", "name"},
		{"live apiVersion too long to quote", liveDoc("apiVersion: " + long + "/v1/x\nkind: Secret\nmetadata: {name: a}\n"), "live[0].apiVersion", long + "/v1/x", "group/version"},
		{"live namespace a number", liveDoc("apiVersion: v1\nkind: Secret\nmetadata: {name: a, namespace: 1}\n"), "live[0].metadata.namespace", "1", "string"},
		{"live namespace long and wide", liveDoc("apiVersion: v1\nkind: Secret\nmetadata: {name: a, namespace: [x" + wide + "]}\n"), "live[0].metadata.namespace", []any{"x" + wide}, "string"},
		// A stack kind spelled as the API server never prints it (every
		// kind and spelling: plan's TestPlanRefusesMisspelledStackKinds).
		{"live kind lower case", liveDoc("apiVersion: etcd-operator.cozystack.io/v1alpha2\nkind: etcdcluster\nmetadata: {name: kubernetes-demo-etcd, namespace: tenant-demo}\n"),
			"live[0].kind", "etcdcluster", `must be "EtcdCluster", as the API server prints it: EtcdCluster "kubernetes-demo-etcd" in namespace "tenant-demo"`},
		{"live kind trailing space", liveDoc("apiVersion: etcd-operator.cozystack.io/v1alpha2\nkind: 'EtcdCluster '\nmetadata: {name: kubernetes-demo-etcd, namespace: tenant-demo}\n"),
			"live[0].kind", "EtcdCluster ", `must be "EtcdCluster", as the API server prints it`},
		{"live apiVersion trailing space", liveDoc("apiVersion: 'etcd-operator.cozystack.io/v1alpha2 '\nkind: EtcdCluster\nmetadata: {name: kubernetes-demo-etcd, namespace: tenant-demo}\n"),
			"live[0].apiVersion", "etcd-operator.cozystack.io/v1alpha2 ", `must be "etcd-operator.cozystack.io/v1alpha2", as the API server prints it`},
		{"live apiVersion group upper case", liveDoc("apiVersion: Cert-Manager.io/v1\nkind: Certificate\nmetadata: {name: kubernetes-demo-etcd-ca, namespace: tenant-demo}\n"),
			"live[0].apiVersion", "Cert-Manager.io/v1", `must be "cert-manager.io/v1", as the API server prints it: Certificate "kubernetes-demo-etcd-ca"`},
		{"live core kind upper case in a JSON List", liveDoc(`{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "SECRET", "metadata": {"name": "etcd-ca-tls", "namespace": "tenant-root"}}]}`),
			"live[0].items[0].kind", "SECRET", `must be "Secret", as the API server prints it`},
		{"live DataStore version with a tab (Go)", liveObjs(unstructuredObj(map[string]any{"apiVersion": "kamaji.clastix.io/v1alpha1\t", "kind": "DataStore", "metadata": map[string]any{"name": "tenant-demo.kubernetes-demo"}})),
			"live[0].apiVersion", "kamaji.clastix.io/v1alpha1\t", `must be "kamaji.clastix.io/v1alpha1", as the API server prints it: DataStore "tenant-demo.kubernetes-demo" spelled`},
		// The namespace by the kind's scope (every kind: plan's TestPlanNamespaceByScope).
		{"live namespaced kind without a namespace", liveDoc("apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata: {name: kubernetes-demo-etcd-ca}\n"), "live[0].metadata.namespace", "", "is namespaced"},
		{"live List item without a namespace", liveDoc("apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Secret, metadata: {name: a, namespace: tenant-demo}}\n- {apiVersion: batch/v1, kind: CronJob, metadata: {name: kubernetes-demo-etcd-defrag}}\n"),
			"live[0].items[1].metadata.namespace", "", "is namespaced"},
		{"live cluster-scoped kind with a namespace", liveDoc("apiVersion: kamaji.clastix.io/v1alpha1\nkind: DataStore\nmetadata: {name: tenant-demo.kubernetes-demo, namespace: tenant-demo}\n"), "live[0].metadata.namespace", "tenant-demo", "cluster-scoped"},
		{"live KamajiControlPlane without a namespace", liveDoc("apiVersion: controlplane.cluster.x-k8s.io/v1alpha1\nkind: KamajiControlPlane\nmetadata: {name: kubernetes-demo}\n"), "live[0].metadata.namespace", "", "is namespaced"},
		{"live state from an object without a namespace", func() error {
			_, err := plan.LiveStateFromObjects("tenant-demo", "kubernetes-demo", []etcdshapes.Object{unstructuredObj(map[string]any{"apiVersion": "etcd-operator.cozystack.io/v1alpha2", "kind": "EtcdCluster", "metadata": map[string]any{"name": "kubernetes-demo-etcd"}})})
			return err
		}, "live[0].metadata.namespace", "", "is namespaced"},
		{"desired namespaced kind without a namespace", func() error {
			_, err := plan.Compute(nil, []etcdshapes.Object{unstructuredObj(map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": map[string]any{"name": "etcd-headless"}})})
			return err
		}, "desired[0].metadata.namespace", "", "is namespaced"},
		// Labels and annotations.
		{"live labels a list", liveDoc(secretDoc("name: a\nlabels: [a]\n")), "live[0].metadata.labels", "[a]", "object"},
		{"live label a number", liveDoc(secretDoc("name: a\nlabels: {app.kubernetes.io/name: 1}\n")), "live[0].metadata.labels.app.kubernetes.io/name", "1", "string"},
		{"live label a long list", liveDoc(secretDoc("name: a\nlabels: {x: [" + strings.Join(list, ", ") + "]}\n")), "live[0].metadata.labels.x",
			list, "string"},
		{"live annotation a bool", liveDoc(secretDoc("name: a\nannotations: {helm.sh/resource-policy: true}\n")), "live[0].metadata.annotations.helm.sh/resource-policy", "true", "string"},
		// managedFields.
		{"live managedFields a map", liveDoc(secretDoc("name: a\nmanagedFields: {manager: x}\n")), "live[0].metadata.managedFields", "{manager: x}", "list"},
		{"live managedFields entry a string", liveDoc(secretDoc("name: a\nmanagedFields: [x]\n")), "live[0].metadata.managedFields[0]", "x", "managed field entry"},
		{"live managedFields manager a number", liveDoc(secretDoc("name: a\nmanagedFields: [{manager: 1, operation: Apply}]\n")), "live[0].metadata.managedFields[0].manager", "1", "string"},
		{"live managedFields operation a list", liveDoc(secretDoc("name: a\nmanagedFields: [{manager: m, operation: [Apply]}]\n")), "live[0].metadata.managedFields[0].operation", "[Apply]", "string"},
		{"live fieldsV1 a string", liveDoc(secretDoc("name: a\nmanagedFields: [{manager: m, operation: Apply, fieldsV1: \"f:spec\"}]\n")), "live[0].metadata.managedFields[0].fieldsV1", "f:spec", "field set"},
		{"live fieldsV1 key without a type", liveDoc(secretDoc("name: a\nmanagedFields: [{manager: m, operation: Update}, {manager: m2, operation: Apply, fieldsV1: {spec: {}}}]\n")), "live[0].metadata.managedFields[1].fieldsV1", "{spec: {}}", "field set"},
		{"live fieldsV1 member a number", liveDoc(secretDoc("name: a\nmanagedFields: [{manager: m, operation: Apply, fieldsV1: {f:spec: 5}}]\n")), "live[0].metadata.managedFields[0].fieldsV1", map[string]any{"f:spec": 5}, "field set"},
		{"live fieldsV1 bad key value", liveDoc(secretDoc("name: a\nmanagedFields: [{manager: m, operation: Apply, fieldsV1: {f:spec: {\"k:{not json\": {}}}}]\n")), "live[0].metadata.managedFields[0].fieldsV1", map[string]any{"f:spec": map[string]any{"k:{not json": map[string]any{}}}, "field set"},
		// Lists.
		{"live List items a number", liveDoc("apiVersion: v1\nkind: List\nitems: 5\n"), "live[0].items", "5", "list of objects"},
		{"live List item a string", liveDoc("apiVersion: v1\nkind: List\nitems: [a]\n"), "live[0].items[0]", "a", "Kubernetes object"},
		{"live List item without a name (empty documents count)", liveDoc("---\n---\napiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Secret, metadata: {name: a, namespace: tenant-demo}}\n- {apiVersion: v1, kind: Secret, metadata: {}}\n"), "live[1].items[1].metadata.name", "", "name"},
		{"live typed List item without a kind", liveDoc("apiVersion: v1\nkind: List\nitems:\n- {metadata: {name: a}}\n"), "live[0].items[0].apiVersion", "", "group/version"},
		{"live document a string", liveDoc("just text\n"), "live[0]", "just text", "Kubernetes object"},
		// Duplicate keys: the later value would win silently (a document
		// appended to a List without ---, a JSON object with a key twice);
		// the key is named by its place, with the lines of both. Every
		// form of the class: dupKeyBadInputs.
		{"live YAML document appended without ---", liveDoc("apiVersion: v1\nkind: List\nitems: []\napiVersion: kamaji.clastix.io/v1alpha1\nkind: DataStore\nmetadata: {name: d}\n"),
			"live[0].apiVersion", "apiVersion", "(lines 1 and 4): a key may appear once in a map, as in the API server's strict decoding"},
		{"live YAML duplicate key nested", liveDoc(secretDoc("name: a\nlabels: {x: a, x: b}\n")), "live[0].metadata.labels.x", "x", "(line 6, columns 12 and 18)"},
		{"live JSON duplicate key", liveDoc(`{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "a", "namespace": "tenant-demo", "name": "b"}}`), "live[0].metadata.name", "name", "(line 1, columns 53 and 94)"},
		{"live JSON List duplicate item key", liveDoc(`{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "Secret", "kind": "ConfigMap", "metadata": {"name": "a", "namespace": "tenant-demo"}}]}`), "live[0].items[0].kind", "kind", "appears twice in one map"},
		// Fields the rules read.
		{"live replicas a string", liveDoc(etcdClusterDoc("replicas: \"3\"\n")), "live[0].spec.replicas", "3", "whole number"},
		{"live replicas fractional", liveDoc(etcdClusterDoc("replicas: 1.5\n")), "live[0].spec.replicas", "1.5", "whole number"},
		{"live replicas negative", liveDoc(etcdClusterDoc("replicas: -1\n")), "live[0].spec.replicas", "-1", "whole number"},
		{"live storage size not a quantity", liveDoc(etcdClusterDoc("storage: {size: lots}\n")), "live[0].spec.storage.size", "lots", "quantity"},
		{"live storage size a bool", liveDoc(etcdClusterDoc("storage: {size: true}\n")), "live[0].spec.storage.size", "true", "quantity"},
		{"live storage not a map", liveDoc(etcdClusterDoc("storage: 4Gi\n")), "live[0].spec.storage", "4Gi", "object"},
		{"live storage class a number", liveDoc(etcdClusterDoc("storage: {storageClassName: 5}\n")), "live[0].spec.storage.storageClassName", "5", "string"},
		{"live storage medium a map", liveDoc(etcdClusterDoc("storage: {medium: {a: b}}\n")), "live[0].spec.storage.medium", "{a: b}", "string"},
		{"live version a number", liveDoc(etcdClusterDoc("version: 3.6\n")), "live[0].spec.version", "3.6", "string"},
		{"live spec a list", liveDoc("apiVersion: etcd-operator.cozystack.io/v1alpha2\nkind: EtcdCluster\nmetadata: {name: e, namespace: x}\nspec: [1]\n"), "live[0].spec", "[1]", "object"},
		{"live DataStore usedBy not strings", liveDoc("apiVersion: kamaji.clastix.io/v1alpha1\nkind: DataStore\nmetadata: {name: d}\nstatus: {usedBy: [1]}\n"), "live[0].status.usedBy", "[1]", "list of strings"},
		{"live DataStore driver a number", liveDoc("apiVersion: kamaji.clastix.io/v1alpha1\nkind: DataStore\nmetadata: {name: d}\nspec: {driver: 1}\n"), "live[0].spec.driver", "1", "string"},
		{"live KamajiControlPlane datastore a number", liveDoc("apiVersion: controlplane.cluster.x-k8s.io/v1alpha1\nkind: KamajiControlPlane\nmetadata: {name: kubernetes-demo, namespace: tenant-demo}\nspec: {dataStoreName: 1}\n"),
			"live[0].spec.dataStoreName", "1", "string"},
		// What says that an object refers to a stack (a partial live file).
		{"live TenantControlPlane datastore a list", liveDoc("apiVersion: kamaji.clastix.io/v1alpha1\nkind: TenantControlPlane\nmetadata: {name: tcp, namespace: tenant-demo}\nspec: {dataStore: [a]}\n"),
			"live[0].spec.dataStore", "[a]", "string"},
		{"live EtcdSnapshot cluster a number", liveDoc("apiVersion: etcd-operator.cozystack.io/v1alpha2\nkind: EtcdSnapshot\nmetadata: {name: s, namespace: tenant-demo}\nspec: {clusterRef: {name: 1}}\n"),
			"live[0].spec.clusterRef.name", "1", "string"},
		{"live TenantControlPlane datastore a number (Go)", func() error {
			_, _, err := plan.ForRequest(etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: "kubernetes-demo"},
				[]etcdshapes.Object{unstructuredObj(map[string]any{"apiVersion": "kamaji.clastix.io/v1alpha1", "kind": "TenantControlPlane",
					"metadata": map[string]any{"name": "tcp", "namespace": "tenant-demo"}, "spec": map[string]any{"dataStore": int64(5)}})})
			return err
		}, "live[0].spec.dataStore", "5", "string"},
		// Objects from a Go caller.
		{"live object nil", liveObjs(unstructuredObj(map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "a", "namespace": "tenant-demo"}}), nil), "live[1]", nil, "not nil"},
		{"live typed nil", liveObjs((*unstructured.Unstructured)(nil)), "live[0]", nil, "not nil"},
		// Values are checked in the objects the plan reads (the stack's;
		// of other objects only what names them).
		{"live value not JSON", liveObjs(unstructuredObj(map[string]any{"apiVersion": "etcd-operator.cozystack.io/v1alpha2", "kind": "EtcdCluster",
			"metadata": map[string]any{"name": "kubernetes-demo-etcd", "namespace": "tenant-demo"},
			"data":     map[string]any{"x": []string{"a"}}})), "live[0].data.x", []string{"a"}, "JSON value"},
		{"live number not finite", liveObjs(unstructuredObj(map[string]any{"apiVersion": "etcd-operator.cozystack.io/v1alpha2", "kind": "EtcdCluster",
			"metadata": map[string]any{"name": "kubernetes-demo-etcd", "namespace": "tenant-demo"},
			"spec":     map[string]any{"list": []any{1, math.Inf(1)}}})), "live[0].spec.list[1]", math.Inf(1), "finite"},
		{"live name a number (Go)", liveObjs(unstructuredObj(map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": 7}})), "live[0].metadata.name", "7", "name"},
		{"live replicas a string (Go)", liveObjs(unstructuredObj(map[string]any{"apiVersion": "etcd-operator.cozystack.io/v1alpha2", "kind": "EtcdCluster",
			"metadata": map[string]any{"name": "kubernetes-demo-etcd", "namespace": "tenant-demo"}, "spec": map[string]any{"replicas": "3"}})), "live[0].spec.replicas", "3", "whole number"},
		{"desired apiVersion a number", func() error {
			_, err := plan.Compute(nil, []etcdshapes.Object{unstructuredObj(map[string]any{"apiVersion": 1, "kind": "Secret", "metadata": map[string]any{"name": "a"}})})
			return err
		}, "desired[0].apiVersion", "1", "group/version"},
		{"live state from a bad object", func() error {
			_, err := plan.LiveStateFromObjects("tenant-demo", "kubernetes-demo", []etcdshapes.Object{unstructuredObj(map[string]any{"apiVersion": "v1", "kind": 2})})
			return err
		}, "live[0].kind", "2", "kind"},
	}
}

// setValues renders the etcd chart in tenant-root with --set arguments
// (Helm's parser, as the command applies them).
func setValues(args ...string) func() error {
	return func() error {
		v := map[string]any{}
		if err := (strvals.Sets{Values: args}).Apply(v, nil); err != nil {
			return err
		}
		_, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-root", Values: v})
		return err
	}
}

// quantityBadInputs: the quantity bounds (internal/quantity), through
// every entry point a quantity has (values files, --set, the Go options,
// live objects), each refused before any arithmetic with the value as
// written: a quantity beyond 2^63-1, longer than 64 characters or with an
// exponent beyond ±99. TestQuantitiesInBoundedTime runs them with a
// deadline.
func quantityBadInputs() []badInput {
	const (
		rng    = "must be below 2^63 = 8Ei"
		length = "at most 64 characters"
		expo   = "exponent (e or E) must be between -99 and 99"
	)
	// The least quantity in Ei whose float64 is 2^63 (8Ei).
	beyondEi := "7.9999999999999999Ei"
	tiny := "0." + strings.Repeat("0", 63) + "1"
	huge := func(exp int32) resource.Quantity { return *resource.NewScaledQuantity(1, resource.Scale(exp)) }
	return []badInput{
		// Values files.
		{"size huge exponent", etcdValues("size: 1e999999999"), "values.size", "1e999999999", expo},
		{"size huge exponent, capital E", etcdValues("size: 1E999999999"), "values.size", "1E999999999", expo},
		{"size exponent wrapping int32", etcdValues("size: 1e4294967297"), "values.size", "1e4294967297", expo},
		{"size 8Ei", etcdValues("size: 8Ei"), "values.size", "8Ei", rng},
		{"size past 2^63-1 in Ei", etcdValues("size: " + beyondEi), "values.size", beyondEi, rng},
		{"size 2^63", etcdValues(`size: "9223372036854775808"`), "values.size", "9223372036854775808", rng},
		{"size 2^63-1 (a float64 of 2^63)", etcdValues(`size: "9223372036854775807"`), "values.size", "9223372036854775807", rng},
		{"size 2^63 as a number", etcdValues("size: 9223372036854775808"), "values.size", "9223372036854775808", lossDigits},
		{"size 10E", etcdValues("size: 10E"), "values.size", "10E", rng},
		{"size tiny exponent", etcdValues(`size: "1e-999999999"`), "values.size", "1e-999999999", expo},
		{"size tiny exponent, zero", etcdValues(`size: "0e-999999999"`), "values.size", "0e-999999999", expo},
		// A YAML number is a float64, as Helm reads it: this one is 0.
		{"size tiny exponent as a number", etcdValues("size: 1e-999999999"), "values.size", json.Number("1e-999999999"), lossUnder},
		{"size longer than 64 characters", etcdValues("size: \"" + tiny + "\""), "values.size", tiny, length},
		{"memory huge exponent", etcdValues("resources:\n  memory: 1e999999999\n"), "values.resources.memory", "1e999999999", expo},
		{"memory 1e400", etcdValues("resources:\n  memory: 1e400\n"), "values.resources.memory", "1e400", expo},
		{"memory 1e300 as a number", etcdValues("resources:\n  memory: 1e300\n"), "values.resources.memory", json.Number("1e300"), rng},
		{"cpu tiny exponent", etcdValues("resources:\n  cpu: \"1e-999999999\"\n"), "values.resources.cpu", "1e-999999999", expo},
		{"cpu 1e400", etcdValues("resources:\n  cpu: 1e400\n"), "values.resources.cpu", "1e400", expo},
		{"cpu 1e100000", etcdValues("resources:\n  cpu: 1e100000\n"), "values.resources.cpu", "1e100000", expo},
		{"ephemeral-storage tiny exponent", etcdValues("resources:\n  ephemeral-storage: 5e-100\n"), "values.resources.ephemeral-storage", "5e-100", expo},
		{"hugepages huge exponent", etcdValues("resources:\n  hugepages-2Mi: 1e100000\n"), "values.resources.hugepages-2Mi", "1e100000", expo},
		{"extended resource tiny exponent", etcdValues("resources:\n  example.com/device: \"1e-999999999\"\n"), "values.resources.example.com/device", "1e-999999999", expo},
		{"hugepages page size huge", etcdValues("resources:\n  hugepages-1e999999999: 2Mi\n"), "values.resources.hugepages-1e999999999", "hugepages-1e999999999", "names a page size that has an exponent out of range"},
		{"hugepages page size tiny", etcdValues("resources:\n  hugepages-1e-999999999: 2Mi\n"), "values.resources.hugepages-1e-999999999", "hugepages-1e-999999999", "names a page size that has an exponent out of range"},
		{"cpu ratio below a float64, as written", etcdValues("_cluster:\n  cpu-allocation-ratio: 1e-400\n"), "_cluster.cpu-allocation-ratio", json.Number("1e-400"), lossUnder},
		{"cpu ratio beyond a float64", etcdValues("_cluster:\n  cpu-allocation-ratio: 1e400\n"), "_cluster.cpu-allocation-ratio", "1e400", lossOver},
		{"memory ratio as written", clusterValues("_cluster:\n  memory-allocation-ratio: 1e16\n"), "_cluster.memory-allocation-ratio", json.Number("1e16"), "at most 1e15"},
		{"VPA cpu bound past the quantity bounds", etcdValues("resources:\n  cpu: null\n_cluster:\n  cpu-allocation-ratio: 1e-19\n"), "_cluster.cpu-allocation-ratio", "1e-19", "VPA's cpu bound 5000m"},
		// --set.
		{"--set memory huge exponent", setValues("resources.memory=1e999999999"), "values.resources.memory", "1e999999999", expo},
		{"--set cpu tiny exponent", setValues("resources.cpu=1e-999999999"), "values.resources.cpu", "1e-999999999", expo},
		{"--set size 8Ei", setValues("size=8Ei"), "values.size", "8Ei", rng},
		{"--set size 2^63", setValues("size=9223372036854775808"), "values.size", "9223372036854775808", rng},
		{"--set ratio as written", setValues("_cluster.memory-allocation-ratio=1e-400"), "_cluster.memory-allocation-ratio", "1e-400", lossUnder},
		// Go options.
		{"Go size huge", func() error {
			_, err := etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: "tenant-root", Etcd: etcd.Options{Size: huge(999999999)}})
			return err
		}, "Size", "1e999999999", expo},
		{"Go size parsed huge", func() error {
			_, err := etcd.Cluster(mustNames(), etcd.Options{Size: resource.MustParse("1e100000")})
			return err
		}, "Size", "1e100000", expo},
		{"Go quota huge", func() error { _, err := etcd.QuotaBackendBytes(huge(999999999)); return err }, "Size", "1e999999999", expo},
		{"Go quota tiny", func() error { _, err := etcd.QuotaBackendBytes(huge(-999999999)); return err }, "Size", "1e-999999999", expo},
		{"Go quota 2^63", func() error {
			_, err := etcd.QuotaBackendBytes(*resource.NewDecimalQuantity(*inf.NewDecBig(new(big.Int).Lsh(big.NewInt(1), 63), 0), resource.BinarySI))
			return err
		}, "Size", "9223372036854775808", rng},
		{"Go memory huge", func() error {
			_, err := etcd.SanitizeResources(corev1.ResourceList{corev1.ResourceMemory: huge(999999999)}, etcd.Ratios{})
			return err
		}, "Resources[memory]", "1e999999999", expo},
		{"Go cpu tiny", func() error {
			_, err := etcd.SanitizeResources(corev1.ResourceList{corev1.ResourceCPU: huge(-999999999)}, etcd.Ratios{})
			return err
		}, "Resources[cpu]", "1e-999999999", expo},
		{"Go check size", func() error {
			_, err := etcd.CheckJob(mustNames(), etcd.Options{Size: *resource.NewScaledQuantity(10, 18)}, etcd.CheckOptions{})
			return err
		}, "Size", "10E", rng}, // the quantity as its String gives it
		{"Go VPA cpu bound", func() error {
			_, err := etcd.VerticalPodAutoscaler(mustNames(), etcd.Ratios{CPU: "1e-19"})
			return err
		}, "Ratios.CPU", "1e-19", "VPA's cpu bound 5000m"},
		// Live objects: the plan refuses a size beyond the bounds (8Ei is
		// read as 2^63-1, 1e999999999 would never compare).
		{"live size huge", liveDoc(etcdClusterDoc("storage: {size: 1e999999999}\n")), "live[0].spec.storage.size", "1e999999999", expo},
		{"live size 8Ei", liveDoc(etcdClusterDoc("storage: {size: 8Ei}\n")), "live[0].spec.storage.size", "8Ei", rng},
		{"live size tiny", liveDoc(etcdClusterDoc("storage: {size: \"1e-999999999\"}\n")), "live[0].spec.storage.size", "1e-999999999", expo},
		{"live size 2^63 as a number", liveDoc(etcdClusterDoc("storage: {size: 9223372036854775808}\n")), "live[0].spec.storage.size", json.Number("9223372036854775808"), lossDigits},
	}
}

// mustNames are the demo tenant cluster's names.
func mustNames() naming.Names {
	n, err := naming.ForCluster("tenant-demo", "kubernetes-demo")
	if err != nil {
		panic(err)
	}
	return n
}

func ptr[T any](v T) *T { return &v }

// shown is a value as an error message prints it, a string unquoted.
func shown(v any) string {
	s := invalid.FormatValue(v)
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	return s
}

// genBadInputs are the files and directories `gen chart` (through
// internal/chartwrite) refuses to touch, each in a fresh directory under
// base prepared by its setup: the value is the path refused.
func genBadInputs(base string) []badInput {
	files := []chartwrite.File{
		{Path: "Chart.yaml", Data: []byte("name: x\n")},
		{Path: "templates/a.yaml", Data: []byte("a: 1\n")},
	}
	withOld := append(append([]chartwrite.File{}, files...), chartwrite.File{Path: "templates/old.yaml", Data: []byte("old\n")})
	elsewhere := filepath.Join(base, "elsewhere")
	var writeWith func(name string, files []chartwrite.File, o chartwrite.Options, setup func(dir string) (out string, err error)) func() error
	// write runs Write of files into base/name (or the out setup returns),
	// after setup prepared the directory.
	write := func(name string, files []chartwrite.File, force bool, setup func(dir string) (out string, err error)) func() error {
		return writeWith(name, files, chartwrite.Options{Force: force}, setup)
	}
	writeWith = func(name string, files []chartwrite.File, o chartwrite.Options, setup func(dir string) (out string, err error)) func() error {
		return func() error {
			dir := filepath.Join(base, name)
			if err := os.RemoveAll(dir); err != nil {
				return err
			}
			for _, d := range []string{dir, elsewhere} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					return err
				}
			}
			out, err := setup(dir)
			if err != nil {
				return err
			}
			_, err = chartwrite.Write(out, files, o)
			return err
		}
	}
	put := func(p, content string) error {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, []byte(content), 0o644)
	}
	// written: the directory after an earlier Write of these files.
	written := func(files []chartwrite.File, then func(dir string) error) func(string) (string, error) {
		return func(dir string) (string, error) {
			if _, err := chartwrite.Write(dir, files, chartwrite.Options{}); err != nil {
				return "", err
			}
			return dir, then(dir)
		}
	}
	in := func(name string, rel ...string) string { return filepath.Join(append([]string{base, name}, rel...)...) }
	mani := chartwrite.ManifestName
	cases := []badInput{
		{"gen: a file gen did not write", write("not-ours", files, false, func(dir string) (string, error) {
			return dir, put(filepath.Join(dir, "Chart.yaml"), "mine\n")
		}), "out", in("not-ours", "Chart.yaml"), "was not written by etcdshapes"},
		{"gen: a file edited since gen wrote it", write("edited", files, false, written(files, func(dir string) error {
			return put(filepath.Join(dir, "templates", "a.yaml"), "edited\n")
		})), "out", in("edited", "templates", "a.yaml"), "edited since"},
		{"gen: a stale file edited since", write("stale-edited", files, false, written(withOld, func(dir string) error {
			return put(filepath.Join(dir, "templates", "old.yaml"), "edited\n")
		})), "out", in("stale-edited", "templates", "old.yaml"), "no longer generated, but was edited"},
		{"gen: a file that is a symbolic link", write("link", files, true, func(dir string) (string, error) {
			return dir, os.Symlink(filepath.Join(elsewhere, "x"), filepath.Join(dir, "Chart.yaml"))
		}), "out", in("link", "Chart.yaml"), "never follows or replaces one, even with --force"},
		{"gen: a directory that is a symbolic link", write("dir-link", files, true, func(dir string) (string, error) {
			return dir, os.Symlink(elsewhere, filepath.Join(dir, "templates"))
		}), "out", in("dir-link", "templates"), "never follows one, even with --force"},
		{"gen: out is a symbolic link", write("out-link", files, true, func(dir string) (string, error) {
			return filepath.Join(dir, "l"), os.Symlink(elsewhere, filepath.Join(dir, "l"))
		}), "out", in("out-link", "l"), "pass the directory itself"},
		{"gen: out is a file", write("out-file", files, true, func(dir string) (string, error) {
			return filepath.Join(dir, "f"), put(filepath.Join(dir, "f"), "x\n")
		}), "out", in("out-file", "f"), "not a directory"},
		{"gen: a file that is a directory", write("is-dir", files, true, func(dir string) (string, error) {
			return dir, os.MkdirAll(filepath.Join(dir, "Chart.yaml"), 0o755)
		}), "out", in("is-dir", "Chart.yaml"), "is a directory, not a regular file"},
		{"gen: a directory that is a file", write("not-dir", files, true, func(dir string) (string, error) {
			return dir, put(filepath.Join(dir, "templates"), "x\n")
		}), "out", in("not-dir", "templates"), "not a directory"},
		{"gen: a file that is a FIFO", write("fifo", files, true, func(dir string) (string, error) {
			return dir, hostilefs.Mkfifo(filepath.Join(dir, "Chart.yaml"))
		}), "out", in("fifo", "Chart.yaml"), "is a FIFO (named pipe), not a regular file; etcdshapes never opens"},
		{"gen: the manifest is a FIFO", write("fifo-manifest", files, true, func(dir string) (string, error) {
			return dir, hostilefs.Mkfifo(filepath.Join(dir, mani))
		}), "out", in("fifo-manifest", mani), "never opens it"},
		{"gen: the manifest is a symbolic link", write("link-manifest", files, true, func(dir string) (string, error) {
			return dir, os.Symlink(filepath.Join(elsewhere, "m"), filepath.Join(dir, mani))
		}), "out", in("link-manifest", mani), "never follows one"},
		{"gen: the lock file is a symbolic link", write("link-lock", files, true, func(dir string) (string, error) {
			return dir, os.Symlink(filepath.Join(elsewhere, "l"), filepath.Join(dir, chartwrite.LockName))
		}), "out", in("link-lock", chartwrite.LockName), "never follows one"},
		{"gen: the lock file is a FIFO", write("fifo-lock", files, true, func(dir string) (string, error) {
			return dir, hostilefs.Mkfifo(filepath.Join(dir, chartwrite.LockName))
		}), "out", in("fifo-lock", chartwrite.LockName), "is a FIFO (named pipe), not the empty file etcdshapes locks; it never opens it"},
		{"gen: the lock file has content", write("full-lock", files, true, func(dir string) (string, error) {
			return dir, put(filepath.Join(dir, chartwrite.LockName), "mine\n")
		}), "out", in("full-lock", chartwrite.LockName), "holds 5 bytes, so it is not the empty file etcdshapes locks"},
		{"gen: into another chart (Chart.yaml)", write("other-chart", append(files, chartwrite.File{Path: "sub/templates/b.yaml"}), true, func(dir string) (string, error) {
			return dir, put(filepath.Join(dir, "sub", "Chart.yaml"), "name: other\n")
		}), "out", in("other-chart", "sub"), "is another chart (it has its own Chart.yaml)"},
		{"gen: into another chart (manifest)", write("other-gen", append(files, chartwrite.File{Path: "sub/b.yaml"}), true, func(dir string) (string, error) {
			return dir, put(filepath.Join(dir, "sub", mani), "")
		}), "out", in("other-gen", "sub"), "is another chart (it has its own " + mani + ")"},
		{"gen: manifest line", write("manifest-line", files, true, func(dir string) (string, error) {
			return dir, put(filepath.Join(dir, mani), "rm -rf /\n")
		}), "out", in("manifest-line", mani), `line 1 is not "<sha256 in lowercase hex>  <path>"`},
		{"gen: manifest path outside the directory", write("manifest-escape", files, true, func(dir string) (string, error) {
			return dir, put(filepath.Join(dir, mani), strings.Repeat("0", 64)+"  ../elsewhere/x\n")
		}), "out", in("manifest-escape", mani), "must be a clean relative slash-separated path inside the directory"},
		{"gen: manifest too large", write("manifest-large", files, true, func(dir string) (string, error) {
			p := filepath.Join(dir, mani)
			if err := put(p, ""); err != nil {
				return "", err
			}
			return dir, os.Truncate(p, 64<<30) // sparse: reading it would take minutes
		}), "out", in("manifest-large", mani), fmt.Sprintf("is larger than %d bytes", chartwrite.MaxManifestSize)},
		{"gen: into a directory another command wrote (its manifest's owner)", writeWith("other-owner", files, chartwrite.Options{Force: true, Owner: "gen chart"}, func(dir string) (string, error) {
			_, err := chartwrite.Write(dir, files, chartwrite.Options{Owner: "render etcd tenant-root/etcd"})
			return dir, err
		}), "out", in("other-owner", mani), "records the files of 'etcdshapes render etcd tenant-root/etcd', not of 'etcdshapes gen chart'"},
		{"gen: into a directory from before owners that another command wrote", writeWith("legacy-owner", files, chartwrite.Options{Force: true, Owner: "gen chart", Adopts: func([]string) bool { return false }}, written(files, func(string) error { return nil })),
			"out", in("legacy-owner", mani), "was written by an earlier etcdshapes for another command than 'etcdshapes gen chart'"},
		{"gen: an owner the manifest cannot hold", writeWith("bad-owner", files, chartwrite.Options{Owner: "gen\nchart"}, func(dir string) (string, error) { return dir, nil }),
			"owner", "gen\nchart", "no control character"},
		{"gen: a journal it cannot have written", write("bad-journal", files, true, func(dir string) (string, error) {
			return dir, put(filepath.Join(dir, ".etcdshapes-tmp-journal"), `{"version":1,"state":"commit","writes":[],"removes":[{"path":"../elsewhere/x"}]}`)
		}), "out", in("bad-journal", ".etcdshapes-tmp-journal"), "etcdshapes cannot have written it"},
		{"gen: the journal is a FIFO", write("fifo-journal", files, true, func(dir string) (string, error) {
			return dir, hostilefs.Mkfifo(filepath.Join(dir, ".etcdshapes-tmp-journal"))
		}), "out", in("fifo-journal", ".etcdshapes-tmp-journal"), "is a FIFO (named pipe), not the journal etcdshapes writes"},
		{"gen: path outside the directory", write("path-escape", []chartwrite.File{{Path: "../x"}}, true, func(dir string) (string, error) { return dir, nil }),
			"files[0].path", "../x", "must be a clean relative"},
		{"gen: path twice", write("path-twice", []chartwrite.File{{Path: "a"}, {Path: "a"}}, true, func(dir string) (string, error) { return dir, nil }),
			"files[1].path", "a", "duplicates files[0]"},
		{"gen: reserved path", write("path-reserved", []chartwrite.File{{Path: mani}}, true, func(dir string) (string, error) { return dir, nil }),
			"files[0].path", mani, "reserved"},
		{"gen: file too large", write("file-large", []chartwrite.File{{Path: "a", Data: make([]byte, chartwrite.MaxFileSize+1)}}, true, func(dir string) (string, error) { return dir, nil }),
			"files[0].data", fmt.Sprintf("%d bytes", chartwrite.MaxFileSize+1), "at most"},
	}
	if runtime.GOOS == "windows" { // no FIFOs; symbolic links need privileges; no flock
		cases = slices.DeleteFunc(cases, func(c badInput) bool {
			return strings.Contains(c.name, "FIFO") || strings.Contains(c.name, "symbolic link") || strings.Contains(c.name, "lock file")
		})
	}
	return cases
}

// refused runs the input and checks its first refusal: a *invalid.Error
// naming c's field, with c's value and a rule containing c's rule. The
// value is compared as the message shows it (YAML flow style, cut at its
// limit), strings unquoted. It returns that refusal and the whole error.
func (c badInput) refused(t *testing.T) (*invalid.Error, error) {
	t.Helper()
	err := c.run()
	require.Error(t, err, "accepted")
	var ne *invalid.Error
	require.True(t, errors.As(err, &ne), "not a *invalid.Error: %T %v", err, err)
	require.Equal(t, c.field, ne.Field, "field (error: %v)", err)
	require.Equal(t, shown(c.value), shown(ne.Value), "value (error: %v)", err)
	require.Contains(t, ne.Rule, c.rule, "rule (error: %v)", err)
	return ne, err
}

// TestBadInputs: every bad input is refused with a *invalid.Error naming the
// field, the value and the rule, and its message says all three.
func TestBadInputs(t *testing.T) {
	cases := append(append(append(badInputs(), genBadInputs(t.TempDir())...), extrasBadInputs()...), snapshotBadInputs()...)
	cases = append(append(cases, processBadInputs()...), applyBadInputs()...)
	cases = append(append(cases, numbersBadInputs()...), inputs3BadInputs()...)
	require.GreaterOrEqual(t, len(cases), 40)
	names := map[string]bool{}
	for _, c := range cases {
		require.False(t, names[c.name], "duplicate case %q", c.name)
		names[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			ne, err := c.refused(t)
			msg := err.Error()
			// The field and the rule as Error prints them: escaped, so
			// that a multi-line parser message stays on one line.
			require.True(t, strings.HasPrefix(msg, invalid.Escape(ne.Field[:min(len(ne.Field), 100)])), "field (error: %v)", err)
			require.Contains(t, msg, invalid.Escape(ne.Rule))
			require.Contains(t, msg, "invalid value "+invalid.FormatValue(ne.Value)+": ")
			// The same input fails the same way every time.
			again := c.run()
			require.Equal(t, err.Error(), again.Error())
		})
	}
}

// apiListInput is a served API list (Request.APIVersions, the CLI's
// --api-versions, a chart's .Capabilities) of the class of inputs that
// used to be refused: nothing in a served list is refused, as Helm
// refuses nothing in it. The stack renders the optional kinds whose API
// the list holds whole, byte for byte (Helm's VersionSet.Has), and
// APIVersionWarnings tells the likely mistakes.
type apiListInput struct {
	name   string
	caller naming.Caller // "" is CallerCluster
	apis   []string
	kinds  []string // the optional kinds rendered, in the table's order
	warn   []string // one substring a warning, in order; nil: none
	// meant is the API a warning suggests ("did you mean …?"); "" none.
	meant string
}

// alwaysEtcd are the optional kinds the etcd chart renders whatever is
// served.
var alwaysEtcd = []string{"VerticalPodAutoscaler", "VMPodScrape"}

func apiListInputs() []apiListInput {
	const (
		vpa, vmps, cnp = etcdshapes.APIVerticalPodAutoscaler, etcdshapes.APIVMPodScrape, etcdshapes.APICiliumNetworkPolicy
		pm, gd         = etcdshapes.APIPodMonitor, etcdshapes.APIGrafanaDashboard
		notName        = "is not an API's name"
	)
	garbage := make([]string, 1000)
	for i := range garbage {
		garbage[i] = fmt.Sprintf("garbage %d", i)
	}
	return []apiListInput{
		// Spaces and invisible characters: kept, so the entry names no API.
		{name: "trailing space", apis: []string{cnp + " "}, warn: []string{`"` + cnp + ` "`}, meant: cnp},
		{name: "leading space", apis: []string{" " + cnp}, warn: []string{`" ` + cnp + `"`}, meant: cnp},
		{name: "tab", apis: []string{cnp + "\t"}, warn: []string{`"` + cnp + `\t"`}, meant: cnp},
		{name: "line break", apis: []string{cnp + "\n"}, warn: []string{`"` + cnp + `\n"`}, meant: cnp},
		{name: "no-break space", apis: []string{cnp + "\u00a0"}, warn: []string{notName}, meant: cnp},
		{name: "zero-width space", apis: []string{"\u200b" + cnp}, warn: []string{notName}, meant: cnp},
		{name: "quoted", apis: []string{`"` + cnp + `"`}, warn: []string{notName}, meant: cnp},
		// Empty entries and separators inside one entry (the CLI splits
		// commas as Helm does; a Go entry is one entry).
		{name: "empty entry", apis: []string{""}, warn: []string{`apiVersions: "" ` + notName}},
		{name: "empty entry beside the API", apis: []string{vpa, ""}, kinds: []string{"VerticalPodAutoscaler"}, warn: []string{`"" ` + notName}},
		{name: "comma inside one entry", apis: []string{vpa + "," + cnp}, warn: []string{notName}},
		{name: "four parts", apis: []string{cnp + "/x"}, warn: []string{notName}},
		{name: "group and kind without version", apis: []string{"cilium.io/CiliumNetworkPolicy"}, warn: []string{notName}},
		{name: "group alone", apis: []string{"cilium.io"}, warn: []string{notName}},
		// Case: never folded.
		{name: "kind in lower case", apis: []string{"cilium.io/v2/ciliumnetworkpolicy"}, warn: []string{"in the API group of " + cnp}, meant: cnp},
		{name: "group in upper case", apis: []string{"Cilium.io/v2/CiliumNetworkPolicy"}, warn: []string{notName}, meant: cnp},
		{name: "kind case of one letter", apis: []string{"operator.victoriametrics.com/v1beta1/VMPodscrape"}, warn: []string{"so no VMPodScrape is rendered"}, meant: vmps},
		// Duplicates are the entry once.
		{name: "duplicate entries", apis: []string{cnp, cnp, "cilium.io/v2", "cilium.io/v2"}, kinds: []string{"CiliumNetworkPolicy"}},
		{name: "duplicate malformed entries", apis: []string{"x y", "x y"}, warn: []string{`"x y" ` + notName}},
		// An optional API's group without the API: rendered without it.
		{name: "group/version without kind", apis: []string{"cilium.io/v2"}, warn: []string{`apiVersions: "cilium.io/v2" is in the API group of ` + cnp + ", which the list does not hold, so no CiliumNetworkPolicy is rendered"}},
		{name: "autoscaling group/version", apis: []string{"autoscaling.k8s.io/v1", vmps}, kinds: []string{"VMPodScrape"}, warn: []string{"in the API group of " + vpa}},
		{name: "another version", apis: []string{"autoscaling.k8s.io/v1beta2/VerticalPodAutoscaler"}, warn: []string{"no VerticalPodAutoscaler is rendered"}},
		{name: "another kind of the group", apis: []string{"cilium.io/v2/CiliumClusterwideNetworkPolicy", vpa}, kinds: []string{"VerticalPodAutoscaler"}, warn: []string{"no CiliumNetworkPolicy"}},
		{name: "other kinds of the PodMonitor's group, etcd chart", caller: naming.CallerEtcd,
			apis:  []string{"monitoring.coreos.com/v1/ServiceMonitor", "monitoring.coreos.com/v1/PrometheusRule", "monitoring.coreos.com/v1", gd},
			kinds: []string{"VerticalPodAutoscaler", "VMPodScrape", "GrafanaDashboard"},
			warn:  []string{`apiVersions: "monitoring.coreos.com/v1/ServiceMonitor" and 2 more entries are in the API group of ` + pm + ", which the list does not hold, so no PodMonitor is rendered"}},
		{name: "the PodMonitor's group, cluster", apis: []string{"monitoring.coreos.com/v1/PrometheusRule", cnp}, kinds: []string{"CiliumNetworkPolicy"}, warn: []string{"no PodMonitor"}},
		{name: "partial groups of every optional API", apis: []string{"autoscaling.k8s.io/v1", "operator.victoriametrics.com/v1beta1", "cilium.io/v2", "monitoring.coreos.com/v1", "grafana.integreatly.org/v1beta1"},
			warn: []string{"of " + vpa, "of " + vmps, "of " + pm, "of " + gd, "of " + cnp}},
		// The etcd chart renders its VPA and VMPodScrape always: their
		// groups are no mistake there; the CiliumNetworkPolicy is not its.
		{name: "always-rendered groups, etcd chart", caller: naming.CallerEtcd, apis: []string{"autoscaling.k8s.io/v1", "operator.victoriametrics.com/v1beta1", "cilium.io/v2"}, kinds: alwaysEtcd},
		// APIs the stacks know nothing of, and a cluster's served names.
		{name: "unknown APIs", apis: []string{"example.com/v1/Widget", "example.com/stable/my-widget", "apps/v1", "v1", "v1/Pod", "v2beta1/Thing"}},
		{name: "a cluster's whole served list", apis: []string{"v1", "v1/Pod", "apps/v1", "apps/v1/Deployment", "autoscaling/v2", "autoscaling/v2/HorizontalPodAutoscaler",
			"autoscaling.k8s.io/v1", vpa, "autoscaling.k8s.io/v1/VerticalPodAutoscalerCheckpoint", "autoscaling.k8s.io/v1beta2", "autoscaling.k8s.io/v1beta2/VerticalPodAutoscaler",
			"operator.victoriametrics.com/v1beta1", vmps, "operator.victoriametrics.com/v1beta1/VMServiceScrape",
			"cilium.io/v2", cnp, "cilium.io/v2/CiliumClusterwideNetworkPolicy", "cilium.io/v2alpha1", "cilium.io/v2alpha1/CiliumNodeConfig",
			"monitoring.coreos.com/v1", pm, "monitoring.coreos.com/v1/ServiceMonitor", "grafana.integreatly.org/v1beta1", gd, "metrics.k8s.io/v1beta1/NodeMetrics"},
			kinds: []string{"VerticalPodAutoscaler", "VMPodScrape", "PodMonitor", "GrafanaDashboard", "CiliumNetworkPolicy"}},
		// Long, non-ASCII, control characters and many entries: told
		// escaped, cut and bounded.
		{name: "very long entry", apis: []string{strings.Repeat("a", 1<<20), vpa}, kinds: []string{"VerticalPodAutoscaler"}, warn: []string{"aaaa…"}},
		{name: "very long entry in a group", apis: []string{"cilium.io/v2/" + strings.Repeat("A", 1<<20)}, warn: []string{notName}},
		{name: "non-ASCII", apis: []string{"ciliüm.io/v2/CiliumNetworkPolicy"}, warn: []string{`"ciliüm.io/v2/CiliumNetworkPolicy" ` + notName}},
		{name: "terminal escape", apis: []string{"\x1b]52;c;aGk=\x07"}, warn: []string{`"\x1b]52;c;aGk=\a" ` + notName}},
		{name: "invalid UTF-8", apis: []string{"cilium.io/v2/\xff"}, warn: []string{`"cilium.io/v2/\xff" ` + notName}},
		{name: "many entries that are no names", apis: append(garbage, cnp), kinds: []string{"CiliumNetworkPolicy"},
			warn: []string{`"garbage 0"`, `"garbage 1"`, `"garbage 2"`, `"garbage 3"`, `"garbage 4"`, `"garbage 5"`, `"garbage 6"`, `"garbage 7"`, `"garbage 8"`, `"garbage 9"`,
				"apiVersions: 990 more entries are not an API's name"}},
	}
}

// optionalKinds are the kinds of the optional APIs among objs, in the
// table's order.
func optionalKinds(objs []etcdshapes.Object) []string {
	var out []string
	for _, api := range etcdshapes.OptionalAPIs() {
		kind := api[strings.LastIndexByte(api, '/')+1:]
		for _, o := range objs {
			if o.GetObjectKind().GroupVersionKind().Kind == kind {
				out = append(out, kind)
				break
			}
		}
	}
	return out
}

// TestAPIListsNeverRefused: every served list of the class renders, with
// the optional kinds whose API it holds exactly, through Render and the
// stacks' options alike, beside bad values too (whose refusal names no
// apiVersions); its warnings are as the row says, each printable on one
// line (no control character, at most a few hundred bytes).
func TestAPIListsNeverRefused(t *testing.T) {
	names := map[string]bool{}
	for _, c := range apiListInputs() {
		require.False(t, names[c.name], "duplicate case %q", c.name)
		names[c.name] = true
		if c.caller == "" {
			c.caller = naming.CallerCluster
		}
		t.Run(c.name, func(t *testing.T) {
			req := etcdshapes.Request{Caller: c.caller, Namespace: "tenant-demo", Release: "kubernetes-demo", APIVersions: c.apis}
			if c.caller == naming.CallerEtcd {
				req.Release = ""
			}
			objs, err := etcdshapes.Render(req)
			require.NoError(t, err)
			require.Equal(t, c.kinds, optionalKinds(objs), "kinds rendered")

			var typed []etcdshapes.Object
			if c.caller == naming.CallerEtcd {
				typed, err = etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: req.Namespace, APIVersions: c.apis})
			} else {
				typed, err = etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: req.Namespace, Release: req.Release, APIVersions: c.apis})
			}
			require.NoError(t, err)
			require.Equal(t, c.kinds, optionalKinds(typed), "kinds rendered by the options")

			bad := req
			bad.Values = map[string]any{"replicas": 2, "etcd": map[string]any{"replicas": 2}}
			_, err = etcdshapes.Render(bad)
			require.Error(t, err)
			for _, e := range invalid.All(err) {
				require.NotEqual(t, "apiVersions", e.Field, "%v", err)
			}

			warnings := etcdshapes.APIVersionWarnings(c.caller, c.apis)
			require.Len(t, warnings, len(c.warn), "%q", warnings)
			suggested := ""
			for _, w := range warnings {
				if _, api, ok := strings.Cut(w, "; did you mean "); ok {
					require.Empty(t, suggested, "two suggestions: %q", warnings)
					suggested = strings.TrimSuffix(api, "?")
				}
			}
			require.Equal(t, c.meant, suggested, "suggestion in %q", warnings)
			for i, w := range warnings {
				require.Contains(t, w, c.warn[i])
				require.True(t, strings.HasPrefix(w, "apiVersions: "), w)
				require.LessOrEqual(t, len(w), 400, w)
				for _, r := range w {
					require.False(t, r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0), "control character %U in %q", r, w)
				}
			}
		})
	}
}
