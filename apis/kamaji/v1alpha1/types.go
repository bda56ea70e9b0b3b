package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// DataStore is a datastore Kamaji tenant control planes keep their state in.
// It is cluster-scoped.
//
// +kubebuilder:object:root=true
type DataStore struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the desired state of the datastore: how Kamaji connects to it.
	Spec DataStoreSpec `json:"spec"`
	// Status is the observed state of the datastore, written by Kamaji; nil
	// until it first reconciles.
	Status *DataStoreStatus `json:"status,omitempty"`
}

// DataStoreList is a list of DataStores.
//
// +kubebuilder:object:root=true
type DataStoreList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	// Items are the DataStores in the list.
	Items []DataStore `json:"items"`
}

// Driver is the kind of datastore.
type Driver string

const (
	// DriverEtcd is an etcd cluster; the only driver this library emits.
	DriverEtcd Driver = "etcd"
	// DriverMySQL is a MySQL server, reached through kine.
	DriverMySQL Driver = "MySQL"
	// DriverPostgreSQL is a PostgreSQL server, reached through kine.
	DriverPostgreSQL Driver = "PostgreSQL"
	// DriverNATS is a NATS server, reached through kine.
	DriverNATS Driver = "NATS"
)

// DataStoreSpec is how Kamaji reaches the datastore.
type DataStoreSpec struct {
	// Driver is immutable.
	Driver Driver `json:"driver"`
	// Endpoints are host:port pairs.
	Endpoints []string `json:"endpoints"`
	// BasicAuth is for SQL drivers.
	BasicAuth *BasicAuth `json:"basicAuth,omitempty"`
	// TLSConfig holds the CA and the client certificate.
	TLSConfig *TLSConfig `json:"tlsConfig,omitempty"`
}

// BasicAuth is a user name and password.
type BasicAuth struct {
	// Username is the user name, inline or from a Secret.
	Username ContentRef `json:"username"`
	// Password is the password, inline or from a Secret.
	Password ContentRef `json:"password"`
}

// TLSConfig holds the CA and the client certificate.
type TLSConfig struct {
	// CertificateAuthority is the CA that signs the datastore's certificates.
	// For etcd its private key is required, because Kamaji signs the client
	// certificates of the tenant control planes with it.
	CertificateAuthority CertKeyPair `json:"certificateAuthority"`
	// ClientCertificate is the certificate and private key Kamaji presents to
	// the datastore.
	ClientCertificate *CertKeyPair `json:"clientCertificate,omitempty"`
}

// CertKeyPair is a certificate and its private key.
type CertKeyPair struct {
	// Certificate is the PEM certificate.
	Certificate ContentRef `json:"certificate"`
	// PrivateKey is the PEM private key of Certificate.
	PrivateKey *ContentRef `json:"privateKey,omitempty"`
}

// ContentRef is inline content or a key of a Secret.
type ContentRef struct {
	// Content is the value itself (base64 in JSON); it takes precedence over
	// SecretReference.
	Content []byte `json:"content,omitempty"`
	// SecretReference is the key of a Secret that holds the value.
	SecretReference *SecretReference `json:"secretReference,omitempty"`
}

// SecretReference is a key of a Secret in a namespace.
type SecretReference struct {
	// KeyPath is the key within the Secret's data that holds the value;
	// required.
	KeyPath string `json:"keyPath"`
	// Name is the Secret's name.
	Name string `json:"name,omitempty"`
	// Namespace is the Secret's namespace.
	Namespace string `json:"namespace,omitempty"`
}

// DataStoreStatus is the observed state of a DataStore.
type DataStoreStatus struct {
	// Ready is true once Kamaji has accepted the datastore and its certificates
	// are available or correctly referenced.
	Ready bool `json:"ready"`
	// UsedBy lists the tenant control planes, as "namespace/name", that use the
	// datastore.
	UsedBy []string `json:"usedBy,omitempty"`
	// Conditions are the results of Kamaji's validation of the datastore.
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// ObservedGeneration is the metadata.generation Kamaji last reconciled.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
}
