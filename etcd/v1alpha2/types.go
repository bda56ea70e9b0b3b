package v1alpha2

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// EtcdCluster is an etcd cluster run by etcd-operator.
//
// The CRD forbids changing spec.tls, spec.storage.storageClassName and
// spec.storage.medium, and shrinking spec.storage.size, after creation.
//
// +kubebuilder:object:root=true
type EtcdCluster struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   EtcdClusterSpec    `json:"spec"`
	Status *EtcdClusterStatus `json:"status,omitempty"`
}

// EtcdClusterList is a list of EtcdClusters.
//
// +kubebuilder:object:root=true
type EtcdClusterList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []EtcdCluster `json:"items"`
}

// EtcdClusterSpec is the desired state of an EtcdCluster.
type EtcdClusterSpec struct {
	// Version is the etcd version, X.Y.Z.
	Version string `json:"version"`
	// Replicas is the number of members (default 3; 0 pauses the cluster).
	Replicas *int32 `json:"replicas,omitempty"`
	// Storage is the members' data volume.
	Storage *StorageSpec `json:"storage,omitempty"`
	// Options are etcd server flags.
	Options *EtcdOptions `json:"options,omitempty"`
	// Resources of the etcd container.
	Resources *corev1.ResourceRequirements `json:"resources,omitempty"`
	// AdditionalMetadata is copied onto the member pods.
	AdditionalMetadata *AdditionalMetadata `json:"additionalMetadata,omitempty"`
	// TLS configures client and peer TLS. Immutable.
	TLS *TLSSpec `json:"tls,omitempty"`
	// Auth enables etcd authentication.
	Auth *AuthSpec `json:"auth,omitempty"`
	// Bootstrap seeds a new cluster, e.g. from a snapshot.
	Bootstrap *BootstrapSpec `json:"bootstrap,omitempty"`
	// TopologySpreadConstraints of the member pods.
	TopologySpreadConstraints []corev1.TopologySpreadConstraint `json:"topologySpreadConstraints,omitempty"`
	// Affinity of the member pods.
	Affinity *corev1.Affinity `json:"affinity,omitempty"`
	// ImagePullSecrets of the member pods.
	ImagePullSecrets []corev1.LocalObjectReference `json:"imagePullSecrets,omitempty"`
	// ProgressDeadlineSeconds bounds a rollout step (default 600).
	ProgressDeadlineSeconds *int32 `json:"progressDeadlineSeconds,omitempty"`
}

// StorageMedium selects the volume backend of the members.
type StorageMedium string

const (
	// StorageMediumDefault is a PersistentVolumeClaim.
	StorageMediumDefault StorageMedium = ""
	// StorageMediumMemory is a memory-backed emptyDir.
	StorageMediumMemory StorageMedium = "Memory"
)

// StorageSpec is the members' data volume.
type StorageSpec struct {
	// Medium is immutable.
	Medium StorageMedium `json:"medium,omitempty"`
	// Size may grow but never shrink.
	Size resource.Quantity `json:"size,omitzero"`
	// StorageClassName is immutable; empty means the cluster default.
	StorageClassName string `json:"storageClassName,omitempty"`
}

// AutoCompactionMode is etcd's --auto-compaction-mode.
type AutoCompactionMode string

const (
	AutoCompactionPeriodic AutoCompactionMode = "periodic"
	AutoCompactionRevision AutoCompactionMode = "revision"
)

// EtcdOptions are etcd server flags.
type EtcdOptions struct {
	// QuotaBackendBytes is --quota-backend-bytes.
	QuotaBackendBytes *int64 `json:"quotaBackendBytes,omitempty"`
	// AutoCompactionMode is --auto-compaction-mode.
	AutoCompactionMode AutoCompactionMode `json:"autoCompactionMode,omitempty"`
	// AutoCompactionRetention is --auto-compaction-retention, e.g. "5m".
	AutoCompactionRetention string `json:"autoCompactionRetention,omitempty"`
	// SnapshotCount is --snapshot-count.
	SnapshotCount *int64 `json:"snapshotCount,omitempty"`
}

// AdditionalMetadata is copied onto the member pods.
type AdditionalMetadata struct {
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// TLSSpec configures client and peer TLS.
type TLSSpec struct {
	Client *ClientTLS `json:"client,omitempty"`
	Peer   *PeerTLS   `json:"peer,omitempty"`
}

// ClientTLS sets exactly one of ServerSecretRef or CertManager.
type ClientTLS struct {
	// ServerSecretRef names a kubernetes.io/tls Secret (with ca.crt) for the
	// client listener.
	ServerSecretRef *corev1.LocalObjectReference `json:"serverSecretRef,omitempty"`
	// OperatorClientSecretRef names the client certificate the operator
	// uses; setting it keeps --client-cert-auth on.
	OperatorClientSecretRef *corev1.LocalObjectReference `json:"operatorClientSecretRef,omitempty"`
	// CertManager lets the operator request the certificates itself.
	CertManager *ClientCertManager `json:"certManager,omitempty"`
}

// ClientCertManager names the issuers of the client-side certificates.
type ClientCertManager struct {
	ServerIssuerRef         IssuerRef  `json:"serverIssuerRef"`
	OperatorClientIssuerRef *IssuerRef `json:"operatorClientIssuerRef,omitempty"`
}

// PeerTLS sets exactly one of SecretRef or CertManager.
type PeerTLS struct {
	SecretRef   *corev1.LocalObjectReference `json:"secretRef,omitempty"`
	CertManager *PeerCertManager             `json:"certManager,omitempty"`
}

// PeerCertManager names the issuer of the peer certificate.
type PeerCertManager struct {
	IssuerRef IssuerRef `json:"issuerRef"`
}

// IssuerRef references a cert-manager Issuer or ClusterIssuer.
type IssuerRef struct {
	Name string `json:"name"`
	// Kind is Issuer (default) or ClusterIssuer.
	Kind string `json:"kind,omitempty"`
}

// AuthSpec enables etcd's own authentication.
type AuthSpec struct {
	Enabled                  bool                         `json:"enabled,omitempty"`
	RootCredentialsSecretRef *corev1.LocalObjectReference `json:"rootCredentialsSecretRef,omitempty"`
}

// BootstrapSpec seeds a new cluster.
type BootstrapSpec struct {
	Restore *RestoreSpec `json:"restore,omitempty"`
}

// RestoreSpec restores a new cluster from a snapshot.
type RestoreSpec struct {
	Source SnapshotLocation `json:"source"`
}

// SnapshotLocation sets exactly one of S3 or PVC.
type SnapshotLocation struct {
	S3  *S3Location  `json:"s3,omitempty"`
	PVC *PVCLocation `json:"pvc,omitempty"`
}

// S3Location is an object in an S3-compatible bucket.
type S3Location struct {
	Endpoint             string                      `json:"endpoint"`
	Bucket               string                      `json:"bucket"`
	Key                  string                      `json:"key,omitempty"`
	Region               string                      `json:"region,omitempty"`
	ForcePathStyle       bool                        `json:"forcePathStyle,omitempty"`
	CredentialsSecretRef corev1.LocalObjectReference `json:"credentialsSecretRef"`
}

// PVCLocation is a path on a PersistentVolumeClaim.
type PVCLocation struct {
	ClaimName string `json:"claimName"`
	SubPath   string `json:"subPath,omitempty"`
}

// EtcdClusterStatus is the observed state of an EtcdCluster.
type EtcdClusterStatus struct {
	Conditions       []metav1.Condition `json:"conditions,omitempty"`
	ReadyMembers     int32              `json:"readyMembers,omitempty"`
	BrokenMembers    int32              `json:"brokenMembers,omitempty"`
	Selector         string             `json:"selector,omitempty"`
	ClusterID        string             `json:"clusterID,omitempty"`
	ClusterToken     string             `json:"clusterToken,omitempty"`
	AuthEnabled      bool               `json:"authEnabled,omitempty"`
	ProgressDeadline *metav1.Time       `json:"progressDeadline,omitempty"`
	Observed         *ObservedSpec      `json:"observed,omitempty"`
}

// ObservedSpec is the part of the spec the operator last acted on.
type ObservedSpec struct {
	Version                   string                            `json:"version"`
	Replicas                  int32                             `json:"replicas"`
	Storage                   StorageSpec                       `json:"storage"`
	Options                   *EtcdOptions                      `json:"options,omitempty"`
	Resources                 *corev1.ResourceRequirements      `json:"resources,omitempty"`
	AdditionalMetadata        *AdditionalMetadata               `json:"additionalMetadata,omitempty"`
	TopologySpreadConstraints []corev1.TopologySpreadConstraint `json:"topologySpreadConstraints,omitempty"`
	Affinity                  *corev1.Affinity                  `json:"affinity,omitempty"`
	ImagePullSecrets          []corev1.LocalObjectReference     `json:"imagePullSecrets,omitempty"`
}

// EtcdSnapshot is a one-off snapshot of an EtcdCluster.
//
// +kubebuilder:object:root=true
type EtcdSnapshot struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   EtcdSnapshotSpec    `json:"spec"`
	Status *EtcdSnapshotStatus `json:"status,omitempty"`
}

// EtcdSnapshotList is a list of EtcdSnapshots.
//
// +kubebuilder:object:root=true
type EtcdSnapshotList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []EtcdSnapshot `json:"items"`
}

// EtcdSnapshotSpec names the cluster and where the snapshot goes.
type EtcdSnapshotSpec struct {
	ClusterRef  corev1.LocalObjectReference `json:"clusterRef"`
	Destination SnapshotLocation            `json:"destination"`
}

// EtcdSnapshotStatus is the observed state of an EtcdSnapshot.
type EtcdSnapshotStatus struct {
	Phase      string             `json:"phase,omitempty"`
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	Artifact   *SnapshotArtifact  `json:"artifact,omitempty"`
}

// SnapshotArtifact describes a finished snapshot.
type SnapshotArtifact struct {
	URI       string `json:"uri"`
	Checksum  string `json:"checksum,omitempty"`
	SizeBytes int64  `json:"sizeBytes,omitempty"`
}
