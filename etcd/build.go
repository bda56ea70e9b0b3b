package etcd

import (
	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/manifest"
	"github.com/etcdshapes/etcdshapes/naming"
	batchv1 "k8s.io/api/batch/v1"
	vpav1 "k8s.io/autoscaler/vertical-pod-autoscaler/pkg/apis/autoscaling.k8s.io/v1"
)

// Shapes are the etcd package's objects of one cluster.
type Shapes struct {
	// Cluster is the EtcdCluster (Cluster).
	Cluster *v1alpha2.EtcdCluster
	// Defrag is the defrag CronJob (DefragCronJob).
	Defrag *batchv1.CronJob
	// VPA is the members' VerticalPodAutoscaler (VerticalPodAutoscaler).
	VPA *vpav1.VerticalPodAutoscaler
}

// Objects lists the EtcdCluster, the defrag CronJob and the VPA.
func (s Shapes) Objects() []manifest.Object {
	return []manifest.Object{s.Cluster, s.Defrag, s.VPA}
}

// Build returns the EtcdCluster, the defrag CronJob and the
// VerticalPodAutoscaler, validating and defaulting the options once for
// all of them (what Cluster, DefragCronJob and VerticalPodAutoscaler each
// do on their own). A stack that renders no VPA (its API is not served)
// leaves Shapes.VPA out.
func Build(n naming.Names, o Options) (Shapes, error) {
	return BuildAt(n, o, GoPaths(nil))
}

// BuildAt is Build with the options validated under the caller's paths
// (see Paths), so that a refusal names the field as the caller wrote it.
func BuildAt(n naming.Names, o Options, p Paths) (Shapes, error) {
	r, err := resolveFor(n, o, p.complete())
	if err != nil {
		return Shapes{}, err
	}
	s := Shapes{Cluster: cluster(n, r), Defrag: defragCronJob(n, r)}
	if s.VPA, err = verticalPodAutoscaler(n, r.ratios); err != nil {
		return Shapes{}, err
	}
	return s, nil
}

// resolveFor checks the names and validates and defaults the options: the
// first step of every builder that takes both. Both are refused together
// (see invalid.List), the names first, so that each builder reports the
// same first error.
func resolveFor(n naming.Names, o Options, p Paths) (resolved, error) {
	var errs invalid.Collector
	namesOK := !errs.Add(n.Validate())
	r, err := o.resolve(p)
	errs.Add(err)
	secret := p.AuthRootCredentialsSecret.String()
	if namesOK && r.Auth.validate(secret) == nil {
		// A rule of the options against the names, once both are valid.
		errs.Add(r.Auth.validateNames(secret, n))
	}
	return r, errs.Err()
}

// build is a builder of one object: resolveFor, then f.
func build[T any](n naming.Names, o Options, f func(naming.Names, resolved) T) (T, error) {
	r, err := resolveFor(n, o, GoPaths(nil))
	if err != nil {
		var zero T
		return zero, err
	}
	return f(n, r), nil
}
