package roundtrip

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/naming"
	"sigs.k8s.io/yaml"
)

// randomCases is how many random inputs TestRandomValues renders per caller.
const randomCases = 150

func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.Intn(len(xs))] }

func randomQuantity(r *rand.Rand, units []string) any {
	num := pick(r, "1", "2", "3", "5", "7", "10", "16", "100", "1.5", "0.5", "250", "1000", "4096", "333", "12")
	unit := pick(r, units...)
	if unit == "number" {
		return float64(r.Intn(5000000000) + 1)
	}
	return num + unit
}

func randomRatio(r *rand.Rand) any {
	if r.Intn(2) == 0 {
		return pick(r, 1.0, 2.0, 3.0, 4.0, 1.5, 0.5, 7.0, 10.0, 40.0, 0.3)
	}
	return pick(r, "1", "2", "3", "4", "1.5", "2.5", "0.7", "6", "9", "10", "33", "40", "0.25")
}

func randomSpread(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString("topologySpreadConstraints:\n")
	for i := 0; i <= r.Intn(3); i++ {
		fmt.Fprintf(&b, "- maxSkew: %d\n  topologyKey: %s\n  whenUnsatisfiable: %s\n", 1+r.Intn(3),
			pick(r, "kubernetes.io/hostname", "topology.kubernetes.io/zone", "topology.kubernetes.io/region"),
			pick(r, "DoNotSchedule", "ScheduleAnyway"))
		if r.Intn(3) == 0 {
			fmt.Fprintf(&b, "  labelSelector:\n    matchLabels:\n      tier: %s\n", pick(r, "etcd", "db"))
		}
		if r.Intn(5) == 0 {
			b.WriteString("  minDomains: 2\n")
		}
	}
	return b.String()
}

func randomPlatform(r *rand.Rand, cluster bool) map[string]any {
	p := map[string]any{}
	for _, k := range []string{"cpu-allocation-ratio", "memory-allocation-ratio", "ephemeral-storage-allocation-ratio"} {
		if r.Intn(2) == 0 {
			p[k] = randomRatio(r)
		}
	}
	if r.Intn(3) == 0 {
		p["scheduling"] = map[string]any{"globalAppTopologySpreadConstraints": randomSpread(r)}
	}
	if cluster {
		if r.Intn(2) == 0 {
			p["etcd-storage-class-local"] = pick(r, "local", "local-path", "")
		}
		if r.Intn(2) == 0 {
			p["etcd-storage-class-replicated"] = pick(r, "replicated", "drbd.r3", "")
		}
	}
	// Keys the platform passes that the etcd does not read.
	p["host"] = "example.org"
	return p
}

func randomEtcdValues(r *rand.Rand) map[string]any {
	v := map[string]any{}
	if r.Intn(2) == 0 {
		v["replicas"] = float64(1 + r.Intn(7))
	}
	if r.Intn(2) == 0 {
		v["size"] = randomQuantity(r, []string{"Ki", "Mi", "Gi", "Ti", "k", "M", "G", "T", "", "number", "e9", "E3"})
	}
	if r.Intn(3) == 0 {
		v["version"] = fmt.Sprintf("3.%d.%d", r.Intn(7), r.Intn(20))
	}
	if r.Intn(3) == 0 {
		v["storageClass"] = pick(r, "local", "replicated", "fast.ssd", "")
	}
	if r.Intn(2) == 0 {
		res := map[string]any{}
		if r.Intn(4) != 0 {
			res["cpu"] = randomQuantity(r, []string{"m", "", "number"})
		}
		if r.Intn(4) != 0 {
			res["memory"] = randomQuantity(r, []string{"Mi", "Gi", "M", "G", "", "Ki"})
		}
		if r.Intn(3) == 0 {
			res["ephemeral-storage"] = randomQuantity(r, []string{"Gi", "G", "Mi"})
		}
		if r.Intn(5) == 0 {
			res["example.com/device"] = "1"
		}
		v["resources"] = res
	}
	if r.Intn(5) == 0 {
		v["affinity"] = map[string]any{"nodeAffinity": map[string]any{"requiredDuringSchedulingIgnoredDuringExecution": map[string]any{
			"nodeSelectorTerms": []any{map[string]any{"matchExpressions": []any{map[string]any{"key": "node-role.kubernetes.io/etcd", "operator": "Exists"}}}},
		}}}
	}
	if r.Intn(3) != 0 {
		v["_cluster"] = randomPlatform(r, false)
	}
	return v
}

func randomClusterValues(r *rand.Rand) map[string]any {
	v := map[string]any{}
	if r.Intn(2) == 0 {
		v["etcd"] = map[string]any{"replicas": pick(r, 1.0, 3.0)}
	}
	if r.Intn(3) != 0 {
		v["_cluster"] = randomPlatform(r, true)
	}
	// The kubernetes chart's other values, which the etcd ignores.
	v["controlPlane"] = map[string]any{"replicas": 2.0}
	return v
}

func randomTenant(r *rand.Rand) string {
	ns := "tenant-" + pick(r, "root", "a", "demo", "abc")
	for i := r.Intn(3); i > 0; i-- {
		ns += "-" + pick(r, "b", "child", "x1", strings.Repeat("long", 1+r.Intn(4)))
	}
	return ns
}

func randomRelease(r *rand.Rand) string {
	rel := "kubernetes-" + pick(r, "demo", "prod", "a")
	for len(rel) < 11+r.Intn(40) {
		rel += pick(r, "-", "x", "eu", "west", "1", "cluster")
	}
	return strings.TrimRight(rel, "-")
}

// TestRandomValues renders random values of both callers (sizes and
// resources in every unit, ratios that do not divide evenly, several spread
// constraints, long names, random served APIs and live state) with the
// chart and the library.
func TestRandomValues(t *testing.T) {
	forEachHelm(t, randomValues)
}

func randomValues(t *testing.T, h helm) {
	r := rand.New(rand.NewSource(42))
	// Every optional API, for both callers: the etcd chart gates its
	// PodMonitor and GrafanaDashboard too.
	apis := etcdshapes.OptionalAPIs()
	counts := map[naming.Caller]int{}
	for i := 0; i < 2*randomCases; i++ {
		in := renderInput{namespace: randomTenant(r)}
		var values map[string]any
		if i%2 == 0 {
			in.caller, in.release = "etcd", "etcd"
			values = randomEtcdValues(r)
		} else {
			in.caller, in.release = "cluster", randomRelease(r)
			values = randomClusterValues(r)
		}
		for _, a := range apis {
			if r.Intn(2) == 0 {
				in.apiVersions = append(in.apiVersions, a)
			}
		}
		if in.caller == "cluster" {
			switch r.Intn(5) {
			case 0:
				in.live.DataStoreName = "tenant-root"
			case 1:
				in.live.DataStoreName = in.namespace + "." + in.release
			case 2:
				sc := pick(r, "", "legacy-ssd")
				in.live.StorageClassName = &sc
			}
		}
		// etcd auth on in a quarter of the cases, drawn from a source of
		// its own so that the other draws stay what they were.
		if ar := rand.New(rand.NewSource(int64(i))); ar.Intn(4) == 0 {
			auth := map[string]any{"enabled": true, "rootCredentialsSecret": pick(ar, "etcd-root", "root.credentials", "123", "x")}
			if in.caller == "etcd" {
				values["auth"] = auth
			} else if e, ok := values["etcd"].(map[string]any); ok {
				e["auth"] = auth
			} else {
				values["etcd"] = map[string]any{"auth": auth}
			}
			counts["auth"]++
		}
		raw, err := yaml.Marshal(values)
		if err != nil {
			t.Fatal(err)
		}
		in.values = raw
		t.Run(fmt.Sprintf("%s-%03d", in.caller, i), func(t *testing.T) {
			defer func() {
				if t.Failed() {
					t.Logf("namespace %s, release %s, apis %v, live %+v, values:\n%s", in.namespace, in.release, in.apiVersions, in.live, raw)
				}
			}()
			compareRenders(t, h, in)
			counts[in.caller]++
		})
	}
	t.Logf("%s: random inputs round-tripped: etcd %d, cluster %d (%d with auth on)", h.name(), counts["etcd"], counts["cluster"], counts["auth"])
}
