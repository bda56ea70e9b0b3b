{{- /*
etcdshapes.config: fills the config dict of either caller (. holds root
and caller): the twin of etcdshapes.Render (values.go, stack.go, the
builders' options). One define for both callers, which differ in a
block each: Helm parses every template of a chart at every render.

Cheap tests vouch for the common input: values of the chart's defaults'
shape, whole quantities with a unit, ratios of 1 or more, names the
library accepts at a glance. For that input the arithmetic below is the
library's, in a few steps. Anything else (an unusual but valid input, or a
bad one) goes through etcdshapes.validate (files/validate.tpl): every
rule of the library in its order, with its messages, and the general
arithmetic. Types, grammars and ranges are values.schema.json's, which
Helm checks first.
*/ -}}
{{- $root := .root -}}
{{- $v := $root.Values -}}
{{- if hasKey . "values" }}{{ $v = .values }}{{ end -}}
{{- $ns := $root.Release.Namespace -}}
{{- $rel := $root.Release.Name -}}
{{- $cl := index $v "_cluster" | default dict -}}
{{- $etcd := eq .caller [[ q .CallerEtcd ]] -}}
[[- /* The served optional APIs: .Capabilities.APIVersions.Has, what the
upstream charts ask, matches an entry whole (Helm's VersionSet.Has is
string equality), as the library does (servedAPIs). Nothing in the
served list is refused: it is the cluster's (or helm template's
--api-versions), and a refusal would stop every render there. */]]
{{- $apis := dict[[ range .APIGroups ]]
  [[ q .API ]] [[ .Expr ]][[ end ]] -}}
{{- /* Both callers' quick test: no global spread constraints. */ -}}
{{- $ok := eq (index (index $cl "scheduling" | default dict) "globalAppTopologySpreadConstraints" | default "" | toString) "" -}}
{{- $version := [[ q .DefaultVersion ]] }}{{ $size := [[ q .DefaultSize ]] }}{{ $res := dict [[ range .DefaultResources ]][[ q .Name ]] [[ q .Value ]] [[ end ]] -}}
{{- $sc := "" }}{{ $r := 0 }}{{ $name := [[ q .EtcdChartName ]] }}{{ $dataStore := $ns }}{{ $render := true -}}
{{- if $etcd -}}
{{- /* Helm deletes a values.yaml default for a null, which the checks
refuse: an absent version, replicas or size fails the pattern below. */ -}}
{{- $version = $v.version -}}
{{- $size = toString $v.size -}}
{{- /* Helm drops a null over a values.yaml default: no resources then. */ -}}
{{- $res = $v.resources | default dict -}}
{{- $sc = $v.storageClass | default "" -}}
{{- $r = $v.replicas -}}
{{- $head := printf "%s;%s;%s" $ns $version $size -}}
{{- $quick := "" -}}
{{- range $res }}{{ $quick = printf "%s%v;" $quick . }}{{ end -}}
{{- /* The quick tests, one "and". One pattern for the namespace, the
version and the size (none holds a ";"), matched whole as regexFind's
leftmost match ending at the end: "^" would cost a one-pass analysis. The
resources as one string, one field per value: every field a whole
quantity with a unit, and as many fields as values. */ -}}
{{- $ok = and $ok (le (len $ns) [[ .MaxLabel ]]) (eq $rel [[ q .EtcdChartRelease ]]) (empty $v.affinity)
  (empty (omit $v[[ range .QuickEtcdChartKeys ]] [[ q . ]][[ end ]]))
  (eq (regexFind (print
    [[ qparts .QuickEtcd "    " ]]) $head) $head)
  (or (not $sc) (and (le (len $sc) [[ .MaxLabel ]]) (regexMatch [[ q .LabelPattern ]] $sc)))
  (kindIs "float64" $r) (eq $r (floor $r)) (ge $r 1.0) (le $r [[ .MaxReplicas ]].0)
  (empty (omit $res[[ range .QuickResources ]] [[ q . ]][[ end ]]))
  (eq (len (splitList ";" $quick)) (add1 (len $res)))
  (not (regexReplaceAll [[ q .QuickValue ]] $quick ""))
  (or (not (hasKey $res "memory")) (regexMatch (print
    [[ qparts .QuickMemory "    " ]]) (toString $res.memory))) -}}
{{- else -}}
{{- $e := $v.etcd | default dict -}}
{{- $name = printf "%s-etcd" $rel -}}
{{- $dataStore = printf "%s.%s" $ns $rel -}}
{{- /* Names over their limits are hashed (etcdshapes.validate). One
pattern for the namespace and the release. */ -}}
{{- $head := printf "%s;%s" $ns $rel -}}
{{- $ok = and $ok (le (len $rel) [[ .MaxQuickRelease ]]) (le (len $dataStore) [[ .MaxDataStoreName ]]) (eq (regexFind [[ q .QuickCluster ]] $head) $head)
  (empty (omit $e[[ range .QuickClusterEtcdKeys ]] [[ q . ]][[ end ]])) -}}
{{- /* The live KamajiControlPlane: a cluster on another datastore stays
there and nothing is rendered (moving it would start a Kamaji datastore
migration). The live EtcdCluster: spec.storage.storageClassName is
immutable, so its class wins, even an empty one. */ -}}
{{- $kcp := lookup [[ q .KamajiControlPlane.APIVersion ]] [[ q .KamajiControlPlane.Kind ]] $ns $rel -}}
{{- $liveDS := "" }}{{ if $kcp }}{{ $liveDS = dig "spec" "dataStoreName" "" $kcp }}{{ end -}}
{{- $render = or (not $liveDS) (eq $liveDS $dataStore) -}}
{{- $local := index $cl "etcd-storage-class-local" | default "" -}}
{{- $replicated := index $cl "etcd-storage-class-replicated" | default "" -}}
{{- $sc = ternary $replicated $local (eq (toString $e.replicas) "1") -}}
{{- $ec := lookup [[ q .EtcdCluster.APIVersion ]] [[ q .EtcdCluster.Kind ]] $ns $name -}}
{{- if $ec }}{{ $sc = dig "spec" "storage" "storageClassName" "" $ec }}{{ end -}}
[[- /* Each name matched whole by LabelPattern's anchors (see labelPattern). */]]
{{- range $x := list $sc $liveDS $local $replicated -}}
{{- $ok = and $ok (or (not $x) (and (le (len $x) [[ .MaxLabel ]]) (regexMatch [[ q .LabelPattern ]] $x))) -}}
{{- end -}}
{{- $r = $e.replicas -}}
{{- if kindIs "invalid" $r }}{{ $r = [[ .DefaultReplicas ]].0 }}{{ end -}}
{{- $ok = and $ok (kindIs "float64" $r) (has $r (list [[ range .ClusterReplicas ]][[ . ]].0 [[ end ]])) -}}
{{- end -}}
{{- /* The platform's allocation ratios: request = limit / ratio. A ratio
the float conversion reads is one the library reads alike. */ -}}
{{- $ratios := dict[[ range .Ratios ]] [[ q .Key ]] [[ .Default ]][[ end ]] -}}
{{- range $key, $rn := dict[[ range .Ratios ]] [[ q .Key ]] [[ q .Value ]][[ end ]] -}}
{{- $x := index $cl $rn -}}
{{- if not (kindIs "invalid" $x) -}}
{{- $ok = and $ok (ge (float64 $x) 1.0) (le (float64 $x) 1e15) (le (len (toString $x)) 15) -}}
{{- $_ := set $ratios $key (float64 $x) -}}
{{- else if hasKey $cl $rn }}{{ $ok = false }}{{ end -}}
{{- end -}}
{{- $replicas := int $r -}}
{{- $tenants := list }}{{ $pvcs := list -}}
{{- if $etcd -}}
{{- /* Who sees the dashboard resources: every tenant on the path to the
namespace, shortest first, then [[ .RootTenant ]] unless it is the namespace. */ -}}
{{- $tenant := "tenant" -}}
{{- range rest (splitList "-" $ns) }}{{ $tenant = printf "%s-%s" $tenant . }}{{ $tenants = append $tenants $tenant }}{{ end -}}
{{- if ne $ns [[ q .RootTenant ]] }}{{ $tenants = append $tenants [[ q .RootTenant ]] }}{{ end -}}
{{- /* The data PVCs the cleanup Job deletes (at most [[ .MaxReplicas ]]: more is refused). */ -}}
{{- range $i := until (int (min $replicas [[ .MaxReplicas ]])) }}{{ $pvcs = append $pvcs (printf [[ q .EtcdChartPVC ]] $i) }}{{ end -}}
{{- end -}}
{{- /* The names: a tenant cluster's are hashed when too long, on the
checks' path; the etcd chart's are fixed ("etcd"). */ -}}
{{- $_ := merge . (dict
  "etcdChart" $etcd
  "namespace" $ns
  "release" $rel
  "chartVersion" $root.Chart.Version
  "replicas" (toString $replicas)
  "minReplicas" (toString (add1 (div $replicas 2)))
  "storageClass" $sc
  "spread" ""
  "affinity" ""
  "auth" ""
  "apis" $apis
  "cluster" $name
  "defragCronJob" (printf "%s[[ .DefragSuffix ]]" $name)
  "cleanupJob" (printf "%s[[ .CleanupSuffix ]]" $name)
  "version" $version
  "dataStore" $dataStore
  "render" $render
  "tenants" $tenants
  "pvcs" (ternary (printf "- \"%s\"" (join "\"\n- \"" $pvcs)) "" $etcd)
  "pvcNames" (join " " $pvcs)
  ) -}}

{{- if and $ok (not .checks) -}}
{{- /* Whole quantities with a unit: number * unit is exact, as the
quantity code reads it. quotaBackendBytes is 95% of the size, one exact
product printed like %.0f. The resource sanitiser: limits as given; the
cpu request is cpu / ratio printed like %v; memory and ephemeral-storage
requests are the quotient truncated to whole bytes. divf divides like the
upstream chart: decimals to 16 places, then a float64. */ -}}
{{- $unit := dict "" 1.0 "m" 0.001 "k" 1e3 "M" 1e6 "G" 1e9 "T" 1e12 "Ki" 1024.0 "Mi" 1048576.0 "Gi" 1073741824.0 "Ti" 1099511627776.0 -}}
{{- $u := trimAll "0123456789" $size -}}
{{- $quota := printf "%.0f" (mulf (trimSuffix $u $size | float64) (index $unit $u) 0.95) -}}
{{- $limits := "" }}{{ $requests := "" -}}
{{- range $n, $x := $res -}}
{{- $s := toString $x -}}
{{- $u := trimAll "0123456789" $s -}}
{{- $f := mulf (trimSuffix $u $s | float64) (index $unit $u) -}}
{{- $limits = printf "%s\n  %s: %q" $limits $n $s -}}
{{- if eq $n "cpu" -}}
{{- $requests = printf "%s\n  %s: %q" $requests $n (printf "%v" (divf $f $ratios.cpu)) -}}
{{- else -}}
{{- $requests = printf "%s\n  %s: \"%d\"" $requests $n (int64 (divf $f (ternary $ratios.memory $ratios.ephemeral (eq $n "memory")))) -}}
{{- end -}}
{{- end -}}
{{- $_ := merge . (dict
  "size" $size
  "quota" $quota
  "resources" (ternary (printf "limits:%s\nrequests:%s" $limits $requests) "" (ne $limits ""))
  "vpaMinCpu" (printf "%v" (divf [[ .VPAMinCPU ]] $ratios.cpu))
  "vpaMinMemory" (printf "%d" (int64 (divf [[ .VPAMinMemory ]] $ratios.memory)))
  "vpaMaxCpu" (printf "%v" (divf [[ .VPAMaxCPU ]] $ratios.cpu))
  "vpaMaxMemory" (printf "%d" (int64 (divf [[ .VPAMaxMemory ]] $ratios.memory)))) -}}
{{- else -}}
{{- include "etcdshapes.run" (dict "c" . "files" (list "files/checks.tpl" "files/validate.tpl")) -}}
{{- end -}}
