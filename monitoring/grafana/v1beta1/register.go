package v1beta1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/etcdshapes/etcdshapes/internal/apigroup"
)

// GroupName is the API group of the types in this package.
const GroupName = "grafana.integreatly.org"

// APIVersion is the apiVersion of the types in this package.
const APIVersion = GroupName + "/v1beta1"

// SchemeGroupVersion is the group and version of the types in this package.
var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1beta1"}

// SchemeBuilder registers the types of this package.
var SchemeBuilder = apigroup.Builder(SchemeGroupVersion, &GrafanaDashboard{}, &GrafanaDashboardList{})

// AddToScheme adds the types of this package to a scheme.
var AddToScheme = SchemeBuilder.AddToScheme
