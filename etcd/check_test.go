package etcd_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/distribution/reference"
	"github.com/etcdshapes/etcdshapes/invalid"

	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/stacknames"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/testdata/crdcheck"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
)

// maxClusterRelease is a tenant cluster whose etcd name has the longest
// length allowed (56).
const maxClusterRelease = "kubernetes-production-cluster-eu-west-1-abcdefghijk"

var checkCases = []snapshotCase{
	{"check-etcd", func(t *testing.T) []runtime.Object {
		j, err := etcd.CheckJob(etcdNames(t), etcd.Options{}, etcd.CheckOptions{})
		require.NoError(t, err)
		return []runtime.Object{j}
	}},
	{"check-etcd-version-size", func(t *testing.T) []runtime.Object {
		j, err := etcd.CheckJob(etcdNames(t), etcd.Options{Version: "3.5.21", Size: resource.MustParse("10Gi")}, etcd.CheckOptions{Load: "l", Datascale: true})
		require.NoError(t, err)
		return []runtime.Object{j}
	}},
	{"check-cluster-datascale", func(t *testing.T) []runtime.Object {
		j, err := etcd.CheckJob(clusterNames(t, "kubernetes-demo"), etcd.Options{}, etcd.CheckOptions{Load: "m", Datascale: true})
		require.NoError(t, err)
		return []runtime.Object{j}
	}},
	{"check-cluster-maxname", func(t *testing.T) []runtime.Object {
		j, err := etcd.CheckJob(clusterNames(t, maxClusterRelease), etcd.Options{}, etcd.CheckOptions{Load: "xl"})
		require.NoError(t, err)
		return []runtime.Object{j}
	}},
}

// The check Jobs are pinned byte for byte in testdata (go test ./etcd
// -update rewrites them).
func TestCheckGolden(t *testing.T) {
	requireGolden(t, checkCases)
}

// checkNames are the stacks of every golden scenario: both callers, names
// and namespaces at their limits.
func checkNames(t *testing.T) []naming.Names {
	seen := map[string]bool{}
	var out []naming.Names
	for _, s := range golden.All() {
		n, err := stacknames.Of(s.Caller, s.Namespace, s.Release)
		require.NoError(t, err, s.Name)
		if !seen[n.Namespace+"/"+n.Cluster] {
			seen[n.Namespace+"/"+n.Cluster] = true
			out = append(out, n)
		}
	}
	require.GreaterOrEqual(t, len(out), 5)
	return out
}

// Every check Job, for every golden stack and every load the default quota
// takes, with and without datascale, passes the API server's rules for
// Jobs (crdcheck) and Pod Security "restricted".
func TestCheckJobsValidateAndAreRestricted(t *testing.T) {
	var c *crdcheck.Checker
	if len(crdcheck.Dirs()) > 0 {
		c = crdcheck.ForTest(t)
	}
	checked := 0
	for _, n := range checkNames(t) {
		for _, load := range []string{"s", "m", "l", "xl"} {
			for _, datascale := range []bool{false, true} {
				j, err := etcd.CheckJob(n, etcd.Options{}, etcd.CheckOptions{Load: load, Datascale: datascale})
				if load == "xl" && datascale {
					require.Error(t, err) // past half the default quota
					continue
				}
				require.NoError(t, err)
				if c != nil {
					require.NoError(t, c.ValidateObject(j), "%s %s", n.Cluster, load)
				}
				pts := crdcheck.PodTemplates(j)
				require.Len(t, pts, 1)
				require.NoError(t, crdcheck.Restricted(pts[0]))
				checked++
			}
		}
	}
	t.Logf("%d check Jobs", checked)
}

// The check needs nothing from the Kubernetes API: no ServiceAccount of
// its own, no token, no RBAC. It reaches etcd as the defrag CronJob does,
// and a tenant cluster's pod carries the network policy label.
func TestCheckJobLeastPrivilege(t *testing.T) {
	for _, n := range checkNames(t) {
		j, err := etcd.CheckJob(n, etcd.Options{}, etcd.CheckOptions{Datascale: true})
		require.NoError(t, err)
		defrag, err := etcd.DefragCronJob(n, etcd.Options{})
		require.NoError(t, err)
		pod := j.Spec.Template.Spec
		assert.Empty(t, pod.ServiceAccountName)
		require.NotNil(t, pod.AutomountServiceAccountToken)
		assert.False(t, *pod.AutomountServiceAccountToken)
		assert.Equal(t, defrag.Spec.JobTemplate.Spec.Template.Labels, j.Spec.Template.Labels, "the defrag's network policy label")
		if n.Caller == naming.CallerCluster {
			assert.Equal(t, map[string]string{etcd.AllowToEtcdClusterLabel: n.Cluster}, j.Spec.Template.Labels)
		} else {
			assert.Empty(t, j.Spec.Template.Labels)
		}
		// No label the VMPodScrape, PodMonitor or WorkloadMonitor select.
		assert.NotContains(t, j.Spec.Template.Labels, etcd.InstanceLabel)
		defragPod := defrag.Spec.JobTemplate.Spec.Template.Spec
		assert.Equal(t, defragPod.Volumes, pod.Volumes, "the client certificate")
		all := append(append([]string{}, argsOf(pod.InitContainers)...), argsOf(pod.Containers)...)
		for _, a := range defragPod.Containers[0].Args {
			if strings.HasPrefix(a, "--endpoints=") || strings.HasPrefix(a, "--cacert=") || strings.HasPrefix(a, "--cert=") || strings.HasPrefix(a, "--key=") {
				assert.Contains(t, all, a)
			}
		}
		assert.Equal(t, n.CheckJob(), j.Name)
		assert.LessOrEqual(t, len(j.Name), naming.MaxJobName)
		assert.Equal(t, int32(0), *j.Spec.BackoffLimit, "a failed check is not retried")
		assert.Equal(t, int32(etcd.CheckTTLSeconds), *j.Spec.TTLSecondsAfterFinished)
	}
}

func argsOf(cs []corev1.Container) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.Args...)
	}
	return out
}

// Datascale runs after perf, in the same pod: perf as the init container,
// so a failed perf stops the pod. The image is the cluster version's.
func TestCheckJobContainers(t *testing.T) {
	n := clusterNames(t, "kubernetes-demo")
	perf, err := etcd.CheckJob(n, etcd.Options{Version: "3.6.4"}, etcd.CheckOptions{})
	require.NoError(t, err)
	require.Len(t, perf.Spec.Template.Spec.Containers, 1)
	assert.Empty(t, perf.Spec.Template.Spec.InitContainers)
	c := perf.Spec.Template.Spec.Containers[0]
	assert.Equal(t, etcd.EtcdImageRepository+":v3.6.4", c.Image)
	assert.Equal(t, []string{"check", "perf", "--load=s"}, c.Args[:3])

	both, err := etcd.CheckJob(n, etcd.Options{Version: "3.6.4"}, etcd.CheckOptions{Load: "m", Datascale: true})
	require.NoError(t, err)
	pod := both.Spec.Template.Spec
	require.Len(t, pod.InitContainers, 1)
	require.Len(t, pod.Containers, 1)
	assert.Equal(t, []string{"check", "perf", "--load=m"}, pod.InitContainers[0].Args[:3])
	assert.Equal(t, []string{"check", "datascale", "--load=m"}, pod.Containers[0].Args[:3])

	// A registry of one's own.
	own, err := etcd.CheckJob(n, etcd.Options{}, etcd.CheckOptions{Datascale: true, Image: "registry.example.com/etcd:v3.6.11@sha256:" + strings.Repeat("0", 64)})
	require.NoError(t, err)
	for _, c := range append(own.Spec.Template.Spec.InitContainers, own.Spec.Template.Spec.Containers...) {
		assert.Equal(t, "registry.example.com/etcd:v3.6.11@sha256:"+strings.Repeat("0", 64), c.Image)
	}
}

// A load is refused exactly when what it writes exceeds half the quota
// (etcd.QuotaBackendBytes of the size), for every load, with and without
// datascale, at sizes around each bound.
func TestCheckLoadsAgainstQuota(t *testing.T) {
	n := etcdNames(t)
	s, err := etcd.CheckWriteBytes(etcd.CheckOptions{})
	require.NoError(t, err)
	assert.Equal(t, int64(150*60*(256+1024+len("/etcdctl-check-perf/"))), s)
	for _, load := range []string{"s", "m", "l", "xl"} {
		for _, datascale := range []bool{false, true} {
			o := etcd.CheckOptions{Load: load, Datascale: datascale}
			written, err := etcd.CheckWriteBytes(o)
			require.NoError(t, err)
			for _, size := range []string{"1Gi", "4Gi", "8Gi", "16Gi"} {
				q := resource.MustParse(size)
				sized, err := etcd.QuotaBackendBytes(q)
				require.NoError(t, err)
				// The running cluster's quota (0: the size's alone); the
				// guard takes the smaller of the two.
				for _, live := range []int64{0, 300_000_000, etcd.EtcdDefaultQuotaBackendBytes, 8 << 30} {
					quota := sized
					if live > 0 && live < quota {
						quota = live
					}
					o := o
					o.QuotaBackendBytes = live
					_, err = etcd.CheckJob(n, etcd.Options{Size: q}, o)
					if written > quota/2 {
						var ne *invalid.Error
						require.True(t, errors.As(err, &ne), "%s %v %s: %v", load, datascale, size, err)
						assert.Equal(t, "Load", ne.Field)
						assert.Equal(t, load, ne.Value)
						assert.Contains(t, ne.Rule, "half of the cluster's quota")
					} else {
						require.NoError(t, err, "%s %v %s %d", load, datascale, size, live)
					}
				}
			}
		}
	}
	// A negative quota is refused, by name.
	_, err = etcd.CheckJob(n, etcd.Options{}, etcd.CheckOptions{QuotaBackendBytes: -1})
	var ne *invalid.Error
	require.True(t, errors.As(err, &ne), "%v", err)
	assert.Equal(t, "QuotaBackendBytes", ne.Field)
	// The default: every load alone fits 4Gi; xl with datascale does not.
	for _, load := range []string{"s", "m", "l", "xl"} {
		_, err := etcd.CheckJob(n, etcd.Options{}, etcd.CheckOptions{Load: load})
		require.NoError(t, err, load)
	}
}

// TestCheckImageIsAReference: a check image the kubelet cannot parse
// (github.com/distribution/reference, as kubelet and containerd parse a
// Pod's image) is refused; what it parses is accepted.
func TestCheckImageIsAReference(t *testing.T) {
	n := etcdNames(t)
	digest := "@sha256:" + strings.Repeat("0", 64)
	for _, image := range []string{
		"etcd", "etcd:v3.6.11", "quay.io/coreos/etcd:v3.6.11", "localhost:5000/etcd:v3.6.11",
		"registry.example.com:443/team/etcd:v3.6.11" + digest, "registry.example.com/etcd" + digest,
		"[::1]:5000/etcd:v3.6.11", "etcd:" + strings.Repeat("t", 128), "a.b-c_d/e__f:V3_6-11.x",
	} {
		_, err := etcd.CheckJob(n, etcd.Options{}, etcd.CheckOptions{Image: image})
		assert.NoError(t, err, image)
	}
	for _, image := range []string{
		"Upper/etcd:v3.6.11", "a:b:c", "-etcd", "etcd-", "etcd:", ":v3.6.11", "etcd:-tag", "etcd:.tag",
		"etcd:" + strings.Repeat("t", 129), "etcd@sha256:abc", "etcd@md5:" + strings.Repeat("0", 32),
		strings.Repeat("0", 64), "etcd//x", "/etcd", "etcd/", "https://gcr.io/etcd", "gcr.io/etcd#v1",
		"gcr.io/ETCD:v3.6.11", "gcr.io/étcd:v3.6.11", "etcd:v3.6.11\u202e",
	} {
		_, err := etcd.CheckJob(n, etcd.Options{}, etcd.CheckOptions{Image: image})
		assertField(t, err, "Image")
		var bad *invalid.Error
		require.True(t, errors.As(err, &bad))
		if !strings.Contains(bad.Rule, "without whitespace") {
			assert.Contains(t, bad.Rule, "must be a container image reference as the kubelet parses it", image)
		}
		// The parser's reason never repeats the value, which the message
		// quotes (escaped and bounded) once.
		if _, reason, ok := strings.Cut(bad.Rule, "): "); ok {
			assert.NotContains(t, reason, image, image)
		}
	}
}

// TestEmittedImagesAreReferences: every image the builders write, in every
// golden file of this package and of the stacks, is one the kubelet parses.
func TestEmittedImagesAreReferences(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.yaml"))
	require.NoError(t, err)
	stacks, err := filepath.Glob(filepath.Join("..", "golden", "testdata", "*.yaml"))
	require.NoError(t, err)
	seen := map[string]bool{etcd.DefragImage: true, etcd.CleanupImage: true, etcd.EtcdImageRepository + ":v" + etcd.DefaultVersion: true}
	for _, f := range append(files, stacks...) {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, line := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), "image: "); ok {
				seen[v] = true
			}
		}
	}
	require.Greater(t, len(seen), 3)
	for image := range seen {
		_, err := reference.ParseNormalizedNamed(image)
		assert.NoError(t, err, image)
	}
}

// TestCheckVersionFloor: the check refuses an etcd older than
// MinCheckVersion (its etcdctl has no check command by default), at the
// version's field; MinCheckVersion and later pass.
func TestCheckVersionFloor(t *testing.T) {
	n := etcdNames(t)
	for _, v := range []string{"0.0.0", "2.3.8", "3.0.17", "3.3.27"} {
		_, err := etcd.CheckJob(n, etcd.Options{Version: v}, etcd.CheckOptions{})
		assertField(t, err, "Version")
		assert.ErrorContains(t, err, "must be "+etcd.MinCheckVersion+" or later")
	}
	for _, v := range []string{etcd.MinCheckVersion, "3.5.26", "3.6.11", "4.0.0"} {
		_, err := etcd.CheckJob(n, etcd.Options{Version: v}, etcd.CheckOptions{})
		assert.NoError(t, err, v)
	}
}
