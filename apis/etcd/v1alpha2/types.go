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

	// Spec is the desired state of the cluster.
	Spec EtcdClusterSpec `json:"spec"`
	// Status is the observed state of the cluster, written by etcd-operator;
	// nil until it first reconciles.
	Status *EtcdClusterStatus `json:"status,omitempty"`
}

// EtcdClusterList is a list of EtcdClusters.
//
// +kubebuilder:object:root=true
type EtcdClusterList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	// Items are the EtcdClusters in the list.
	Items []EtcdCluster `json:"items"`
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
	// AutoCompactionPeriodic makes AutoCompactionRetention a duration ("5m",
	// "1h"; a bare integer means hours); it is etcd's default mode.
	AutoCompactionPeriodic AutoCompactionMode = "periodic"
	// AutoCompactionRevision makes AutoCompactionRetention a number of
	// revisions to keep.
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
	// Labels are merged onto every object the operator creates for the cluster;
	// the operator's own label keys win on collision.
	Labels map[string]string `json:"labels,omitempty"`
	// Annotations are merged onto every object the operator creates for the
	// cluster; annotations the operator sets win on collision.
	Annotations map[string]string `json:"annotations,omitempty"`
}

// TLSSpec configures client and peer TLS.
type TLSSpec struct {
	// Client configures TLS for the client API (port 2379); nil means
	// plaintext.
	Client *ClientTLS `json:"client,omitempty"`
	// Peer configures mutual TLS for the peer API (port 2380); nil means
	// plaintext.
	Peer *PeerTLS `json:"peer,omitempty"`
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
	// ServerIssuerRef is the issuer that signs the etcd server certificate,
	// stored in the Secret "<cluster>-server-tls".
	ServerIssuerRef IssuerRef `json:"serverIssuerRef"`
	// OperatorClientIssuerRef is the issuer that signs the operator's client
	// certificate, stored in the Secret "<cluster>-operator-client-tls".
	// Setting it turns client mTLS on; nil means server TLS only.
	OperatorClientIssuerRef *IssuerRef `json:"operatorClientIssuerRef,omitempty"`
}

// PeerTLS sets exactly one of SecretRef or CertManager.
type PeerTLS struct {
	// SecretRef names a kubernetes.io/tls Secret (tls.crt, tls.key and ca.crt)
	// holding the peer certificate, which serves and dials, so it must carry
	// both the serverAuth and clientAuth usages.
	SecretRef *corev1.LocalObjectReference `json:"secretRef,omitempty"`
	// CertManager lets the operator request the peer certificate itself.
	CertManager *PeerCertManager `json:"certManager,omitempty"`
}

// PeerCertManager names the issuer of the peer certificate.
type PeerCertManager struct {
	// IssuerRef is the issuer that signs the peer certificate, stored in the
	// Secret "<cluster>-peer-tls".
	IssuerRef IssuerRef `json:"issuerRef"`
}

// IssuerRef references a cert-manager Issuer or ClusterIssuer.
type IssuerRef struct {
	// Name is the name of the Issuer or ClusterIssuer.
	Name string `json:"name"`
	// Kind is Issuer (default) or ClusterIssuer.
	Kind string `json:"kind,omitempty"`
}

// AuthSpec enables etcd's own authentication.
type AuthSpec struct {
	// Enabled turns etcd authentication on once the cluster has a healthy
	// quorum (see EtcdClusterStatus.AuthEnabled). It requires TLSSpec.Client
	// and cannot be changed after creation.
	Enabled bool `json:"enabled,omitempty"`
	// RootCredentialsSecretRef names a kubernetes.io/basic-auth Secret in the
	// cluster's namespace whose password key becomes the etcd root user's
	// password; its username key is for consumers such as a Kamaji DataStore.
	// Required when Enabled is true.
	RootCredentialsSecretRef *corev1.LocalObjectReference `json:"rootCredentialsSecretRef,omitempty"`
}

// BootstrapSpec seeds a new cluster.
type BootstrapSpec struct {
	// Restore seeds the new cluster from an existing snapshot instead of an
	// empty data directory; nil means an empty bootstrap.
	Restore *RestoreSpec `json:"restore,omitempty"`
}

// RestoreSpec restores a new cluster from a snapshot.
type RestoreSpec struct {
	// Source is where the snapshot is read from, in the same shape as an
	// EtcdSnapshot's destination.
	Source SnapshotLocation `json:"source"`
}

// SnapshotLocation sets exactly one of S3 or PVC.
type SnapshotLocation struct {
	// S3 is an object in an S3-compatible store.
	S3 *S3Location `json:"s3,omitempty"`
	// PVC is a path on a PersistentVolumeClaim.
	PVC *PVCLocation `json:"pvc,omitempty"`
}

// S3Location is an object in an S3-compatible bucket.
type S3Location struct {
	// Endpoint is the S3 endpoint URL, e.g. "https://s3.amazonaws.com" or a
	// MinIO or Ceph endpoint.
	Endpoint string `json:"endpoint"`
	// Bucket is the bucket name.
	Bucket string `json:"bucket"`
	// Key is an optional object-key prefix within the bucket; the operator
	// appends "<snapshot-name>.db".
	Key string `json:"key,omitempty"`
	// Region is the S3 region; optional for endpoints that ignore it.
	Region string `json:"region,omitempty"`
	// ForcePathStyle puts the bucket in the path rather than the host name, as
	// MinIO and Ceph usually require.
	ForcePathStyle bool `json:"forcePathStyle,omitempty"`
	// CredentialsSecretRef names a Secret in the cluster's namespace holding
	// the keys AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.
	CredentialsSecretRef corev1.LocalObjectReference `json:"credentialsSecretRef"`
}

// PVCLocation is a path on a PersistentVolumeClaim.
type PVCLocation struct {
	// ClaimName is the name of a PersistentVolumeClaim in the cluster's
	// namespace.
	ClaimName string `json:"claimName"`
	// SubPath is an optional directory within the volume.
	SubPath string `json:"subPath,omitempty"`
}

// EtcdClusterStatus is the observed state of an EtcdCluster.
type EtcdClusterStatus struct {
	// Conditions are the latest observations of the cluster's state.
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// ReadyMembers is the number of healthy, serving members; the /scale
	// subresource reports it as the current replicas.
	ReadyMembers int32 `json:"readyMembers,omitempty"`
	// BrokenMembers is the number of members the operator considers broken.
	BrokenMembers int32 `json:"brokenMembers,omitempty"`
	// Selector is the label selector, as a string, matching every member pod;
	// the /scale subresource exposes it, which is how a VerticalPodAutoscaler
	// finds the pods.
	Selector string `json:"selector,omitempty"`
	// ClusterID is the etcd cluster ID in hex, set after the first bootstrap; a
	// string because the uint64 may exceed JSON's safe integer range.
	ClusterID string `json:"clusterID,omitempty"`
	// ClusterToken is the --initial-cluster-token recorded at bootstrap and
	// reused for every later scale-up.
	ClusterToken string `json:"clusterToken,omitempty"`
	// AuthEnabled becomes true once the operator has run "auth enable" on the
	// cluster and is never cleared.
	AuthEnabled bool `json:"authEnabled,omitempty"`
	// ProgressDeadline is when the operator abandons the in-flight target for
	// the latest spec; it is cleared once the cluster reaches Observed, and
	// patching it into the past aborts a stuck reconcile.
	ProgressDeadline *metav1.Time `json:"progressDeadline,omitempty"`
	// Observed is the target the operator is reconciling toward. Spec changes
	// are taken into it only when the current target is met or its deadline has
	// passed; nil before the first reconcile.
	Observed *ObservedSpec `json:"observed,omitempty"`
}

// ObservedSpec is the part of the spec the operator last acted on.
type ObservedSpec struct {
	// Version is the target etcd version.
	Version string `json:"version"`
	// Replicas is the target number of members.
	Replicas int32 `json:"replicas"`
	// Storage is the target data volume.
	Storage StorageSpec `json:"storage"`
	// Options are the target etcd server flags, applied to members created from
	// now on.
	Options *EtcdOptions `json:"options,omitempty"`
	// Resources are the target resources of the etcd container.
	Resources *corev1.ResourceRequirements `json:"resources,omitempty"`
	// AdditionalMetadata is the target extra labels and annotations of the
	// objects created for the cluster.
	AdditionalMetadata *AdditionalMetadata `json:"additionalMetadata,omitempty"`
	// TopologySpreadConstraints are the target spread constraints of the member
	// pods.
	TopologySpreadConstraints []corev1.TopologySpreadConstraint `json:"topologySpreadConstraints,omitempty"`
	// Affinity is the target affinity of the member pods.
	Affinity *corev1.Affinity `json:"affinity,omitempty"`
	// ImagePullSecrets are the target image pull secrets of the member pods.
	ImagePullSecrets []corev1.LocalObjectReference `json:"imagePullSecrets,omitempty"`
}

// EtcdSnapshot is a one-off snapshot of an EtcdCluster.
//
// +kubebuilder:object:root=true
type EtcdSnapshot struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is the desired state of the snapshot: which cluster and where to.
	// Snapshots are immutable; take another one to change the destination.
	Spec EtcdSnapshotSpec `json:"spec"`
	// Status is the observed state of the snapshot, written by etcd-operator;
	// nil until it first reconciles.
	Status *EtcdSnapshotStatus `json:"status,omitempty"`
}

// EtcdSnapshotList is a list of EtcdSnapshots.
//
// +kubebuilder:object:root=true
type EtcdSnapshotList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	// Items are the EtcdSnapshots in the list.
	Items []EtcdSnapshot `json:"items"`
}

// EtcdSnapshotSpec names the cluster and where the snapshot goes.
type EtcdSnapshotSpec struct {
	// ClusterRef names the EtcdCluster, in the same namespace, to snapshot.
	ClusterRef corev1.LocalObjectReference `json:"clusterRef"`
	// Destination is where the snapshot is stored.
	Destination SnapshotLocation `json:"destination"`
}

// The phases of an EtcdSnapshot, as etcd-operator writes them
// (api/v1alpha2/etcdsnapshot_types.go, EtcdSnapshotStatusPhase).
const (
	// SnapshotPhasePending: before the snapshot Job is created.
	SnapshotPhasePending = "Pending"
	// SnapshotPhaseStarted: the snapshot Job runs.
	SnapshotPhaseStarted = "Started"
	// SnapshotPhaseComplete: the snapshot was taken and stored; the only
	// phase whose Ready condition is True, and the only one with an
	// Artifact.
	SnapshotPhaseComplete = "Complete"
	// SnapshotPhaseFailed: the snapshot failed.
	SnapshotPhaseFailed = "Failed"
)

// EtcdSnapshotStatus is the observed state of an EtcdSnapshot.
type EtcdSnapshotStatus struct {
	// Phase is the high-level lifecycle phase of the snapshot (the
	// SnapshotPhase constants).
	Phase string `json:"phase,omitempty"`
	// Conditions are the latest observations of the snapshot's state.
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// Artifact describes the snapshot once it has completed; nil before.
	Artifact *SnapshotArtifact `json:"artifact,omitempty"`
}

// SnapshotArtifact describes a finished snapshot.
type SnapshotArtifact struct {
	// URI is the full location of the snapshot, e.g. "s3://bucket/key.db" or
	// "file:///snapshot/data/name.db".
	URI string `json:"uri"`
	// Checksum is "<algorithm>:<hex>", e.g. "sha256:abc123...".
	Checksum string `json:"checksum,omitempty"`
	// SizeBytes is the size of the snapshot in bytes.
	SizeBytes int64 `json:"sizeBytes,omitempty"`
}
