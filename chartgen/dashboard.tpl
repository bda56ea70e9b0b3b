[[- /* etcdshapes.dashboard, included only by a render that serves the
GrafanaDashboard's API; . is the config. It sets the dashboard's names on it (naming's
SnapshotSchedule and DashboardUID, hashed when too long as
etcdshapes.check.hashTruncate); the model's file is a header, the model and
the members-up thresholds for a quorum below the replicas and of all
(dashboard.go). */ -]]
{{- /* The GrafanaDashboard's model ([[ .DashboardFile ]], which no template parses). */ -}}
{{- range $n := list (list "snapshotSchedule" (print .cluster [[ q .SnapshotSuffix ]]) [[ .MaxCronJobName ]] [[ .SnapshotKeep ]] [[ q .SnapshotSuffix ]]) (list "dashboardUid" (print .namespace "_" .cluster) [[ .MaxDashboardUID ]] [[ .DashboardUIDKeep ]] "") -}}
{{- $full := index $n 1 }}{{ $v := $full -}}
{{- if gt (len $full) (index $n 2) -}}
{{- $r := trimSuffix (index $n 4) $full }}{{ if gt (len $r) (index $n 3) }}{{ $r = trunc (index $n 3) $r }}{{ end -}}
{{- $v = printf "%s-%s%s" (trimSuffix "-" $r | trimSuffix ".") (sha256sum $full | trunc [[ .HashLen ]]) (index $n 4) -}}
{{- end -}}
{{- $_ := set $ (index $n 0) $v -}}
{{- end -}}
{{- $p := splitList [[ q .DashboardSplit ]] (include "etcdshapes.file" (dict "c" . "name" [[ q .DashboardFile ]]) | trimSuffix "\n") -}}
{{- $r := atoi .replicas }}{{ $q := add1 (div $r 2) -}}
{{- replace [[ q .DashboardUp ]] (index $p (ternary 2 3 (lt $q $r))) (index $p 1) | replace "__QUORUM__" (toString $q) | replace "__REPLICAS__" .replicas
  | replace "__DASHBOARD_UID__" .dashboardUid | replace "__SNAPSHOT_SCHEDULE__" .snapshotSchedule | replace "__DEFRAG_CRON_JOB__" .defragCronJob
  | replace "__CLUSTER__" .cluster | replace "__NAMESPACE__" .namespace -}}
