package v2

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// CiliumNetworkPolicy is a Cilium network policy in one namespace.
//
// +kubebuilder:object:root=true
type CiliumNetworkPolicy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec  *Rule  `json:"spec,omitempty"`
	Specs []Rule `json:"specs,omitempty"`
}

// CiliumNetworkPolicyList is a list of CiliumNetworkPolicies.
//
// +kubebuilder:object:root=true
type CiliumNetworkPolicyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []CiliumNetworkPolicy `json:"items"`
}

// Rule selects endpoints and says what may reach them and what they may reach.
type Rule struct {
	Description       string                `json:"description,omitempty"`
	EndpointSelector  *metav1.LabelSelector `json:"endpointSelector,omitempty"`
	NodeSelector      *metav1.LabelSelector `json:"nodeSelector,omitempty"`
	Ingress           []IngressRule         `json:"ingress,omitempty"`
	IngressDeny       []IngressRule         `json:"ingressDeny,omitempty"`
	Egress            []EgressRule          `json:"egress,omitempty"`
	EgressDeny        []EgressRule          `json:"egressDeny,omitempty"`
	EnableDefaultDeny *DefaultDeny          `json:"enableDefaultDeny,omitempty"`
}

// IngressRule allows or denies traffic from peers to ports.
type IngressRule struct {
	FromEndpoints []metav1.LabelSelector `json:"fromEndpoints,omitempty"`
	FromEntities  []string               `json:"fromEntities,omitempty"`
	FromCIDR      []string               `json:"fromCIDR,omitempty"`
	ToPorts       []PortRule             `json:"toPorts,omitempty"`
}

// EgressRule allows or denies traffic to peers and ports.
type EgressRule struct {
	ToEndpoints []metav1.LabelSelector `json:"toEndpoints,omitempty"`
	ToEntities  []string               `json:"toEntities,omitempty"`
	ToCIDR      []string               `json:"toCIDR,omitempty"`
	ToPorts     []PortRule             `json:"toPorts,omitempty"`
}

// PortRule is a set of ports.
type PortRule struct {
	Ports []PortProtocol `json:"ports,omitempty"`
}

// PortProtocol is a port (a number or a name, as a string) and a protocol.
type PortProtocol struct {
	Port     string `json:"port,omitempty"`
	EndPort  int32  `json:"endPort,omitempty"`
	Protocol string `json:"protocol,omitempty"`
}

// DefaultDeny says whether selecting an endpoint denies other traffic.
type DefaultDeny struct {
	Ingress *bool `json:"ingress,omitempty"`
	Egress  *bool `json:"egress,omitempty"`
}
