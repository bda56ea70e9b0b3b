package etcd

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Paths name each of the options in its caller's terms, so that a refusal
// names the field the caller wrote: a Go caller's field names (GoPaths:
// "Size", "Resources[cpu]", "Ratios.CPU"), a chart's value keys
// ("values.size", "values.resources.cpu", "_cluster.cpu-allocation-ratio",
// see package values). The options are validated once, under the paths
// their caller passes (Paths.Validate, BuildAt); a nil path is the Go
// field's.
type Paths struct {
	// Version, Replicas, Size and StorageClassName are the Options
	// fields of those names.
	Version, Replicas, Size, StorageClassName *field.Path
	// Resources is the resources map; a resource is its child
	// (Resources.Child(name)) when ResourceNamesAsChildren, as a values
	// key "values.resources.cpu" is, else its key ("Resources[cpu]").
	Resources *field.Path
	// ResourceNamesAsChildren names a resource as a child of Resources
	// (see Resources).
	ResourceNamesAsChildren bool
	// RatioCPU, RatioMemory and RatioEphemeralStorage are Ratios' fields.
	RatioCPU, RatioMemory, RatioEphemeralStorage *field.Path
	// Affinity is the affinity; its fields are its children, named as
	// the Pod API names them.
	Affinity *field.Path
	// TopologySpreadConstraints is the list; a constraint is its Index.
	TopologySpreadConstraints *field.Path
	// ServiceLabel is the member pods' service label.
	ServiceLabel *field.Path
	// AuthRootCredentialsSecret is Auth.RootCredentialsSecret.
	AuthRootCredentialsSecret *field.Path
}

// GoPaths are the options' Go field names under root ("Size" for a nil
// root, "Etcd.Size" under field.NewPath("Etcd")).
func GoPaths(root *field.Path) Paths {
	at := func(name string, more ...string) *field.Path {
		if root == nil {
			return field.NewPath(name, more...)
		}
		return root.Child(name, more...)
	}
	return Paths{
		Version:                   at("Version"),
		Replicas:                  at("Replicas"),
		Size:                      at("Size"),
		StorageClassName:          at("StorageClassName"),
		Resources:                 at("Resources"),
		RatioCPU:                  at("Ratios", "CPU"),
		RatioMemory:               at("Ratios", "Memory"),
		RatioEphemeralStorage:     at("Ratios", "EphemeralStorage"),
		Affinity:                  at("Affinity"),
		TopologySpreadConstraints: at("TopologySpreadConstraints"),
		ServiceLabel:              at("ServiceLabel"),
		AuthRootCredentialsSecret: at("Auth", "RootCredentialsSecret"),
	}
}

// complete is p with each nil path its Go field's.
func (p Paths) complete() Paths {
	g := GoPaths(nil)
	for _, f := range []struct{ dst, def **field.Path }{
		{&p.Version, &g.Version}, {&p.Replicas, &g.Replicas}, {&p.Size, &g.Size},
		{&p.StorageClassName, &g.StorageClassName}, {&p.Resources, &g.Resources},
		{&p.RatioCPU, &g.RatioCPU}, {&p.RatioMemory, &g.RatioMemory}, {&p.RatioEphemeralStorage, &g.RatioEphemeralStorage},
		{&p.Affinity, &g.Affinity}, {&p.TopologySpreadConstraints, &g.TopologySpreadConstraints},
		{&p.ServiceLabel, &g.ServiceLabel}, {&p.AuthRootCredentialsSecret, &g.AuthRootCredentialsSecret},
	} {
		if *f.dst == nil {
			*f.dst = *f.def
		}
	}
	return p
}

// resource is the path of one resource of the resources map.
func (p Paths) resource(name string) string {
	if p.ResourceNamesAsChildren {
		return p.Resources.Child(name).String()
	}
	return p.Resources.Key(name).String()
}

// Validate reports every option that breaks a rule, named by p: nil, the
// one *invalid.Error, or an invalid.List in the order the checks ran (the
// first is what the chart prints). Options.Validate is GoPaths(nil).Validate.
func (p Paths) Validate(o Options) error {
	_, err := o.resolve(p.complete())
	return err
}

// ValidateVersion is ValidateVersion with the version named p.Version.
func (p Paths) ValidateVersion(v string) error {
	return validateVersion(p.complete().Version.String(), v)
}

// ValidateSize refuses a data volume size QuotaBackendBytes refuses,
// named p.Size.
func (p Paths) ValidateSize(size resource.Quantity) error {
	_, err := quotaBackendBytes(p.complete().Size.String(), size)
	return err
}

// ValidateContainerResource is ValidateContainerResource with the limit
// named as p names a resource of p.Resources.
func (p Paths) ValidateContainerResource(name corev1.ResourceName, q resource.Quantity) error {
	return validateContainerResource(p.complete().resource(string(name)), name, q)
}

// ValidateMemoryLimit is ValidateMemoryLimit with the limit named as p
// names the memory resource of p.Resources.
func (p Paths) ValidateMemoryLimit(q resource.Quantity) error {
	return validateMemoryLimit(p.complete().resource(string(corev1.ResourceMemory)), q)
}

// ValidateRatios is Ratios.Validate with each ratio named by p.
func (p Paths) ValidateRatios(r Ratios) error {
	_, err := r.parse(p.complete())
	return err
}

// ValidateSpreadConstraints is ValidateSpreadConstraints with the list
// named p.TopologySpreadConstraints.
func (p Paths) ValidateSpreadConstraints(list []corev1.TopologySpreadConstraint) error {
	return validateSpreadConstraints(p.complete().TopologySpreadConstraints, list)
}
