{{- /*
etcdshapes.validate: the library's rules in its order (the values, the
names, the live state, then etcd.Options.Validate; nothing in the served
API list is refused), run only for input the config's quick tests do not
vouch for. . is the config being filled; the fields the quick path
computes for common input are computed here for any input.
*/ -}}
{{- $k := include "etcdshapes.file" (dict "c" . "name" [[ q .ConstantsFile ]]) | fromJson -}}
{{- include "etcdshapes.check.constants" $k -}}
{{- $root := .root -}}
{{- $v := $root.Values -}}
{{- if hasKey . "values" }}{{ $v = .values }}{{ end -}}
{{- $c := dict "replicas" [[ .DefaultReplicas ]] "limits" (dict [[ range .DefaultResources ]][[ q .Name ]] [[ q .Value ]] [[ end ]]) "affinity" dict -}}
{{- $_ := set $c "size" (include "etcdshapes.check.quantity" (dict "field" "values.size" "value" [[ q .DefaultSize ]] "k" $k) | fromJson) -}}
{{- if eq .caller "etcd" -}}
{{- include "etcdshapes.check.etcdValues" (dict "values" $v "k" $k "c" $c) -}}
{{- else -}}
{{- include "etcdshapes.check.clusterValues" (dict "values" $v "k" $k "c" $c) -}}
{{- end -}}
{{- include "etcdshapes.check.names" (dict "caller" .caller "namespace" .namespace "release" .release "k" $k) -}}
{{- if ne .caller "etcd" -}}
{{- /* A cluster on another datastore (the live KamajiControlPlane) stays
there: nothing renders, so the rendered stack's name rules do not apply. */ -}}
{{- $kcp := lookup [[ q .KamajiControlPlane.APIVersion ]] [[ q .KamajiControlPlane.Kind ]] .namespace .release -}}
{{- $ds := "" }}{{ if $kcp }}{{ $ds = dig "spec" "dataStoreName" "" $kcp }}{{ end -}}
{{- $_ := set . "dataStore" (include "etcdshapes.check.hashTruncate" (dict "full" (printf "%s.%s" .namespace .release) "limit" [[ .MaxDataStoreName ]]
  "keep" [[ .DataStoreKeep ]] "suffix" "")) -}}
{{- $_ := set . "render" (or (eq $ds "") (eq $ds .dataStore)) -}}
{{- if and $ds (include "etcdshapes.check.subdomainErrors" (dict "value" $ds "k" $k)) -}}
{{- include "etcdshapes.check.fail" (list "live.dataStoreName" $ds "must be a DataStore name (DNS-1123 subdomain)") -}}
{{- end -}}
{{- end -}}
{{- if ne .caller "etcd" -}}
{{- if lookup [[ q .EtcdCluster.APIVersion ]] [[ q .EtcdCluster.Kind ]] .namespace .cluster -}}
{{- include "etcdshapes.check.storageClassName" (dict "field" "live.storageClassName" "value" .storageClass "k" $k) -}}
{{- end -}}
{{- include "etcdshapes.check.storageClassName" (dict "field" "_cluster.etcd-storage-class-local" "value" $c.storageClassLocal "k" $k) -}}
{{- include "etcdshapes.check.storageClassName" (dict "field" "_cluster.etcd-storage-class-replicated" "value" $c.storageClassReplicated "k" $k) -}}
{{- end -}}
{{- /* The etcd's options (etcd.Options.Validate). */ -}}
{{- $_ := set . "size" $c.size.s -}}
{{- $_ := set . "quota" ($c.quota | default [[ q .DefaultQuota ]]) -}}
{{- include "etcdshapes.check.storageClassName" (dict "field" "values.storageClass" "value" ($c.storageClass | default "") "k" $k) -}}
{{- $_ := set . "resources" "" -}}
{{- if $c.limits -}}
{{- $res := include "etcdshapes.check.sanitize" (dict "field" "values.resources" "limits" $c.limits "ratios" $c.ratios "k" $k) | fromJson -}}
{{- include "etcdshapes.check.requestsWithinLimits" (dict "resources" $res "ratios" $c.ratios "k" $k) -}}
{{- $_ := set . "resources" (toYaml $res | trimSuffix "\n") -}}
{{- end -}}
{{- if $c.affinity }}{{ include "etcdshapes.check.affinity" (dict "value" $c.affinity "k" $k) }}{{ end -}}
{{- $a := $c.auth }}{{ $r := $k.auth -}}
{{- if ne $a.on (ne $a.secret "") }}{{ include "etcdshapes.check.fail" (list $a.field $a.secret (ternary $r.required $r.disabled $a.on)) }}{{ end -}}
{{- with and $a.secret (include "etcdshapes.check.subdomainErrors" (dict "value" $a.secret "k" $k)) }}{{ include "etcdshapes.check.fail" (list
  $a.field $a.secret (print $r.name .)) }}{{ end -}}
{{- if .render -}}
{{- if ne .caller "etcd" }}{{ include "etcdshapes.check.names" (dict "caller" .caller "release" .release "full" true "k" $k) }}{{ end -}}
{{- if has (trimPrefix .cluster $a.secret) $r.tlsSuffixes }}{{ include "etcdshapes.check.fail" (list $a.field $a.secret (printf $r.tls .cluster)) }}{{ end -}}
{{- if $a.on }}{{ $_ := set . "auth" (printf $r.spec (toJson $a.secret)) }}{{ end -}}
{{- /* Length limits: the DataStore's name is copied into a label by Kamaji
([[ .MaxDataStoreName ]]), a CronJob's is [[ .MaxCronJobName ]] and a Job's [[ .MaxJobName ]] (copied into a label).
Longer names keep their start and end and 8 hex digits of SHA-256. */ -}}
{{- $_ := set . "defragCronJob" (include "etcdshapes.check.hashTruncate" (dict "full" (printf "%s-defrag" .cluster) "limit" [[ .MaxCronJobName ]]
  "keep" [[ .CronJobKeep ]] "suffix" "-defrag")) -}}
{{- $_ := set . "cleanupJob" (include "etcdshapes.check.hashTruncate" (dict "full" (printf "%s-cleanup" .cluster) "limit" [[ .MaxJobName ]]
  "keep" [[ .JobKeep ]] "suffix" "-cleanup")) -}}
{{- /* The VPA's bounds: the requests of the fixed bounds. */ -}}
{{- $bound := or (eq .caller "etcd") (get .apis [[ q .VPAAPI ]]) -}}
{{- $min := include "etcdshapes.check.sanitize" (dict "field" "vpa"
  "limits" (dict "cpu" [[ q .VPAMinCPUQuantity ]] "memory" [[ q .VPAMinMemoryQuantity ]]) "ratios" $c.ratios "bound" $bound "k" $k) | fromJson -}}
{{- $max := include "etcdshapes.check.sanitize" (dict "field" "vpa"
  "limits" (dict "cpu" [[ q .VPAMaxCPUQuantity ]] "memory" [[ q .VPAMaxMemoryQuantity ]]) "ratios" $c.ratios "bound" $bound "k" $k) | fromJson -}}
{{- $_ := merge . (dict "vpaMinCpu" $min.requests.cpu "vpaMinMemory" $min.requests.memory "vpaMaxCpu" $max.requests.cpu "vpaMaxMemory" $max.requests.memory) -}}
{{- /* The member selector goes on every constraint that has none. */ -}}
{{- range $s := $c.spread -}}
{{- if not (kindIs "map" (get $s "labelSelector")) -}}
{{- $_ := set $s "labelSelector" (dict "matchLabels" (dict $k.instanceLabel $.cluster)) -}}
{{- end -}}
{{- end -}}
{{- $_ := set . "spread" (ternary (toYaml $c.spread | trimSuffix "\n") "" (gt (len $c.spread) 0)) -}}
{{- $_ := set . "affinity" (ternary (toYaml $c.affinity | trimSuffix "\n") "" (gt (len $c.affinity) 0)) -}}
{{- else -}}
{{- /* Nothing renders; the stack's fill still reads every field. */ -}}
{{- $_ := merge . (dict "vpaMinCpu" "" "vpaMinMemory" "" "vpaMaxCpu" "" "vpaMaxMemory" "") -}}
{{- end -}}
