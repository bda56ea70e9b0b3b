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

	Spec   DataStoreSpec    `json:"spec"`
	Status *DataStoreStatus `json:"status,omitempty"`
}

// DataStoreList is a list of DataStores.
//
// +kubebuilder:object:root=true
type DataStoreList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []DataStore `json:"items"`
}

// Driver is the kind of datastore.
type Driver string

const (
	DriverEtcd       Driver = "etcd"
	DriverMySQL      Driver = "MySQL"
	DriverPostgreSQL Driver = "PostgreSQL"
	DriverNATS       Driver = "NATS"
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
	Username ContentRef `json:"username"`
	Password ContentRef `json:"password"`
}

// TLSConfig holds the CA and the client certificate.
type TLSConfig struct {
	CertificateAuthority CertKeyPair  `json:"certificateAuthority"`
	ClientCertificate    *CertKeyPair `json:"clientCertificate,omitempty"`
}

// CertKeyPair is a certificate and its private key.
type CertKeyPair struct {
	Certificate ContentRef  `json:"certificate"`
	PrivateKey  *ContentRef `json:"privateKey,omitempty"`
}

// ContentRef is inline content or a key of a Secret.
type ContentRef struct {
	Content         []byte           `json:"content,omitempty"`
	SecretReference *SecretReference `json:"secretReference,omitempty"`
}

// SecretReference is a key of a Secret in a namespace.
type SecretReference struct {
	KeyPath   string `json:"keyPath"`
	Name      string `json:"name,omitempty"`
	Namespace string `json:"namespace,omitempty"`
}

// DataStoreStatus is the observed state of a DataStore.
type DataStoreStatus struct {
	Ready              bool               `json:"ready"`
	UsedBy             []string           `json:"usedBy,omitempty"`
	Conditions         []metav1.Condition `json:"conditions,omitempty"`
	ObservedGeneration int64              `json:"observedGeneration,omitempty"`
}
