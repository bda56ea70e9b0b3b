package chartgen

// The reasons behind the shapes' non-obvious fields, written as template
// comments before the field (never into the rendered YAML), so that a
// chart maintainer reviewing a generated diff sees why a value is what it
// is. They carry the upstream templates' own comments (cozy-lib's
// _etcd.tpl, the etcd chart) and the deliberate differences of SPEC.md.
// Each must name a field the builders render; generation fails otherwise.
var reasons = map[string]map[string]string{
	"etcdCluster": {
		"spec.options.quotaBackendBytes": "95% of the volume: etcd raises its NOSPACE alarm " +
			"and stops taking writes at the quota, which must come before the volume itself is full. " +
			"The helpers compute it for every quantity unit (the upstream template knew only Ki, Mi and Gi).",
		"spec.storage.storageClassName": "spec.storage.storageClassName is immutable: for a tenant cluster, " +
			"the class of the live EtcdCluster (read with lookup) wins over _cluster.etcd-storage-class-*, " +
			"even an empty one, so an upgrade never changes it.",
		"spec.resources": "Requests derive from the limits and the platform's allocation ratios with " +
			"the upstream sanitiser's arithmetic (decimal division, then a float64), so that the quantities " +
			"stored are the upstream chart's and moving a release to these templates rolls no member.",
		"spec.tls": "TLS uses secretRef mode: the Certificates of this stack issue the server, " +
			"operator-client and peer certificates and the EtcdCluster only references their Secrets. " +
			"spec.tls is immutable (CRD rule self.tls == oldSelf.tls) and etcd-migrate adopts legacy clusters " +
			"into exactly this shape, so rendering certManager here would make the API server reject every " +
			"reconcile of a migrated cluster. operatorClientSecretRef keeps --client-cert-auth on, so external " +
			"clients (the Kamaji DataStore) authenticate with the CN=root client certificate.",
		"spec.topologySpreadConstraints": "The platform's global constraints (_cluster.scheduling) replace " +
			"the default hostname spread; each gets a selector on this cluster's members unless it has its own.",
		"spec.affinity": "Soft anti-affinity by default: spread members across nodes on a best-effort basis " +
			"so that one node failure is unlikely to take out more than one member. Preferred, not required: " +
			"a hard rule would leave a member Pending when replicas exceed the schedulable nodes or node-local " +
			"storage pins a member to a node. values.affinity overrides it.",
	},
	"serverCertificate": {
		"spec.dnsNames": "Wildcards, not an enumeration of members: etcd-operator brings members up, " +
			"replacements included, under random names in its own domain (<member>.<name>.<ns>.svc), and a " +
			"member left out of every SAN would fail TLS verification forever. The etcd chart keeps the legacy " +
			"*.etcd-headless wildcard so adopted members validate during the transition.",
	},
	"peerCertificate": {
		"spec.dnsNames": "Wildcards for the same reason as the server certificate's: members come and go " +
			"under random names.",
	},
	"clientCertificate": {
		"spec.commonName": "CN root makes the operator and the Kamaji DataStore the etcd root user under " +
			"--client-cert-auth.",
	},
	"verticalPodAutoscaler": {
		"spec.updatePolicy.updateMode": "Initial, not Auto: Auto evicts running members to apply new " +
			"recommendations, which is disruptive to quorum. Initial sets requests when a member Pod is " +
			"created; minAllowed is the floor, since running Pods are not resized.",
		"spec.targetRef": "etcd-operator manages member Pods directly (no StatefulSet); the EtcdCluster " +
			"exposes a /scale subresource with status.selector for the VPA.",
		"spec.resourcePolicy.containerPolicies[0].minAllowed": "The requests the sanitiser derives from " +
			"250m / 256Mi with the platform's ratios (maxAllowed: from 5000m / 8Gi).",
	},
	"defragCronJob": {
		"metadata.name": "A CronJob name is limited to 52 characters: longer <name>-defrag names are " +
			"hashed (the upstream template rendered a name the API server refuses).",
		"spec.jobTemplate.spec.template.spec.containers[0].args": "The operator names its client Service after the " +
			"cluster and uses no StatefulSet ordinals: dial the Service and let --cluster fan the defrag out to " +
			"every member. --etcd-storage-quota-bytes is the cluster's own quota: etcd-defrag assumes 2 GiB " +
			"otherwise, and its dbQuotaUsage rule misfires on any larger volume.",
	},
	"podScrape": {
		"spec.selector": "Select the instance: every etcd-operator member carries app.kubernetes.io/name: etcd, " +
			"so selecting the name would scrape every tenant cluster's etcd in the namespace twice.",
	},
	"dataStore": {
		"metadata.name": "Cluster-scoped, so it carries the namespace; Kamaji copies it into a label, so a " +
			"name over 63 characters is hashed.",
	},
	"legacyHeadlessService": {
		"spec": "Transitional: etcd-migrate adopts legacy clusters in place, and their Pods keep " +
			"spec.subdomain etcd-headless, so the operator dials etcd-<i>.etcd-headless.<ns>.svc until the members " +
			"roll onto its native domain. Without this Service those names stop resolving, MemberList fails and " +
			"the cluster never goes Ready. The selector is the operator's own; publishNotReadyAddresses keeps " +
			"peer discovery working while a member is not Ready. Remove it, with the legacy certificate SAN, once " +
			"every member has rolled.",
	},
	"caSecret": {
		"metadata.annotations": "Created empty before install and kept on uninstall: cert-manager fills it, " +
			"and the Kamaji DataStore must keep pointing at it across upgrades.",
	},
	"cleanupJob": {
		"metadata.name": "The API server copies a Job's name into its Pods' batch.kubernetes.io/job-name label " +
			"(63 characters): longer <name>-cleanup names are hashed.",
		"spec.template.spec.containers[0].command": "cert-manager sets no owner on the PKI Secrets and two are " +
			"kept on uninstall, so nothing else reclaims them; the etcd chart also deletes the legacy data-etcd-<i> " +
			"PVCs, which etcd-operator does not garbage-collect. The Role grants delete on exactly these names.",
	},
}

// shapeReasons are the reasons of one shape, by field path.
func shapeReasons(id string) map[string]string { return reasons[id] }
