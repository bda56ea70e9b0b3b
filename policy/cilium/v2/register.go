package v2

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/etcdshapes/etcdshapes/internal/apigroup"
)

// GroupName is the API group of the types in this package.
const GroupName = "cilium.io"

// APIVersion is the apiVersion of the types in this package.
const APIVersion = GroupName + "/v2"

// SchemeGroupVersion is the group and version of the types in this package.
var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v2"}

// SchemeBuilder registers the types of this package.
var SchemeBuilder = apigroup.Builder(SchemeGroupVersion, &CiliumNetworkPolicy{}, &CiliumNetworkPolicyList{})

// AddToScheme adds the types of this package to a scheme.
var AddToScheme = SchemeBuilder.AddToScheme
