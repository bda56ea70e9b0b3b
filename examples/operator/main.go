package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/etcdshapes/etcdshapes"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

// Name is the operator's name: its controller, event source and
// leader-election lock.
const Name = "etcdshapes-example-operator"

func main() {
	var (
		chartVersion string
		leaderElect  bool
		metricsAddr  string
	)
	flag.StringVar(&chartVersion, "chart-version", "0.0.0", "the kubernetes chart version the stacks report (WorkloadMonitor spec.version)")
	flag.BoolVar(&leaderElect, "leader-elect", false, "run one active replica at a time")
	flag.StringVar(&metricsAddr, "metrics-bind-address", "0", `metrics address ("0" disables)`)
	opts := zap.Options{}
	opts.BindFlags(flag.CommandLine)
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&opts)))

	if err := run(chartVersion, leaderElect, metricsAddr); err != nil {
		fmt.Fprintln(os.Stderr, Name+":", err)
		os.Exit(1)
	}
}

func run(chartVersion string, leaderElect bool, metricsAddr string) error {
	cfg, err := ctrl.GetConfig()
	if err != nil {
		return err
	}
	mgr, err := NewManager(cfg, ctrl.Options{
		Metrics:          metricsserver.Options{BindAddress: metricsAddr},
		LeaderElection:   leaderElect,
		LeaderElectionID: Name,
	}, chartVersion)
	if err != nil {
		return err
	}
	return mgr.Start(ctrl.SetupSignalHandler())
}

// Scheme knows the core kinds and every kind the library renders.
func Scheme() (*runtime.Scheme, error) {
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		return nil, err
	}
	if err := etcdshapes.AddToScheme(s); err != nil {
		return nil, err
	}
	return s, nil
}

// NewManager builds a manager running the Reconciler. Its cache holds only
// the selected ConfigMaps; live objects are read without a cache.
func NewManager(cfg *rest.Config, o ctrl.Options, chartVersion string) (ctrl.Manager, error) {
	s, err := Scheme()
	if err != nil {
		return nil, err
	}
	o.Scheme = s
	o.Cache.ByObject = map[client.Object]cache.ByObject{
		&corev1.ConfigMap{}: {Label: labels.SelectorFromSet(labels.Set{StackLabel: StackLabelValue})},
	}
	mgr, err := ctrl.NewManager(cfg, o)
	if err != nil {
		return nil, err
	}
	r := &Reconciler{
		Client:       mgr.GetClient(),
		Reader:       mgr.GetAPIReader(),
		Mapper:       mgr.GetRESTMapper(),
		Recorder:     mgr.GetEventRecorder(Name),
		ChartVersion: chartVersion,
	}
	if err := r.SetupWithManager(mgr); err != nil {
		return nil, err
	}
	return mgr, nil
}
