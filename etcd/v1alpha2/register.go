package v1alpha2

import "github.com/etcdshapes/etcdshapes/internal/apigroup"

// GroupName is the API group of etcd-operator.
const GroupName = "etcd-operator.cozystack.io"

// APIVersion is the apiVersion of the types in this package.
const APIVersion = GroupName + "/v1alpha2"

// SchemeGroupVersion is the group and version of the types in this package,
// and SchemeBuilder registers them.
var SchemeGroupVersion, SchemeBuilder = apigroup.Version(GroupName, "v1alpha2",
	&EtcdCluster{}, &EtcdClusterList{},
	&EtcdSnapshot{}, &EtcdSnapshotList{},
)

// AddToScheme adds the types of this package to a scheme.
var AddToScheme = SchemeBuilder.AddToScheme
