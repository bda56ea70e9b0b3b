package etcd

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// The pods of the defrag CronJob, the cleanup hook and the snapshot
// schedule share one shape: the Pod Security Standards' restricted level,
// a non-root user, small fixed resources, and for the two kubectl pods a
// writable /tmp as $HOME on a read-only root filesystem.

// restrictedPod is a restricted-level pod security context running as user;
// group also sets the primary group, fsGroup the volumes' group.
func restrictedPod(user int64, group, fsGroup bool) *corev1.PodSecurityContext {
	sc := &corev1.PodSecurityContext{
		RunAsNonRoot:   ptr(true),
		RunAsUser:      ptr(user),
		SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
	}
	if group {
		sc.RunAsGroup = ptr(user)
	}
	if fsGroup {
		sc.FSGroup = ptr(user)
	}
	return sc
}

// restrictedContainer is the container security context of the Pod
// Security Standards' restricted level.
func restrictedContainer() *corev1.SecurityContext {
	return &corev1.SecurityContext{
		AllowPrivilegeEscalation: ptr(false),
		ReadOnlyRootFilesystem:   ptr(true),
		Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
	}
}

// jobResources are a job container's requests and limits, cpu in
// millicores and memory in MiB. The quantities are built, not parsed: the
// builders are on a hot path, and they print as "200m" and "256Mi" alike.
func jobResources(requestMilliCPU, requestMiB, limitMilliCPU, limitMiB int64) corev1.ResourceRequirements {
	return corev1.ResourceRequirements{
		Requests: corev1.ResourceList{
			corev1.ResourceCPU:    *resource.NewMilliQuantity(requestMilliCPU, resource.DecimalSI),
			corev1.ResourceMemory: *resource.NewQuantity(requestMiB<<20, resource.BinarySI),
		},
		Limits: corev1.ResourceList{
			corev1.ResourceCPU:    *resource.NewMilliQuantity(limitMilliCPU, resource.DecimalSI),
			corev1.ResourceMemory: *resource.NewQuantity(limitMiB<<20, resource.BinarySI),
		},
	}
}

// kubectlPodSpec is the pod of the cleanup hook and the snapshot schedule:
// one kubectl container under serviceAccount, run once as nobody. kubectl
// writes its cache under $HOME, so $HOME is an emptyDir at /tmp; env
// follows HOME.
func kubectlPodSpec(serviceAccount, container string, command []string, env []corev1.EnvVar, fsGroup bool) corev1.PodSpec {
	return corev1.PodSpec{
		ServiceAccountName: serviceAccount,
		RestartPolicy:      corev1.RestartPolicyNever,
		SecurityContext:    restrictedPod(nobody, true, fsGroup),
		Volumes:            []corev1.Volume{{Name: "tmp", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}},
		Containers: []corev1.Container{{
			Name:            container,
			Image:           CleanupImage,
			Command:         command,
			Env:             append([]corev1.EnvVar{{Name: "HOME", Value: "/tmp"}}, env...),
			SecurityContext: restrictedContainer(),
			VolumeMounts:    []corev1.VolumeMount{{Name: "tmp", MountPath: "/tmp"}},
			Resources:       jobResources(10, 64, 200, 128),
		}},
	}
}
