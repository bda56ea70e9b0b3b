package v1beta1

import "github.com/etcdshapes/etcdshapes/internal/apigroup"

// GroupName is the API group of the types in this package.
const GroupName = "grafana.integreatly.org"

// version is the API version of the types in this package within GroupName.
const version = "v1beta1"

// APIVersion is the apiVersion of the types in this package.
const APIVersion = GroupName + "/" + version

// SchemeGroupVersion is the group and version of the types in this package,
// and SchemeBuilder registers them.
var SchemeGroupVersion, SchemeBuilder = apigroup.Version(GroupName, version, &GrafanaDashboard{}, &GrafanaDashboardList{})

// AddToScheme adds the types of this package to a scheme.
var AddToScheme = SchemeBuilder.AddToScheme
