package works

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	cmv1 "github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1"
	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	kamajiv1alpha1 "github.com/etcdshapes/etcdshapes/apis/kamaji/v1alpha1"
	"github.com/etcdshapes/etcdshapes/apis/victoriametrics/v1beta1"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/etcdshapes/etcdshapes/naming"
	monv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
)

// stack is one golden scenario's rendered objects, by kind, as the
// consumers find them: every wiring the tests follow starts from these
// objects' own fields, never from a naming formula.
type stack struct {
	scenario  golden.Scenario
	namespace string

	issuers      []*cmv1.Issuer
	certificates []*cmv1.Certificate
	cluster      *v1alpha2.EtcdCluster
	dataStore    *kamajiv1alpha1.DataStore
	defrag       *batchv1.CronJob
	// check is the performance check Job the library builds for the
	// stack (etcd.CheckJob; not part of the stack, rendered on demand).
	check *batchv1.Job
	// services are the Services the stack renders (the etcd chart's
	// legacy headless Service).
	services    []*corev1.Service
	podScrape   *v1beta1.VMPodScrape
	podMonitor  *monv1.PodMonitor
	rule        *monv1.PrometheusRule
	objectCount int
}

// render builds s's stack; ok is false where the stack renders no etcd
// (a tenant cluster that stays on another datastore).
func render(t testing.TB, s golden.Scenario) (st *stack, ok bool) {
	t.Helper()
	objs, err := s.Render()
	if err != nil {
		t.Fatalf("%s: render: %v", s.Name, err)
	}
	st = &stack{scenario: s, namespace: s.Namespace, objectCount: len(objs)}
	for _, o := range objs {
		switch o := o.(type) {
		case *cmv1.Issuer:
			st.issuers = append(st.issuers, o)
		case *cmv1.Certificate:
			st.certificates = append(st.certificates, o)
		case *v1alpha2.EtcdCluster:
			st.cluster = o
		case *kamajiv1alpha1.DataStore:
			st.dataStore = o
		case *batchv1.CronJob:
			st.defrag = o
		case *corev1.Service:
			st.services = append(st.services, o)
		case *v1beta1.VMPodScrape:
			st.podScrape = o
		case *monv1.PodMonitor:
			st.podMonitor = o
		case *monv1.PrometheusRule:
			st.rule = o
		}
	}
	if st.cluster == nil {
		return st, false
	}
	n, err := scenarioNames(s)
	if err != nil {
		t.Fatalf("%s: names: %v", s.Name, err)
	}
	st.check, err = etcd.CheckJob(n, etcd.Options{}, etcd.CheckOptions{})
	if err != nil {
		t.Fatalf("%s: check Job: %v", s.Name, err)
	}
	return st, true
}

// names are the scenario's names, for the builders outside the stack
// (the check Job).
func scenarioNames(s golden.Scenario) (naming.Names, error) {
	if s.Caller == naming.CallerEtcd {
		return naming.ForEtcdChart(s.Namespace, s.Release)
	}
	return naming.ForCluster(s.Namespace, s.Release)
}

// deepCopy copies every object, for a mutation.
func (s *stack) deepCopy() *stack {
	c := *s
	c.issuers = nil
	for _, o := range s.issuers {
		c.issuers = append(c.issuers, o.DeepCopy())
	}
	c.certificates = nil
	for _, o := range s.certificates {
		c.certificates = append(c.certificates, o.DeepCopy())
	}
	c.cluster = s.cluster.DeepCopy()
	c.dataStore = s.dataStore.DeepCopy()
	c.defrag = s.defrag.DeepCopy()
	c.check = s.check.DeepCopy()
	c.services = nil
	for _, o := range s.services {
		c.services = append(c.services, o.DeepCopy())
	}
	if s.podScrape != nil {
		c.podScrape = s.podScrape.DeepCopy()
	}
	if s.podMonitor != nil {
		c.podMonitor = s.podMonitor.DeepCopy()
	}
	if s.rule != nil {
		c.rule = s.rule.DeepCopy()
	}
	return &c
}

// certificateBySecret is the rendered Certificate that writes secret.
func (s *stack) certificateBySecret(secret string) (*cmv1.Certificate, error) {
	var found []*cmv1.Certificate
	for _, c := range s.certificates {
		if c.Spec.SecretName == secret {
			found = append(found, c)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return nil, fmt.Errorf("no rendered Certificate writes Secret %q", secret)
	default:
		return nil, fmt.Errorf("%d rendered Certificates write Secret %q", len(found), secret)
	}
}

// certificate is the rendered Certificate named name (for mutations).
func (s *stack) certificate(name string) *cmv1.Certificate {
	for _, c := range s.certificates {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// endpointHost is the host of an etcd endpoint as etcdctl, etcd-defrag and
// Kamaji read it: "https://host:2379" or "host:2379".
func endpointHost(endpoint string) (string, error) {
	e := strings.TrimPrefix(endpoint, "https://")
	if e == endpoint && strings.Contains(endpoint, "://") {
		return "", fmt.Errorf("endpoint %q is not https", endpoint)
	}
	host, port, ok := strings.Cut(e, ":")
	if !ok || port != "2379" || host == "" {
		return "", fmt.Errorf("endpoint %q is not host:2379", endpoint)
	}
	return host, nil
}

// argValue is the value of --flag=value in args.
func argValue(args []string, flag string) (string, bool) {
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, flag+"="); ok {
			return v, true
		}
	}
	return "", false
}

// sortedKeys are m's keys, sorted.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
