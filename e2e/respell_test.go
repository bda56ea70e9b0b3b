//go:build apiserver

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestQuantityRespellingAgainstServer: what the API server does when an
// apply sends a quantity the live object spells another way with the same
// value (a Helm install's "0.1", "1000m", "4096Mi" against the library's
// "100m", "1", "4Gi"), and that the plan says so. Each object is applied
// as FieldManager, then "helm" updates it with the other spellings (as
// helm upgrade does, an Update), then the plan of the render against the
// object read back is compared with a forced apply of the render: for a
// custom resource (the EtcdCluster, the VPA) the server stores the
// spelling it is sent, so the apply writes the object (a new
// resourceVersion, metadata.generation + 1) and the plan must be an update
// noting the respelled quantities; for a built-in kind (the defrag
// CronJob) the server stores the canonical form either way, so the apply
// writes nothing and the plan must be unchanged.
func TestQuantityRespellingAgainstServer(t *testing.T) {
	ctx := context.Background()
	const ns, release = "tenant-respell", "kubernetes-respell"
	if err := ensureNamespace(ctx, ns); err != nil {
		t.Fatal(err)
	}
	objs := mustRender(t, etcdshapes.Request{Caller: naming.CallerCluster, Namespace: ns, Release: release, ChartVersion: "1.2.3", APIVersions: golden.AllAPIs})
	reqs, err := apply.Requests(objs)
	if err != nil {
		t.Fatal(err)
	}
	// respell changes a body to the other spellings; it reports how many
	// it changed.
	type respeller func(body map[string]any) int
	set := func(m map[string]any, key string, from, to any) int {
		if v, ok := m[key]; ok && v == from {
			m[key] = to
			return 1
		}
		return 0
	}
	cases := map[string]struct {
		respell respeller
		custom  bool
	}{
		"EtcdCluster": {func(b map[string]any) int {
			spec := b["spec"].(map[string]any)
			res := spec["resources"].(map[string]any)
			return set(res["requests"].(map[string]any), "cpu", "100m", "0.1") +
				set(res["limits"].(map[string]any), "cpu", "1", "1000m") +
				set(spec["storage"].(map[string]any), "size", "4Gi", "4096Mi")
		}, true},
		"VerticalPodAutoscaler": {func(b map[string]any) int {
			p := b["spec"].(map[string]any)["resourcePolicy"].(map[string]any)["containerPolicies"].([]any)[0].(map[string]any)
			return set(p["minAllowed"].(map[string]any), "cpu", "25m", "0.025")
		}, true},
		"CronJob": {func(b map[string]any) int {
			c := b["spec"].(map[string]any)["jobTemplate"].(map[string]any)["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)[0].(map[string]any)
			return set(c["resources"].(map[string]any)["requests"].(map[string]any), "cpu", "200m", "0.2")
		}, false},
	}
	ran := 0
	for _, r := range reqs {
		c, ok := cases[r.Object.GetKind()]
		if !ok {
			continue
		}
		ran++
		t.Run(refOf(r.Object), func(t *testing.T) {
			var body map[string]any
			if err := json.Unmarshal(r.Body, &body); err != nil {
				t.Fatal(err)
			}
			tmpl := agreeTemplate{ref: refOf(r.Object), body: body}
			if _, err := recreate(ctx, tmpl); err != nil {
				t.Fatal(err)
			}
			// helm upgrade: an Update with the other spellings.
			live, err := getLive(ctx, body)
			if err != nil {
				t.Fatal(err)
			}
			// canonical counts the fields of an object still spelled as
			// the render spells them.
			canonical := func(obj map[string]any) int { return c.respell(copyTree(obj)) }
			fields := canonical(body)
			if fields == 0 || c.respell(live) != fields {
				t.Fatalf("nothing to respell in %s", tmpl.ref)
			}
			if err := k.Update(ctx, &unstructured.Unstructured{Object: live}, client.FieldOwner(helm)); err != nil {
				t.Fatalf("helm's update: %v", err)
			}
			live, err = getLive(ctx, body)
			if err != nil {
				t.Fatal(err)
			}
			if n := canonical(live); c.custom && n != 0 {
				t.Fatalf("the server normalised %d of the %d spellings of a custom resource: %v", n, fields, live["spec"])
			} else if !c.custom && n != fields {
				t.Fatalf("the server kept %d of the %d other spellings of a built-in kind: %v", fields-n, fields, live["spec"])
			}
			before := &unstructured.Unstructured{Object: live}

			p, err := plan.Compute([]etcdshapes.Object{&unstructured.Unstructured{Object: copyTree(live)}}, []etcdshapes.Object{&unstructured.Unstructured{Object: copyTree(body)}})
			if err != nil {
				t.Fatal(err)
			}
			op := p.Objects[0]

			after := &unstructured.Unstructured{}
			if err := applyAs(ctx, apply.FieldManager, body, true, false, after); err != nil {
				t.Fatalf("the apply: %v", err)
			}
			wrote := after.GetResourceVersion() != before.GetResourceVersion()
			bumped := after.GetGeneration() - before.GetGeneration()
			t.Logf("%s: resourceVersion %s -> %s, generation %d -> %d; plan:\n%s", tmpl.ref,
				before.GetResourceVersion(), after.GetResourceVersion(), before.GetGeneration(), after.GetGeneration(), p)
			if c.custom != wrote {
				t.Errorf("custom resource %v, yet the apply wrote the object: %v", c.custom, wrote)
			}
			if !wrote {
				if op.Action != plan.Unchanged || !p.Empty() {
					t.Errorf("the apply wrote nothing; the plan:\n%s", p)
				}
				return
			}
			if bumped != 1 {
				t.Errorf("metadata.generation went up by %d, the note says by one", bumped)
			}
			if n := canonical(after.Object); n != fields {
				t.Errorf("the server stores %d of the %d spellings sent after the apply: %v", n, fields, after.Object["spec"])
			}
			if op.Action != plan.Update {
				t.Errorf("the apply wrote the object; the plan says %s:\n%s", op.Action, p)
			}
			notes := 0
			for _, f := range op.Findings {
				if f.Verdict == plan.Note && strings.Contains(f.Message, "spelled another way") && strings.Contains(f.Message, "metadata.generation goes up by one") {
					notes++
				}
			}
			// One per field; the VPA's are inside one atomic list.
			if want := map[string]int{"EtcdCluster": fields, "VerticalPodAutoscaler": 1}[r.Object.GetKind()]; notes != want {
				t.Errorf("%d respelling notes, want %d:\n%s", notes, want, p)
			}
			summaries.add("quantity respelling: %s: the apply wrote it (generation +%d), the plan: %s with %d notes", tmpl.ref, bumped, op.Action, notes)
		})
	}
	if ran != len(cases) {
		t.Fatalf("ran %d of the %d kinds: %v", ran, len(cases), fmt.Sprint(cases))
	}
}
