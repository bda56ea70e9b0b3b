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

	// Spec is the policy's rule; set Spec, Specs or both.
	Spec *Rule `json:"spec,omitempty"`
	// Specs are further rules of the policy.
	Specs []Rule `json:"specs,omitempty"`
}

// CiliumNetworkPolicyList is a list of CiliumNetworkPolicies.
//
// +kubebuilder:object:root=true
type CiliumNetworkPolicyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	// Items are the CiliumNetworkPolicies in the list.
	Items []CiliumNetworkPolicy `json:"items"`
}

// Rule selects endpoints and says what may reach them and what they may reach.
type Rule struct {
	// Description is a free-form explanation of the rule's purpose for humans;
	// it does not identify the rule.
	Description string `json:"description,omitempty"`
	// EndpointSelector selects the endpoints (pods) the rule applies to.
	// Exactly one of EndpointSelector and NodeSelector is set.
	EndpointSelector *metav1.LabelSelector `json:"endpointSelector,omitempty"`
	// NodeSelector selects the nodes the rule applies to; only
	// CiliumClusterwideNetworkPolicies may use it.
	NodeSelector *metav1.LabelSelector `json:"nodeSelector,omitempty"`
	// Ingress are the rules that allow incoming traffic; empty means the rule
	// does not apply at ingress.
	Ingress []IngressRule `json:"ingress,omitempty"`
	// IngressDeny are the rules that deny incoming traffic, whatever Ingress
	// allows.
	IngressDeny []IngressRule `json:"ingressDeny,omitempty"`
	// Egress are the rules that allow outgoing traffic; empty means the rule
	// does not apply at egress.
	Egress []EgressRule `json:"egress,omitempty"`
	// EgressDeny are the rules that deny outgoing traffic, whatever Egress
	// allows.
	EgressDeny []EgressRule `json:"egressDeny,omitempty"`
	// EnableDefaultDeny says whether the selected endpoints drop the traffic no
	// policy allows. Nil means default deny in each direction that has rules
	// and none in the other.
	EnableDefaultDeny *DefaultDeny `json:"enableDefaultDeny,omitempty"`
}

// IngressRule allows or denies traffic from peers to ports.
type IngressRule struct {
	// FromEndpoints selects the endpoints traffic may come from. Nil is a
	// wildcard when ToPorts is set; an empty non-nil list selects nothing.
	FromEndpoints []metav1.LabelSelector `json:"fromEndpoints,omitempty"`
	// FromEntities are special peers traffic may come from, e.g. "world",
	// "cluster", "host", "remote-node", "kube-apiserver" or "all".
	FromEntities []string `json:"fromEntities,omitempty"`
	// FromCIDR are IP blocks outside the cluster traffic may come from;
	// in-cluster peers are matched by FromEndpoints instead.
	FromCIDR []string `json:"fromCIDR,omitempty"`
	// ToPorts restricts the traffic to these destination ports of the selected
	// endpoints; empty means any port.
	ToPorts []PortRule `json:"toPorts,omitempty"`
}

// EgressRule allows or denies traffic to peers and ports.
type EgressRule struct {
	// ToEndpoints selects the endpoints traffic may go to. Nil is a wildcard
	// when ToPorts is set; an empty non-nil list selects nothing.
	ToEndpoints []metav1.LabelSelector `json:"toEndpoints,omitempty"`
	// ToEntities are special peers traffic may go to, e.g. "world", "cluster",
	// "host", "remote-node", "kube-apiserver" or "all".
	ToEntities []string `json:"toEntities,omitempty"`
	// ToCIDR are IP blocks outside the cluster traffic may go to; in-cluster
	// peers are matched by ToEndpoints instead.
	ToCIDR []string `json:"toCIDR,omitempty"`
	// ToPorts restricts the traffic to these destination ports; empty means any
	// port.
	ToPorts []PortRule `json:"toPorts,omitempty"`
}

// PortRule is a set of ports.
type PortRule struct {
	// Ports are the L4 ports and protocols.
	Ports []PortProtocol `json:"ports,omitempty"`
}

// PortProtocol is a port (a number or a name, as a string) and a protocol.
type PortProtocol struct {
	// Port is an L4 port number or a port name such as "http", as a string.
	Port string `json:"port,omitempty"`
	// EndPort, when set, makes the rule match the port range from Port to
	// EndPort; it can only be a number.
	EndPort int32 `json:"endPort,omitempty"`
	// Protocol is the L4 protocol, e.g. "TCP", "UDP", "SCTP"; empty or "ANY"
	// matches any of them.
	Protocol string `json:"protocol,omitempty"`
}

// DefaultDeny says whether selecting an endpoint denies other traffic.
type DefaultDeny struct {
	// Ingress says whether incoming traffic no policy allows is dropped.
	Ingress *bool `json:"ingress,omitempty"`
	// Egress says whether outgoing traffic no policy allows is dropped.
	Egress *bool `json:"egress,omitempty"`
}
