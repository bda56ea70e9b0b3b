package monitoring

// Code below is data: the upstream etcd alerts the etcd chart ships.

import (
	monv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// etcdAlerts are the alerting rules of group etcd.
func etcdAlerts() []monv1.Rule {
	return []monv1.Rule{
		{
			Alert:       "etcdInsufficientMembers",
			Expr:        intstr.FromString("sum(up{job=~\".*etcd.*\"} == bool 1) by (job) < ((count(up{job=~\".*etcd.*\"}) by (job) + 1) / 2)\n"),
			For:         ptr(monv1.Duration("3m")),
			Labels:      map[string]string{"severity": "critical"},
			Annotations: map[string]string{"summary": "etcd cluster '{{ $labels.job }}': insufficient members '{{ $value }}'."},
		},
		{
			Alert:       "etcdNoLeader",
			Expr:        intstr.FromString("etcd_server_has_leader{job=~\".*etcd.*\"} == 0\n"),
			For:         ptr(monv1.Duration("1m")),
			Labels:      map[string]string{"severity": "critical"},
			Annotations: map[string]string{"summary": "etcd cluster '{{ $labels.job }}': member '{{ $labels.instance }}' has no leader."},
		},
		{
			Alert:       "etcdHighNumberOfLeaderChanges",
			Expr:        intstr.FromString("rate(etcd_server_leader_changes_seen_total{job=~\".*etcd.*\"}[15m]) > 3\n"),
			For:         ptr(monv1.Duration("15m")),
			Labels:      map[string]string{"severity": "warning"},
			Annotations: map[string]string{"summary": "etcd cluster '{{ $labels.job }}': instance '{{ $labels.instance }}' has seen '{{ $value }}' leader changes within the last hour."},
		},
		{
			Alert:       "etcdHighNumberOfFailedGRPCRequests",
			Expr:        intstr.FromString("100 * sum(rate(grpc_server_handled_total{job=~\".*etcd.*\", grpc_code!=\"OK\"}[5m])) BY (job, instance, grpc_service, grpc_method)\n  /\nsum(rate(grpc_server_handled_total{job=~\".*etcd.*\"}[5m])) BY (job, instance, grpc_service, grpc_method)\n  > 1\n"),
			For:         ptr(monv1.Duration("10m")),
			Labels:      map[string]string{"severity": "warning"},
			Annotations: map[string]string{"summary": "etcd cluster '{{ $labels.job }}': '{{ $value }}' of requests for '{{ $labels.grpc_method }}' failed on etcd instance '{{ $labels.instance }}'."},
		},
		{
			Alert:       "etcdHighNumberOfFailedGRPCRequests",
			Expr:        intstr.FromString("100 * sum(rate(grpc_server_handled_total{job=~\".*etcd.*\", grpc_code!=\"OK\"}[5m])) BY (job, instance, grpc_service, grpc_method)\n  /\nsum(rate(grpc_server_handled_total{job=~\".*etcd.*\"}[5m])) BY (job, instance, grpc_service, grpc_method)\n  > 5\n"),
			For:         ptr(monv1.Duration("5m")),
			Labels:      map[string]string{"severity": "critical"},
			Annotations: map[string]string{"summary": "etcd cluster '{{ $labels.job }}': '{{ $value }}' of requests for '{{ $labels.grpc_method }}' failed on etcd instance '{{ $labels.instance }}'."},
		},
		{
			Alert:       "etcdGRPCRequestsSlow",
			Expr:        intstr.FromString("histogram_quantile(0.99, sum(rate(grpc_server_handling_seconds_bucket{job=~\".*etcd.*\", grpc_type=\"unary\"}[5m])) by (job, instance, grpc_service, grpc_method, le))\n> 0.15\n"),
			For:         ptr(monv1.Duration("10m")),
			Labels:      map[string]string{"severity": "critical"},
			Annotations: map[string]string{"summary": "etcd cluster '{{ $labels.job }}': gRPC requests to '{{ $labels.grpc_method }}' are taking '{{ $value }}' on etcd instance '{{ $labels.instance }}'."},
		},
		{
			Alert:       "etcdMemberCommunicationSlow",
			Expr:        intstr.FromString("histogram_quantile(0.99, rate(etcd_network_peer_round_trip_time_seconds_bucket{job=~\".*etcd.*\"}[5m]))\n> 0.15\n"),
			For:         ptr(monv1.Duration("10m")),
			Labels:      map[string]string{"severity": "warning"},
			Annotations: map[string]string{"summary": "etcd cluster '{{ $labels.job }}': member communication with '{{ $labels.To }}' is taking '{{ $value }}' on etcd instance '{{ $labels.instance }}'."},
		},
		{
			Alert:       "etcdHighNumberOfFailedProposals",
			Expr:        intstr.FromString("rate(etcd_server_proposals_failed_total{job=~\".*etcd.*\"}[15m]) > 5\n"),
			For:         ptr(monv1.Duration("15m")),
			Labels:      map[string]string{"severity": "warning"},
			Annotations: map[string]string{"summary": "etcd cluster '{{ $labels.job }}': '{{ $value }}' proposal failures within the last hour on etcd instance '{{ $labels.instance }}'."},
		},
		{
			Alert:       "etcdHighNumberOfFailedHTTPRequests",
			Expr:        intstr.FromString("sum(rate(etcd_http_failed_total{job=~\".*etcd.*\", code!=\"404\"}[5m])) BY (method) / sum(rate(etcd_http_received_total{job=~\".*etcd.*\"}[5m])) BY (method) > 0.01\n"),
			For:         ptr(monv1.Duration("10m")),
			Labels:      map[string]string{"severity": "warning"},
			Annotations: map[string]string{"summary": "'{{ $value }}' of requests for '{{ $labels.method }}' failed on etcd instance '{{ $labels.instance }}'."},
		},
		{
			Alert:       "etcdHighNumberOfFailedHTTPRequests",
			Expr:        intstr.FromString("sum(rate(etcd_http_failed_total{job=~\".*etcd.*\", code!=\"404\"}[5m])) BY (method) / sum(rate(etcd_http_received_total{job=~\".*etcd.*\"}[5m])) BY (method) > 0.05\n"),
			For:         ptr(monv1.Duration("10m")),
			Labels:      map[string]string{"severity": "critical"},
			Annotations: map[string]string{"summary": "'{{ $value }}' of requests for '{{ $labels.method }}' failed on etcd instance '{{ $labels.instance }}'."},
		},
		{
			Alert:       "etcdHTTPRequestsSlow",
			Expr:        intstr.FromString("histogram_quantile(0.99, rate(etcd_http_successful_duration_seconds_bucket[5m]))\n> 0.15\n"),
			For:         ptr(monv1.Duration("10m")),
			Labels:      map[string]string{"severity": "warning"},
			Annotations: map[string]string{"summary": "etcd instance '{{ $labels.instance }}' HTTP requests to '{{ $labels.method }}' are slow."},
		},
		{
			Alert:       "etcdMembersDown",
			Expr:        intstr.FromString("max without (endpoint) (\n  sum without (instance, pod) (up{job=~\".*etcd.*\"} == bool 0)\nor\n  count without (To) (\n    sum without (instance, pod) (rate(etcd_network_peer_sent_failures_total{job=~\".*etcd.*\"}[120s])) > 0.01\n  )\n)\n> 0\n"),
			For:         ptr(monv1.Duration("10m")),
			Labels:      map[string]string{"severity": "critical"},
			Annotations: map[string]string{"description": "etcd cluster \"{{ $labels.job }}\": members are down {{ $value }}.", "summary": "etcd cluster '{{ $labels.job }}' members are down."},
		},
	}
}
