package roundtrip

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/etcdshapes/etcdshapes/naming"
	"sigs.k8s.io/yaml"
)

// TestHelmBinary runs a real `helm template` (the binaries $HELM and $HELM4
// name, e.g. helm v3 and v4; the test is skipped without them) on the
// generated charts, the library chart in their charts/ directory, for every
// golden scenario without live state and for random values, and compares
// with the library. It proves what the in-process tests assume: the CLI
// loads the chart, its dependency, the values and the schema as the engine
// package does.
func TestHelmBinary(t *testing.T) {
	var bins []string
	for _, env := range []string{"HELM", "HELM4"} {
		if b := os.Getenv(env); b != "" {
			bins = append(bins, b)
		}
	}
	if len(bins) == 0 {
		t.Skip("set HELM (and HELM4) to helm binaries to run `helm template` itself")
	}
	for _, bin := range bins {
		t.Run(filepath.Base(bin), func(t *testing.T) { helmBinary(t, bin) })
	}
}

func helmBinary(t *testing.T, helm string) {
	dirs := map[naming.Caller]string{}
	for _, caller := range naming.Callers() {
		dirs[caller] = writeChartDir(t, caller)
	}
	var inputs []renderInput
	for _, s := range golden.All() {
		if s.Live.DataStoreName != "" || s.Live.StorageClassName != nil {
			continue // helm template has no cluster to look up
		}
		inputs = append(inputs, renderInput{caller: s.Caller, release: s.Release, namespace: s.Namespace, values: []byte(s.Values), apiVersions: s.APIVersions})
	}
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 40; i++ {
		in := renderInput{namespace: randomTenant(r)}
		var v map[string]any
		if i%2 == 0 {
			in.caller, in.release, v = "etcd", "etcd", randomEtcdValues(r)
		} else {
			in.caller, in.release, v = "cluster", randomRelease(r), randomClusterValues(r)
			in.apiVersions = []string{"autoscaling.k8s.io/v1/VerticalPodAutoscaler"}
		}
		raw, err := yaml.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		in.values = raw
		inputs = append(inputs, in)
	}
	for i, in := range inputs {
		t.Run(fmt.Sprintf("%s-%02d", in.caller, i), func(t *testing.T) {
			values := filepath.Join(t.TempDir(), "values.yaml")
			if err := os.WriteFile(values, in.values, 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"template", in.release, dirs[in.caller], "--namespace", in.namespace, "-f", values}
			for _, a := range in.apiVersions {
				args = append(args, "--api-versions", a)
			}
			var stdout, stderr bytes.Buffer
			cmd := exec.Command(helm, args...)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			helmErr := cmd.Run()
			want, goErr := goRender(in)
			switch {
			case goErr != nil && helmErr != nil:
				if !bytes.Contains(stderr.Bytes(), []byte(firstMessage(goErr))) {
					checkSameRefusal(t, goErr, fmt.Errorf("%s", stderr.String()))
				}
			case goErr != nil:
				t.Fatalf("the library refuses (%v) but helm renders", goErr)
			case helmErr != nil:
				t.Fatalf("helm refuses: %v: %s", helmErr, stderr.String())
			default:
				compareDocs(t, want, stdout.String(), in.namespace)
			}
		})
	}
}
