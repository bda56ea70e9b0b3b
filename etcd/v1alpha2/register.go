package v1alpha2

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/etcdshapes/etcdshapes/internal/apigroup"
)

// GroupName is the API group of etcd-operator.
const GroupName = "etcd-operator.cozystack.io"

// APIVersion is the apiVersion of the types in this package.
const APIVersion = GroupName + "/v1alpha2"

// SchemeGroupVersion is the group and version of the types in this package.
var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1alpha2"}

// SchemeBuilder registers the types of this package.
var SchemeBuilder = apigroup.Builder(SchemeGroupVersion,
	&EtcdCluster{}, &EtcdClusterList{},
	&EtcdSnapshot{}, &EtcdSnapshotList{},
)

// AddToScheme adds the types of this package to a scheme.
var AddToScheme = SchemeBuilder.AddToScheme
