{{- /*
etcdshapes.validate: the checks themselves, the library's rules in its
order, with the helpers of checks.tpl. etcdshapes.config runs it, with tpl,
only for input its quick tests do not vouch for.
*/ -}}
{{- /* The checks, in the library's order: the values as the chart reads
them, the names, the live state (per cluster), then the etcd's options
(etcd.Options.Validate). . is the config etcdshapes.config is filling; the
parsed spread constraints and the affinity are left on it. */ -}}
{{- $k := dict -}}
{{- include "etcdshapes.check.constants" $k -}}
{{- $root := .root -}}
{{- $v := $root.Values -}}
{{- if hasKey . "values" }}{{ $v = .values }}{{ end -}}
{{- $c := dict "replicas" [[ .DefaultReplicas ]] "limits" (dict [[ range .DefaultResources ]][[ q .Name ]] [[ q .Value ]] [[ end ]]) "affinity" dict -}}
{{- $_ := set $c "size" (include "etcdshapes.check.quantity" (dict "field" "values.size" "value" [[ q .DefaultSize ]]) | fromJson) -}}
{{- if eq .caller "etcd" -}}
{{- include "etcdshapes.check.etcdValues" (dict "values" $v "k" $k "c" $c) -}}
{{- else -}}
{{- include "etcdshapes.check.clusterValues" (dict "values" $v "k" $k "c" $c) -}}
{{- end -}}
{{- include "etcdshapes.check.names" (dict "caller" .caller "namespace" .namespace "release" .release "k" $k) -}}
{{- if ne .caller "etcd" -}}
{{- $kcp := lookup [[ q .KamajiControlPlane.APIVersion ]] [[ q .KamajiControlPlane.Kind ]] .namespace .release -}}
{{- $ds := "" }}{{ if $kcp }}{{ $ds = dig "spec" "dataStoreName" "" $kcp }}{{ end -}}
{{- if and $ds (include "etcdshapes.check.subdomainErrors" (dict "value" $ds "k" $k)) -}}
{{- include "etcdshapes.check.fail" (dict "field" "live.dataStoreName" "value" $ds "rule" "must be a DataStore name (DNS-1123 subdomain)") -}}
{{- end -}}
{{- if lookup [[ q .EtcdCluster.APIVersion ]] [[ q .EtcdCluster.Kind ]] .namespace .cluster -}}
{{- include "etcdshapes.check.storageClassName" (dict "field" "live.storageClassName" "value" .storageClass "k" $k) -}}
{{- end -}}
{{- include "etcdshapes.check.storageClassName" (dict "field" "_cluster.etcd-storage-class-local" "value" $c.storageClassLocal "k" $k) -}}
{{- include "etcdshapes.check.storageClassName" (dict "field" "_cluster.etcd-storage-class-replicated" "value" $c.storageClassReplicated "k" $k) -}}
{{- end -}}
{{- if gt (int $c.replicas) (int $k.maxReplicas) -}}
{{- include "etcdshapes.check.fail" (dict "field" "values.replicas" "value" (int $c.replicas) "rule" (printf "must be at most %d (etcd advises at most 7 members)" (int $k.maxReplicas))) -}}
{{- end -}}
{{- $_ := include "etcdshapes.check.quota" (dict "field" "values.size" "q" $c.size "k" $k) -}}
{{- include "etcdshapes.check.storageClassName" (dict "field" "values.storageClass" "value" ($c.storageClass | default "") "k" $k) -}}
{{- if $c.limits -}}
{{- include "etcdshapes.check.containerResources" (dict "limits" $c.limits "k" $k) -}}
{{- $res := include "etcdshapes.check.sanitize" (dict "field" "values.resources" "limits" $c.limits "ratios" $c.ratios) | fromJson -}}
{{- include "etcdshapes.check.requestsWithinLimits" (dict "resources" $res "ratios" $c.ratios) -}}
{{- end -}}
{{- if $c.affinity }}{{ include "etcdshapes.check.affinity" (dict "value" $c.affinity "k" $k) }}{{ end -}}
{{- /* The member selector goes on every constraint that has none. */ -}}
{{- range $s := $c.spread -}}
{{- if not (kindIs "map" (get $s "labelSelector")) -}}
{{- $_ := set $s "labelSelector" (dict "matchLabels" (dict $k.instanceLabel $.cluster)) -}}
{{- end -}}
{{- end -}}
{{- $_ := set . "spread" $c.spread -}}
{{- $_ := set . "affinity" $c.affinity -}}
