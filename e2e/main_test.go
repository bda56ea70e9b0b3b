//go:build apiserver

package e2e

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	cmv1 "github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1"
	"github.com/etcdshapes/etcdshapes"
	ciliumv2 "github.com/etcdshapes/etcdshapes/apis/cilium/v2"
	cozyv1alpha1 "github.com/etcdshapes/etcdshapes/apis/cozystack/v1alpha1"
	etcdv1alpha2 "github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	grafanav1beta1 "github.com/etcdshapes/etcdshapes/apis/grafana/v1beta1"
	kamajiv1alpha1 "github.com/etcdshapes/etcdshapes/apis/kamaji/v1alpha1"
	vmv1beta1 "github.com/etcdshapes/etcdshapes/apis/victoriametrics/v1beta1"
	"github.com/etcdshapes/etcdshapes/internal/crdpath"
	monv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	vpav1 "k8s.io/autoscaler/vertical-pod-autoscaler/pkg/apis/autoscaling.k8s.io/v1"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/yaml"
)

// strict makes the server refuse unknown and duplicate fields instead of
// dropping them with a warning: a field the library prints but the schema
// lacks would otherwise vanish silently.
const strict = client.FieldValidation(metav1.FieldValidationStrict)

var (
	// k is the client of the test API server, set up by TestMain.
	k client.Client
	// restConfig is its configuration (for discovery).
	restConfig *rest.Config
	// scheme knows every kind the library renders.
	scheme = runtime.NewScheme()
	// warnings collects the API server's warnings, reported at the end.
	warnings = &warningRecorder{}
	// tally counts the golden objects for the closing line.
	tally struct {
		sync.Mutex
		accepted, rejected int
		// upgradeAccepted counts per-cluster stacks upgraded with the
		// live state; bypassRejected the updates without it that the
		// server refused.
		upgradeAccepted, bypassRejected int
	}
)

func addToScheme(s *runtime.Scheme) error {
	for _, add := range []func(*runtime.Scheme) error{
		clientgoscheme.AddToScheme,
		cmv1.AddToScheme,
		vpav1.AddToScheme,
		monv1.AddToScheme,
		etcdv1alpha2.AddToScheme,
		kamajiv1alpha1.AddToScheme,
		cozyv1alpha1.AddToScheme,
		vmv1beta1.AddToScheme,
		grafanav1beta1.AddToScheme,
		ciliumv2.AddToScheme,
	} {
		if err := add(s); err != nil {
			return err
		}
	}
	return nil
}

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	env, err := start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "apiserver:", err)
		return 1
	}
	code := m.Run()
	if err := env.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "apiserver: stopping the control plane:", err)
		if code == 0 {
			code = 1
		}
	}
	for _, w := range warnings.list() {
		fmt.Println("apiserver: warning:", w)
	}
	for _, l := range summaries.list() {
		fmt.Println("apiserver:", l)
	}
	tally.Lock()
	defer tally.Unlock()
	if tally.accepted+tally.rejected == 0 && code == 0 {
		fmt.Println("apiserver: no object was sent (run without -test.run?)")
		code = 1
	}
	fmt.Printf("apiserver: upgrades with live state accepted: %d; updates bypassing it rejected: %d\n", tally.upgradeAccepted, tally.bypassRejected)
	fmt.Printf("apiserver: %d objects accepted, %d rejected\n", tally.accepted, tally.rejected)
	if tally.rejected > 0 && code == 0 {
		code = 1
	}
	return code
}

// start runs kube-apiserver and etcd from $KUBEBUILDER_ASSETS and installs
// the CRDs from the directories $ETCDSHAPES_CRDS lists.
func start() (*envtest.Environment, error) {
	if err := addToScheme(scheme); err != nil {
		return nil, err
	}
	// ETCDSHAPES_CRDS lists directories like PATH (internal/crdpath).
	crds := crdpath.Dirs(os.Getenv(crdpath.EnvVar), "")
	if len(crds) == 0 {
		return nil, errors.New(crdpath.EnvVar + " is not set. " + crdpath.What)
	}
	if err := crdpath.Check(crds, true); err != nil {
		return nil, err
	}
	for i, d := range crds {
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, err
		}
		crds[i] = abs
	}
	assets := os.Getenv("KUBEBUILDER_ASSETS")
	if assets == "" {
		return nil, errors.New("KUBEBUILDER_ASSETS is not set; run `make test-apiserver`, which builds kube-apiserver and etcd into ./bin")
	}
	for _, b := range []string{"kube-apiserver", "etcd"} {
		if _, err := os.Stat(filepath.Join(assets, b)); err != nil {
			return nil, fmt.Errorf("%s not found in KUBEBUILDER_ASSETS: %w", b, err)
		}
	}
	env := &envtest.Environment{
		Scheme:                   scheme,
		CRDDirectoryPaths:        crds,
		ErrorIfCRDPathMissing:    true,
		ControlPlaneStartTimeout: 2 * time.Minute,
		ControlPlaneStopTimeout:  time.Minute,
	}
	cfg, err := env.Start()
	if err != nil {
		// Start may have started etcd before failing.
		_ = env.Stop()
		return nil, fmt.Errorf("starting kube-apiserver and etcd: %w", err)
	}
	cfg = rest.CopyConfig(cfg)
	cfg.WarningHandlerWithContext = warnings
	if k, err = client.New(cfg, client.Options{Scheme: scheme}); err != nil {
		_ = env.Stop()
		return nil, err
	}
	restConfig = cfg
	fmt.Printf("apiserver: kube-apiserver at %s, %d CRDs installed from %s\n", cfg.Host, len(env.CRDs), strings.Join(crds, string(os.PathListSeparator)))
	return env, nil
}

// warningRecorder keeps every distinct warning the server sends.
type warningRecorder struct {
	mu   sync.Mutex
	seen map[string]bool
}

func (w *warningRecorder) HandleWarningHeaderWithContext(_ context.Context, code int, _ string, message string) {
	if code != 299 || message == "" {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.seen == nil {
		w.seen = map[string]bool{}
	}
	w.seen[message] = true
}

func (w *warningRecorder) list() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]string, 0, len(w.seen))
	for m := range w.seen {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

// ensureNamespace creates a namespace for real: dry-run creates of
// namespaced objects need it to exist.
func ensureNamespace(ctx context.Context, name string) error {
	if name == "" {
		return nil
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if err := k.Create(ctx, ns); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating namespace %s: %w", name, err)
	}
	return nil
}

// mustRender is etcdshapes.Render of r; an error fails the test.
func mustRender(t *testing.T, r etcdshapes.Request) []etcdshapes.Object {
	t.Helper()
	objs, err := etcdshapes.Render(r)
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

// asUnstructured is the object as the CLI prints it (etcdshapes.MarshalObject),
// which is what Helm or kubectl would send.
func asUnstructured(o etcdshapes.Object) (*unstructured.Unstructured, error) {
	doc, err := etcdshapes.MarshalObject(o)
	if err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{}
	if err := yaml.Unmarshal(doc, &u.Object); err != nil {
		return nil, fmt.Errorf("reading back the printed %s: %w", describe(o), err)
	}
	return u, nil
}

// describe names an object in messages: Kind namespace/name.
func describe(o etcdshapes.Object) string {
	kind := o.GetObjectKind().GroupVersionKind().Kind
	if kind == "" {
		kind = fmt.Sprintf("%T", o)
	}
	if o.GetNamespace() == "" {
		return kind + " " + o.GetName()
	}
	return kind + " " + o.GetNamespace() + "/" + o.GetName()
}

// isHook reports whether Helm creates the object only as a hook (never on
// upgrade: before-hook-creation deletes and recreates it).
func isHook(o metav1.Object) bool {
	_, ok := o.GetAnnotations()["helm.sh/hook"]
	return ok
}

// oneLine keeps an API error on one line for the summary.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}
