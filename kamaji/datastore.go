package kamaji

import (
	"github.com/etcdshapes/etcdshapes/apis/kamaji/v1alpha1"
	"github.com/etcdshapes/etcdshapes/naming"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// ControlPlaneKind is the tenant cluster's control plane, Cluster API's
// Kamaji control-plane provider: the kubernetes chart names it after its
// release, and its spec.dataStoreName says which DataStore the tenant's
// API server uses (a live one other than the cluster's own keeps the
// cluster on it). The library reads it, never builds it.
var ControlPlaneKind = schema.GroupVersionKind{Group: "controlplane.cluster.x-k8s.io", Version: "v1alpha1", Kind: "KamajiControlPlane"}

// Keys of a kubernetes.io/tls Secret.
const (
	CertKey = "tls.crt"
	KeyKey  = "tls.key"
)

// DataStore builds the etcd DataStore for the cluster n names. Kamaji reads
// the client CA (certificate and key: it signs per-tenant etcd users) and
// the root client certificate from the cluster's namespace.
func DataStore(n naming.Names) (*v1alpha1.DataStore, error) {
	if err := n.Validate(); err != nil {
		return nil, err
	}
	pair := func(secret string) v1alpha1.CertKeyPair {
		return v1alpha1.CertKeyPair{
			Certificate: v1alpha1.ContentRef{SecretReference: &v1alpha1.SecretReference{KeyPath: CertKey, Name: secret, Namespace: n.Namespace}},
			PrivateKey:  &v1alpha1.ContentRef{SecretReference: &v1alpha1.SecretReference{KeyPath: KeyKey, Name: secret, Namespace: n.Namespace}},
		}
	}
	client := pair(n.ClientSecret())
	return &v1alpha1.DataStore{
		TypeMeta:   metav1.TypeMeta{APIVersion: v1alpha1.APIVersion, Kind: "DataStore"},
		ObjectMeta: metav1.ObjectMeta{Name: n.DataStore()},
		Spec: v1alpha1.DataStoreSpec{
			Driver:    v1alpha1.DriverEtcd,
			Endpoints: []string{n.ClientEndpoint()},
			TLSConfig: &v1alpha1.TLSConfig{
				CertificateAuthority: pair(n.CASecret()),
				ClientCertificate:    &client,
			},
		},
	}, nil
}
