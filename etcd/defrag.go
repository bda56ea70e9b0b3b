package etcd

import (
	"strconv"

	"github.com/etcdshapes/etcdshapes/naming"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Defrag settings.
const (
	DefragImage    = "ghcr.io/ahrtr/etcd-defrag:v0.13.0"
	DefragSchedule = "0 * * * *"
	// DefragRule defragments a member over 80% of its quota or with more
	// than 200 MiB of free pages.
	DefragRule = "dbQuotaUsage > 0.8 || dbSize - dbSizeInUse > 200*1024*1024"
	// AllowToEtcdClusterLabel opens the per-cluster CiliumNetworkPolicy to
	// a pod for the cluster it names.
	AllowToEtcdClusterLabel = "policy.cozystack.io/allow-to-etcd-cluster"

	clientCertDir    = "/etc/etcd/pki/client/cert"
	clientCertVolume = "client-certificate"
	defragUser       = int64(1001)
)

// DefragCronJob builds the hourly defrag CronJob. It reaches every member
// through the cluster Service with the client certificate and passes the
// real quota, because etcd-defrag's dbQuotaUsage assumes 2 GiB otherwise.
// Per-cluster pods carry the label that lets them through the cluster's
// network policy.
func DefragCronJob(n naming.Names, o Options) (*batchv1.CronJob, error) {
	return build(n, o, defragCronJob)
}

func defragCronJob(n naming.Names, r resolved) *batchv1.CronJob {
	var podMeta metav1.ObjectMeta
	if n.Caller == naming.CallerCluster {
		podMeta.Labels = map[string]string{AllowToEtcdClusterLabel: n.Cluster}
	}
	return cronJob(n.DefragCronJob(), n.Namespace, DefragSchedule, 1800, corev1.PodTemplateSpec{
		ObjectMeta: podMeta,
		Spec: corev1.PodSpec{
			SecurityContext: restrictedPod(defragUser, false, false),
			Containers: []corev1.Container{{
				Name:            "etcd-defrag",
				Image:           DefragImage,
				SecurityContext: restrictedContainer(),
				Resources:       jobResources(200, 256, 500, 512),
				Args: []string{
					"--endpoints=https://" + n.ClientEndpoint(),
					"--cacert=" + clientCertDir + "/ca.crt",
					"--cert=" + clientCertDir + "/tls.crt",
					"--key=" + clientCertDir + "/tls.key",
					"--cluster",
					"--compaction=false",
					"--etcd-storage-quota-bytes=" + strconv.FormatInt(r.quota, 10),
					"--defrag-rule",
					DefragRule,
				},
				VolumeMounts: []corev1.VolumeMount{{
					MountPath: clientCertDir,
					Name:      clientCertVolume,
					ReadOnly:  true,
				}},
			}},
			Volumes: []corev1.Volume{{
				Name:         clientCertVolume,
				VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: n.ClientSecret()}},
			}},
			RestartPolicy: corev1.RestartPolicyOnFailure,
		},
	})
}

// cronJob is a CronJob of the stacks over the pod template: one run at a
// time (a run that overlaps the last would work on the same members or
// slot), a run that could not start within five minutes skipped, three
// good runs and the last failed one kept to read, and two retries of a
// failed run, each of the runs bounded by activeDeadline seconds. The
// defrag and the snapshot schedule share these policies.
func cronJob(name, namespace, schedule string, activeDeadline int64, pod corev1.PodTemplateSpec) *batchv1.CronJob {
	return &batchv1.CronJob{
		TypeMeta:   metav1.TypeMeta{APIVersion: "batch/v1", Kind: "CronJob"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace},
		Spec: batchv1.CronJobSpec{
			Schedule:                   schedule,
			ConcurrencyPolicy:          batchv1.ForbidConcurrent,
			StartingDeadlineSeconds:    ptr(int64(300)),
			SuccessfulJobsHistoryLimit: ptr(int32(3)),
			FailedJobsHistoryLimit:     ptr(int32(1)),
			JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{
				ActiveDeadlineSeconds: ptr(activeDeadline),
				BackoffLimit:          ptr(int32(2)),
				Template:              pod,
			}},
		},
	}
}
