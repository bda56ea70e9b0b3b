{{- /*
etcdshapes.config: the value-dependent decisions of the etcd shapes, the
twin of etcdshapes.Render (values.go, stack.go, the builders' options).

Call it with a dict holding
  root   - the chart's root context ($): release, namespace, chart version,
           capabilities and lookup;
  caller - "etcd" (the etcd chart) or "cluster" (a tenant cluster's etcd);
  values - optional; values in the caller's chart shape (default
           root.Values);
  checks - optional; true runs every check of etcdshapes.validate even
           for input the quick tests vouch for (the tests use it).
It fills that dict with everything the shapes read (_etcdshapes_shapes.tpl)
and returns nothing; a dict it has filled is left alone, so the config is
computed once however many shapes are rendered from it.

It computes the common input the way the library does and checks it on
the way with cheap tests. Anything the tests do not vouch for (an unusual
but valid input, or a bad one) goes through etcdshapes.checks
(_etcdshapes_checks.tpl): every rule of the library, in the library's
order, refusing with the library's message. The checks are parsed only
then, so a release with common values never pays for them.

The constants are the library's, written in by the generator.
*/ -}}
{{- define "etcdshapes.config" -}}
{{- if not (hasKey . "render") -}}
{{- $root := .root -}}
{{- $v := $root.Values -}}
{{- if hasKey . "values" }}{{ $v = .values }}{{ end -}}
{{- $etcdChart := eq .caller [[ q .CallerEtcd ]] -}}
{{- if not (or $etcdChart (eq .caller [[ q .CallerCluster ]])) -}}
{{- fail (printf "caller: invalid value %q: must be %q or %q" .caller [[ q .CallerEtcd ]] [[ q .CallerCluster ]]) -}}
{{- end -}}
{{- $ns := $root.Release.Namespace -}}
{{- $rel := $root.Release.Name -}}
{{- /* The quick tests: $ok stays true only for input they vouch for. */ -}}
{{- $ok := and (le (len $ns) [[ .MaxLabel ]]) (regexMatch [[ q .TenantPattern ]] $ns) -}}
{{- $cl := index $v "_cluster" | default dict -}}
{{- $ok = and $ok (kindIs "map" $cl) -}}
{{- $e := $v -}}
{{- $version := [[ q .DefaultVersion ]] -}}
{{- $size := [[ q .DefaultSize ]] -}}
{{- $res := dict [[ range .DefaultResources ]][[ q .Name ]] [[ q .Value ]] [[ end ]] -}}
{{- if $etcdChart -}}
{{- $known := list [[ range .EtcdChartKeys ]][[ q . ]] [[ end ]] -}}
{{- range $key, $_ := $v }}{{ if not (has $key $known) }}{{ $ok = false }}{{ end }}{{ end -}}
{{- if hasKey $v "version" }}{{ $version = $v.version }}{{ $ok = and $ok (kindIs "string" $version) (regexMatch [[ q .VersionPattern ]] $version) }}{{ end -}}
{{- if not (kindIs "invalid" $v.size) }}{{ $size = $v.size }}{{ end -}}
{{- $ok = and $ok (kindIs "string" $size) (regexMatch [[ q .QuickSize ]] $size) (eq $rel [[ q .EtcdChartRelease ]]) -}}
{{- $sc := $v.storageClass | default "" -}}
{{- $ok = and $ok (kindIs "string" $sc) (or (eq $sc "") (and (le (len $sc) [[ .MaxSubdomain ]]) (regexMatch [[ q .SubdomainPattern ]] $sc))) -}}
{{- $_ := set . "storageClass" $sc -}}
{{- /* Helm drops a null over a values.yaml default: no resources then. */ -}}
{{- $res = $v.resources | default dict -}}
{{- $ok = and $ok (kindIs "map" $res) (empty ($v.affinity | default dict)) -}}
{{- if $ok -}}
{{- range $name, $x := $res -}}
{{- $ok = and $ok (or (kindIs "invalid" $x) (and (has $name (list "cpu" "memory" "ephemeral-storage")) (kindIs "string" $x) (regexMatch [[ q .QuickQuantity ]] $x))) -}}
{{- end -}}
{{- end -}}
{{- else -}}
{{- $e = $v.etcd | default dict -}}
{{- $ok = and $ok (kindIs "map" $e) (le (len $rel) [[ .MaxRelease ]]) (regexMatch [[ q .ReleasePattern ]] $rel) -}}
{{- range $key, $_ := $e }}{{ if ne $key "replicas" }}{{ $ok = false }}{{ end }}{{ end -}}
{{- end -}}
{{- $r := [[ .DefaultReplicas ]].0 -}}
{{- if not (kindIs "invalid" $e.replicas) }}{{ $r = $e.replicas }}{{ end -}}
{{- $replicas := float64 $r -}}
{{- $ok = and $ok (kindIs "float64" $r) (eq $replicas (floor $replicas)) (ge $replicas 1.0) (le $replicas (ternary [[ .MaxReplicas ]].0 3.0 $etcdChart)) (or $etcdChart (ne $replicas 2.0)) -}}
{{- /* The platform's allocation ratios: request = limit / ratio. */ -}}
{{- $ratios := dict [[ range .Ratios ]][[ q .Key ]] [[ .Default ]] [[ end ]] -}}
{{- range $r := list [[ range .Ratios ]](list [[ q .Key ]] [[ q .Value ]]) [[ end ]] -}}
{{- $x := index $cl (index $r 1) -}}
{{- if not (kindIs "invalid" $x) -}}
{{- $f := float64 $x -}}
{{- $ok = and $ok (ge $f 1.0) (le $f 1e15) (or (kindIs "float64" $x) (regexMatch "^[0-9]+(\\.[0-9]+)?$" (toString $x))) -}}
{{- $_ := set $ratios (index $r 0) $f -}}
{{- end -}}
{{- end -}}
{{- $spread := index $cl "scheduling" | default dict -}}
{{- $ok = and $ok (kindIs "map" $spread) -}}
{{- if $ok }}{{ $spread = index $spread "globalAppTopologySpreadConstraints" | default "" }}{{ $ok = and (kindIs "string" $spread) (eq (trim $spread) "") }}{{ end -}}
{{- $render := true -}}
{{- $apis := dict [[ range .OptionalAPIs ]][[ q . ]] true [[ end ]] -}}
{{- $name := [[ q .EtcdChartName ]] -}}
{{- $dataStore := $ns -}}
{{- if not $etcdChart -}}
{{- range $api, $_ := $apis }}{{ $_ := set $apis $api ($root.Capabilities.APIVersions.Has $api) }}{{ end -}}
{{- $name = printf "%s-etcd" $rel -}}
{{- /* The DataStore is cluster-scoped and Kamaji copies its name into a
label: past [[ .MaxDataStoreName ]] characters it is hashed. */ -}}
{{- $dataStore = printf "%s.%s" $ns $rel -}}
{{- if gt (len $dataStore) [[ .MaxDataStoreName ]] }}{{ $dataStore = printf "%s-%s" (trunc [[ .DataStoreKeep ]] $dataStore | trimSuffix "-" | trimSuffix ".") (sha256sum $dataStore | trunc [[ .HashLen ]]) }}{{ end -}}
{{- /* The live KamajiControlPlane: a cluster on another datastore stays
there and nothing is rendered (moving it would start a Kamaji datastore
migration). The live EtcdCluster: spec.storage.storageClassName is
immutable, so its class wins, even an empty one. */ -}}
{{- $kcp := lookup [[ q .KamajiControlPlane.APIVersion ]] [[ q .KamajiControlPlane.Kind ]] $ns $rel -}}
{{- $liveDS := "" }}{{ if $kcp }}{{ $liveDS = dig "spec" "dataStoreName" "" $kcp }}{{ end -}}
{{- $ec := lookup [[ q .EtcdCluster.APIVersion ]] [[ q .EtcdCluster.Kind ]] $ns $name -}}
{{- $local := index $cl "etcd-storage-class-local" | default "" -}}
{{- $replicated := index $cl "etcd-storage-class-replicated" | default "" -}}
{{- $sc := ternary $replicated $local (eq $replicas 1.0) -}}
{{- if $ec }}{{ $sc = dig "spec" "storage" "storageClassName" "" $ec }}{{ end -}}
{{- range $x := list $liveDS $sc $local $replicated -}}
{{- $ok = and $ok (kindIs "string" $x) (or (eq $x "") (and (le (len $x) [[ .MaxSubdomain ]]) (regexMatch [[ q .SubdomainPattern ]] $x))) -}}
{{- end -}}
{{- $_ := set . "storageClass" $sc -}}
{{- $render = or (eq $liveDS "") (eq $liveDS $dataStore) -}}
{{- end -}}
{{- $_ := set . "etcdChart" $etcdChart -}}
{{- $_ := set . "namespace" $ns -}}
{{- $_ := set . "release" $rel -}}
{{- $_ := set . "cluster" $name -}}
{{- $_ := set . "chartVersion" $root.Chart.Version -}}
{{- $_ := set . "spread" list -}}
{{- $_ := set . "affinity" dict -}}
{{- if or (not $ok) .checks }}{{ tpl (print (include "etcdshapes.checks" .) (include "etcdshapes.validate" .)) . }}{{ end -}}
{{- /* From here on the input is valid (or helm lint, where fail does not
stop the render, goes on with what it has). */ -}}
{{- $_ := set . "version" ($version | default [[ q .DefaultVersion ]]) -}}
{{- $replicas = int $replicas -}}
{{- $_ := set . "replicas" $replicas -}}
{{- $_ := set . "minReplicas" (add1 (div $replicas 2)) -}}
{{- $_ := set . "render" $render -}}
{{- $_ := set . "apis" $apis -}}
{{- $_ := set . "dataStore" $dataStore -}}
{{- /* A CronJob name is limited to [[ .MaxCronJobName ]] characters and a Job's to [[ .MaxJobName ]] (the
API server copies it into a label): longer names are hashed. */ -}}
{{- $defrag := printf "%s-defrag" $name -}}
{{- if gt (len $defrag) [[ .MaxCronJobName ]] }}{{ $defrag = printf "%s-%s-defrag" (trunc [[ .CronJobKeep ]] $name | trimSuffix "-" | trimSuffix ".") (sha256sum $defrag | trunc [[ .HashLen ]]) }}{{ end -}}
{{- $_ := set . "defragCronJob" $defrag -}}
{{- $cleanup := printf "%s-cleanup" $name -}}
{{- if gt (len $cleanup) [[ .MaxJobName ]] }}{{ $cleanup = printf "%s-%s-cleanup" (trunc [[ .JobKeep ]] $name | trimSuffix "-" | trimSuffix ".") (sha256sum $cleanup | trunc [[ .HashLen ]]) }}{{ end -}}
{{- $_ := set . "cleanupJob" $cleanup -}}
{{- $q := dict -}}
{{- include "etcdshapes.quantity" (dict "in" $size "out" $q) -}}
{{- $_ := set . "size" $q.s -}}
{{- /* quotaBackendBytes: 95% of the size in bytes, one product of the
exact factors, printed like %.0f. A binary quantity of 2^63 or more is
capped there by the Kubernetes quantity code, and its quota is the
library's constant. */ -}}
{{- $quota := [[ q .CappedQuota ]] -}}
{{- if not $q.capped }}{{ $quota = printf "%.0f" (mulf (float64 $q.num) $q.f1 $q.f2 0.95) }}{{ end -}}
{{- $_ := set . "quota" $quota -}}
{{- /* The resource sanitiser: limits as given; the cpu request is
cpu / ratio printed like %v; memory and ephemeral-storage requests are the
quotient truncated to whole bytes; any other resource requests its limit.
divf divides like the upstream chart: decimals to 16 places, then a float64. */ -}}
{{- $limits := dict -}}
{{- $requests := dict -}}
{{- range $n, $x := $res -}}
{{- if not (kindIs "invalid" $x) -}}
{{- $q := dict -}}
{{- include "etcdshapes.quantity" (dict "in" $x "out" $q) -}}
{{- $_ := set $limits $n $q.s -}}
{{- if eq $n "cpu" -}}
{{- $_ := set $requests $n (printf "%v" (divf $q.f $ratios.cpu)) -}}
{{- else if or (eq $n "memory") (eq $n "ephemeral-storage") -}}
{{- $b := divf $q.f (ternary $ratios.memory $ratios.ephemeral (eq $n "memory")) -}}
{{- $_ := set $requests $n (ternary (printf "%d" (int64 $b)) [[ q .MaxInt64 ]] (lt $b [[ .MaxInt64 ]].0)) -}}
{{- else -}}
{{- $_ := set $requests $n $q.s -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- $_ := set . "resources" (ternary (dict "limits" $limits "requests" $requests) dict (gt (len $limits) 0)) -}}
{{- $_ := set . "vpaMinAllowed" (dict "cpu" (printf "%v" (divf [[ .VPAMinCPU ]] $ratios.cpu)) "memory" (printf "%d" (int64 (divf [[ .VPAMinMemory ]] $ratios.memory)))) -}}
{{- $_ := set . "vpaMaxAllowed" (dict "cpu" (printf "%v" (divf [[ .VPAMaxCPU ]] $ratios.cpu)) "memory" (printf "%d" (int64 (divf [[ .VPAMaxMemory ]] $ratios.memory)))) -}}
{{- if $etcdChart -}}
{{- /* Who sees the dashboard resources: every tenant on the path to the
namespace, shortest first, then [[ .RootTenant ]] unless it is the namespace. */ -}}
{{- $parts := splitList "-" $ns -}}
{{- $tenants := list -}}
{{- range $i := untilStep 2 (add (len $parts) 1 | int) 1 }}{{ $tenants = append $tenants (slice $parts 0 $i | join "-") }}{{ end -}}
{{- if ne $ns [[ q .RootTenant ]] }}{{ $tenants = append $tenants [[ q .RootTenant ]] }}{{ end -}}
{{- $_ := set . "tenants" $tenants -}}
{{- $pvcs := list -}}
{{- range $i := until $replicas }}{{ $pvcs = append $pvcs (printf "data-%s-%d" $name $i) }}{{ end -}}
{{- $_ := set . "pvcs" $pvcs -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /*
etcdshapes.quantity (resource.ParseQuantity, as the upstream chart reads
a quantity): dict in out. Sets on out: s, the quantity as written; f, its
value as a float64 (decimal suffixes shift the exponent, binary ones
multiply exactly); num and the binary factors f1, f2 whose product num *
f1 * f2 is the exact value; capped, when the quantity code caps a binary
quantity at 2^63-1. The input is a valid quantity (checked before).
*/ -}}
{{- define "etcdshapes.quantity" -}}
{{- $s := .in -}}
{{- if kindIs "float64" $s }}{{ $s = toJson $s }}{{ else if not (kindIs "string" $s) }}{{ $s = toString $s }}{{ end -}}
{{- $suffix := regexReplaceAll "^[+-]?[0-9]*\\.?[0-9]*" $s "" -}}
{{- $num := trimSuffix $suffix $s -}}
{{- /* Binary factors of at most 2^30, which a decimal holds exactly. */ -}}
{{- $binary := dict "Ki" (list 1024.0 1.0) "Mi" (list 1048576.0 1.0) "Gi" (list 1073741824.0 1.0) "Ti" (list 1073741824.0 1024.0) "Pi" (list 1073741824.0 1048576.0) "Ei" (list 1073741824.0 1073741824.0) -}}
{{- $f1 := 1.0 }}{{ $f2 := 1.0 }}{{ $f := 0.0 -}}
{{- if hasKey $binary $suffix -}}
{{- $f1 = index $binary $suffix 0 }}{{ $f2 = index $binary $suffix 1 -}}
{{- $f = mulf (float64 $num) $f1 $f2 -}}
{{- else -}}
{{- $exp := get (dict "n" "e-9" "u" "e-6" "m" "e-3" "k" "e3" "M" "e6" "G" "e9" "T" "e12" "P" "e15" "E" "e18") $suffix | default $suffix -}}
{{- $f = float64 (printf "%s%s" $num $exp) -}}
{{- $num = "1" }}{{ $f1 = $f -}}
{{- end -}}
{{- $capped := and (hasKey $binary $suffix) (ge $f [[ .MaxInt64 ]].0) -}}
{{- /* Below 2^53 nanos the scaled value is exact, so ceil rounds up to
whole nanos like the quantity code; above, a float64 holds no fraction of
a nano. */ -}}
{{- if and (gt $f 0.0) (lt $f 9007199.0) -}}
{{- $nanos := mulf $f 1000000000 -}}
{{- if ne $nanos (floor $nanos) }}{{ $f = divf (ceil $nanos) 1000000000 }}{{ $num = "1" }}{{ $f1 = $f }}{{ $f2 = 1.0 }}{{ end -}}
{{- end -}}
{{- $_ := set .out "s" $s -}}
{{- $_ := set .out "f" (ternary [[ .MaxInt64 ]].0 $f $capped) -}}
{{- $_ := set .out "num" $num -}}
{{- $_ := set .out "f1" $f1 -}}
{{- $_ := set .out "f2" $f2 -}}
{{- $_ := set .out "capped" $capped -}}
{{- end -}}
