{{- /*
etcdshapes helpers: the value-dependent decisions of the etcd shapes. The
shapes themselves (_etcdshapes_<caller>.tpl) are generated from the Go
builders' output; these helpers are written by hand, each the twin of the
Go function named in its comment, and roundtrip/ tests every one against
its twin. They read the library's constants from "etcdshapes.constants".

Each helper takes a dict and returns JSON (read it with fromJson) or a plain
string. Bad input fails the render with naming.Error's text:
"<field>: invalid value <value>: <rule>".
*/ -}}

{{- /* etcdshapes.fail (naming.Errorf): dict field value rule, or field text
rule where text is the value already quoted as naming.Error quotes it (a
value of a named string type in Go, such as an operator, is not quoted). */ -}}
{{- define "etcdshapes.fail" -}}
{{- $v := .value -}}
{{- $q := printf "%v" $v -}}
{{- if kindIs "string" $v }}{{ $q = printf "%q" $v }}{{ else if kindIs "invalid" $v }}{{ $q = "<nil>" }}{{ end -}}
{{- if hasKey . "text" }}{{ $q = .text }}{{ end -}}
{{- fail (printf "%s: invalid value %s: %s" .field $q .rule) -}}
{{- end -}}

{{- /* etcdshapes.labelErrors (validation.IsDNS1123Label): dict value k;
the messages joined with "; ", empty when valid. */ -}}
{{- define "etcdshapes.labelErrors" -}}
{{- $m := .k.messages -}}
{{- $errs := list -}}
{{- if gt (len .value) 63 }}{{ $errs = append $errs $m.maxLen63 }}{{ end -}}
{{- if not (regexMatch `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$` .value) -}}
{{- if regexMatch `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$` .value -}}
{{- $errs = append $errs $m.labelDots -}}
{{- else -}}
{{- $errs = append $errs $m.labelRegex -}}
{{- end -}}
{{- end -}}
{{- join "; " $errs -}}
{{- end -}}

{{- /* etcdshapes.subdomainErrors (validation.IsDNS1123Subdomain): dict value
k; the messages joined with "; ", empty when valid. */ -}}
{{- define "etcdshapes.subdomainErrors" -}}
{{- $m := .k.messages -}}
{{- $errs := list -}}
{{- if gt (len .value) 253 }}{{ $errs = append $errs $m.maxLen253 }}{{ end -}}
{{- if not (regexMatch `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$` .value) -}}
{{- $errs = append $errs $m.subdomainRegex -}}
{{- end -}}
{{- join "; " $errs -}}
{{- end -}}

{{- /* etcdshapes.qualifiedNameErrors (validation.IsQualifiedName): dict value
k; the messages joined with "; ", empty when valid. */ -}}
{{- define "etcdshapes.qualifiedNameErrors" -}}
{{- $m := .k.messages -}}
{{- $parts := splitList "/" .value -}}
{{- $errs := list -}}
{{- if gt (len $parts) 2 -}}
{{- $errs = append $errs $m.qnParts -}}
{{- else -}}
{{- $name := last $parts -}}
{{- if eq (len $parts) 2 -}}
{{- $prefix := first $parts -}}
{{- if eq $prefix "" -}}
{{- $errs = append $errs $m.qnPrefixEmpty -}}
{{- else -}}
{{- if gt (len $prefix) 253 }}{{ $errs = append $errs $m.qnPrefixMaxLen }}{{ end -}}
{{- if not (regexMatch `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$` $prefix) }}{{ $errs = append $errs $m.qnPrefixRegex }}{{ end -}}
{{- end -}}
{{- end -}}
{{- if eq $name "" -}}
{{- $errs = append $errs $m.qnEmpty -}}
{{- else if gt (len $name) 63 -}}
{{- $errs = append $errs $m.qnMaxLen -}}
{{- end -}}
{{- if not (regexMatch `^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$` $name) -}}
{{- $errs = append $errs $m.qnRegex -}}
{{- end -}}
{{- end -}}
{{- join "; " $errs -}}
{{- end -}}

{{- /* etcdshapes.tenantNamespace (naming.ValidateTenantNamespace): dict field
value k. */ -}}
{{- define "etcdshapes.tenantNamespace" -}}
{{- $errs := include "etcdshapes.labelErrors" (dict "value" .value "k" .k) -}}
{{- if $errs -}}
{{- include "etcdshapes.fail" (dict "field" .field "value" .value "rule" (printf "must be a namespace name (DNS-1123 label): %s" $errs)) -}}
{{- end -}}
{{- if not (hasPrefix "tenant-" .value) -}}
{{- include "etcdshapes.fail" (dict "field" .field "value" .value "rule" "must be a tenant namespace (\"tenant-<name>\")") -}}
{{- end -}}
{{- range splitList "-" (trimPrefix "tenant-" .value) -}}
{{- if eq . "" -}}
{{- include "etcdshapes.fail" (dict "field" $.field "value" $.value "rule" "must be a tenant namespace: every tenant name on the path must be non-empty") -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.tenantPath (naming.TenantPath): dict namespace k; JSON list of
the tenants on the path to the namespace, shortest first, then the root
tenant unless it is the namespace. */ -}}
{{- define "etcdshapes.tenantPath" -}}
{{- $parts := splitList "-" .namespace -}}
{{- $out := list -}}
{{- range $i := untilStep 2 (add (len $parts) 1 | int) 1 -}}
{{- $out = append $out (slice $parts 0 $i | join "-") -}}
{{- end -}}
{{- if ne .namespace .k.rootTenant }}{{ $out = append $out .k.rootTenant }}{{ end -}}
{{- toJson $out -}}
{{- end -}}

{{- /* etcdshapes.hashTruncate (naming.hashTruncate): dict full limit keep
suffix; full when it fits in limit, else the first keep characters of full
without suffix, one trailing "-" then one trailing "." trimmed, "-", the
first 8 hex digits of sha256(full) and suffix. */ -}}
{{- define "etcdshapes.hashTruncate" -}}
{{- if le (len .full) (int .limit) -}}
{{- .full -}}
{{- else -}}
{{- $r := trimSuffix .suffix .full -}}
{{- if gt (len $r) (int .keep) }}{{ $r = trunc (int .keep) $r }}{{ end -}}
{{- $r = trimSuffix "-" $r | trimSuffix "." -}}
{{- printf "%s-%s%s" $r (sha256sum .full | trunc (int .hashLen)) .suffix -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.names (naming.ForEtcdChart, naming.ForCluster and the
derived names that are not "<cluster>-<suffix>"): dict caller namespace
release k; JSON {namespace release cluster dataStore defragCronJob
cleanupJob}. */ -}}
{{- define "etcdshapes.names" -}}
{{- $k := .k -}}
{{- include "etcdshapes.tenantNamespace" (dict "field" "namespace" "value" .namespace "k" $k) -}}
{{- $n := dict "namespace" .namespace "release" .release -}}
{{- if eq .caller "etcd" -}}
{{- if ne .release $k.etcdChartRelease -}}
{{- include "etcdshapes.fail" (dict "field" "release" "value" .release "rule" (printf "the etcd chart must be installed as release %q" $k.etcdChartRelease)) -}}
{{- end -}}
{{- $_ := set $n "cluster" $k.etcdChartName -}}
{{- $_ := set $n "dataStore" .namespace -}}
{{- else -}}
{{- if eq .release "" -}}
{{- include "etcdshapes.fail" (dict "field" "release" "value" .release "rule" "must not be empty") -}}
{{- end -}}
{{- $errs := include "etcdshapes.labelErrors" (dict "value" .release "k" $k) -}}
{{- if $errs -}}
{{- include "etcdshapes.fail" (dict "field" "release" "value" .release "rule" (printf "must be a DNS-1123 label: %s" $errs)) -}}
{{- end -}}
{{- if not (regexMatch `^[a-z]` .release) -}}
{{- include "etcdshapes.fail" (dict "field" "release" "value" .release "rule" "must start with a letter: etcd-operator names a Service \"<release>-etcd-client\" and Service names are DNS-1035 labels") -}}
{{- end -}}
{{- $name := printf "%s-etcd" .release -}}
{{- if gt (len $name) (int $k.maxClusterName) -}}
{{- include "etcdshapes.fail" (dict "field" "release" "value" .release "rule" (printf "the etcd name %q is %d characters, more than %d (etcd-operator derives pod and Service names from it)" $name (len $name) (int $k.maxClusterName))) -}}
{{- end -}}
{{- $_ := set $n "cluster" $name -}}
{{- $_ := set $n "dataStore" (include "etcdshapes.hashTruncate" (dict "full" (printf "%s.%s" .namespace .release) "limit" $k.maxDataStoreName "keep" $k.dataStoreKeep "hashLen" $k.hashLen "suffix" "")) -}}
{{- end -}}
{{- $_ := set $n "defragCronJob" (include "etcdshapes.hashTruncate" (dict "full" (printf "%s-defrag" $n.cluster) "limit" $k.maxCronJobName "keep" $k.cronJobKeep "hashLen" $k.hashLen "suffix" "-defrag")) -}}
{{- $_ := set $n "cleanupJob" (include "etcdshapes.hashTruncate" (dict "full" (printf "%s-cleanup" $n.cluster) "limit" $k.maxJobName "keep" $k.jobKeep "hashLen" $k.hashLen "suffix" "-cleanup")) -}}
{{- toJson $n -}}
{{- end -}}

{{- /* etcdshapes.int32 (optInt32 in values.go): dict field value; the number
as a decimal string, empty for no value. */ -}}
{{- define "etcdshapes.int32" -}}
{{- $x := .value -}}
{{- if kindIs "invalid" $x -}}
{{- else if kindIs "float64" $x -}}
{{- if or (ne $x (floor $x)) (lt $x -2147483648.0) (gt $x 2147483647.0) -}}
{{- include "etcdshapes.fail" (dict "field" .field "value" $x "rule" "must be a whole number") -}}
{{- end -}}
{{- printf "%d" (int64 $x) -}}
{{- else if or (kindIs "int64" $x) (kindIs "int" $x) -}}
{{- if or (lt (int64 $x) -2147483648) (gt (int64 $x) 2147483647) -}}
{{- include "etcdshapes.fail" (dict "field" .field "value" $x "rule" "must be a whole number that fits 32 bits") -}}
{{- end -}}
{{- printf "%d" $x -}}
{{- else -}}
{{- include "etcdshapes.fail" (dict "field" .field "value" $x "rule" "must be a number") -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.string (optString in values.go): dict field value; the
string, empty for no value. */ -}}
{{- define "etcdshapes.string" -}}
{{- if kindIs "string" .value -}}
{{- .value -}}
{{- else if not (kindIs "invalid" .value) -}}
{{- include "etcdshapes.fail" (dict "field" .field "value" .value "rule" "must be a string") -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.nullRatios (refuseNullRatios in values.go): dict cluster
(the _cluster value as given); a null ratio is refused: the upstream chart
reads it as 0 and divides by it. Helm keeps these nulls (no default). */ -}}
{{- define "etcdshapes.nullRatios" -}}
{{- if kindIs "map" .cluster -}}
{{- range $key := list "cpu-allocation-ratio" "memory-allocation-ratio" "ephemeral-storage-allocation-ratio" -}}
{{- if and (hasKey $.cluster $key) (kindIs "invalid" (get $.cluster $key)) -}}
{{- include "etcdshapes.fail" (dict "field" (printf "_cluster.%s" $key) "value" nil "rule" "must not be null: the chart reads a null ratio as 0 and divides by it") -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.dropNulls (coalesce in values.go): dict in out; copies the
map in into the dict out without its null values, in every map nested in
maps (not in lists), as the library reads values: a null deletes a key.
Helm deletes a null only where values.yaml has a default, and keeps the
other nulls as values. */ -}}
{{- define "etcdshapes.dropNulls" -}}
{{- range $key, $x := .in -}}
{{- if kindIs "map" $x -}}
{{- $m := dict -}}
{{- include "etcdshapes.dropNulls" (dict "in" $x "out" $m) -}}
{{- $_ := set $.out $key $m -}}
{{- else if not (kindIs "invalid" $x) -}}
{{- $_ := set $.out $key $x -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.formatFloat (strconv.FormatFloat(f, 'f', -1, 64)): dict
value; the float64 in decimal without an exponent. toJson writes the same
shortest digits, with an exponent below 1e-6 and from 1e21 on. */ -}}
{{- define "etcdshapes.formatFloat" -}}
{{- $s := toJson .value -}}
{{- if not (contains "e" $s) -}}
{{- $s -}}
{{- else -}}
{{- $sign := ternary "-" "" (hasPrefix "-" $s) -}}
{{- $parts := splitList "e" (trimPrefix "-" $s) -}}
{{- $digits := replace "." "" (first $parts) -}}
{{- /* The point follows the first digit of the mantissa. */ -}}
{{- $point := add 1 (atoi (trimPrefix "+" (last $parts))) -}}
{{- if le $point 0 -}}
{{- printf "%s0.%s%s" $sign (repeat (int (sub 0 $point)) "0") $digits -}}
{{- else if ge $point (len $digits) -}}
{{- printf "%s%s%s" $sign $digits (repeat (int (sub $point (len $digits))) "0") -}}
{{- else -}}
{{- printf "%s%s.%s" $sign (substr 0 (int $point) $digits) (substr (int $point) (len $digits) $digits) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.decodeErrors (strictJSON in values.go: sigs.k8s.io/json's
strict, case-sensitive decoding of the value marshalled to JSON): dict
value type types struct field strict st. types describes the Go types
(jsonType in chartgen), type names the value's; struct, field and strict
are the decoder's context (the innermost struct's name, the path of field
names, the path with keys and indices) and start empty. Sets on the dict
st "typeErr", the first value of the wrong type, and "strictErr", the first
unknown field, in the decoder's words; the decoder reports the first
typeErr if there is one, else the first strictErr. Keys are walked in
order, as json.Marshal writes them; a null decodes to nothing. */ -}}
{{- define "etcdshapes.decodeErrors" -}}
{{- $x := .value -}}
{{- if not (or .st.typeErr (kindIs "invalid" $x)) -}}
{{- $t := get .types .type -}}
{{- $got := "number" -}}
{{- if kindIs "string" $x }}{{ $got = "string" }}{{ else if kindIs "map" $x }}{{ $got = "object" }}{{ else if kindIs "slice" $x }}{{ $got = "array" }}{{ else if kindIs "bool" $x }}{{ $got = "bool" }}{{ end -}}
{{- $want := dict "struct" "object" "map" "object" "slice" "array" "string" "string" "bool" "bool" "int" "number" -}}
{{- $ok := eq $got (get $want $t.kind) -}}
{{- if and $ok (eq $t.kind "int") -}}
{{- /* The number as json.Marshal wrote it must parse as an int of the range. */ -}}
{{- $lit := toJson $x -}}
{{- if or (not (regexMatch `^-?[0-9]+$` $lit)) (lt (float64 $x) (float64 $t.min)) (gt (float64 $x) (float64 $t.max)) -}}
{{- $ok = false -}}
{{- $got = printf "number %s" $lit -}}
{{- end -}}
{{- end -}}
{{- if not $ok -}}
{{- $_ := set .st "typeErr" (printf "json: cannot unmarshal %s into Go struct field %s.%s of type %s" $got .struct .field .type) -}}
{{- else if eq $t.kind "struct" -}}
{{- range $key := keys $x | sortAlpha -}}
{{- $strict := ternary $key (printf "%s.%s" $.strict $key) (eq $.strict "") -}}
{{- if hasKey $t.fields $key -}}
{{- include "etcdshapes.decodeErrors" (dict "value" (get $x $key) "type" (get $t.fields $key) "types" $.types "struct" $t.name "field" (ternary $key (printf "%s.%s" $.field $key) (eq $.field "")) "strict" $strict "st" $.st) -}}
{{- else if not $.st.strictErr -}}
{{- $_ := set $.st "strictErr" (printf "unknown field %q" $strict) -}}
{{- end -}}
{{- end -}}
{{- else if eq $t.kind "slice" -}}
{{- range $i, $e := $x -}}
{{- include "etcdshapes.decodeErrors" (dict "value" $e "type" $t.elem "types" $.types "struct" $.struct "field" $.field "strict" (printf "%s[%d]" $.strict $i) "st" $.st) -}}
{{- end -}}
{{- else if eq $t.kind "map" -}}
{{- range $key := keys $x | sortAlpha -}}
{{- include "etcdshapes.decodeErrors" (dict "value" (get $x $key) "type" $t.elem "types" $.types "struct" $.struct "field" $.field "strict" (ternary $key (printf "%s.%s" $.strict $key) (eq $.strict "")) "st" $.st) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.quantity (optQuantity in values.go, resource.ParseQuantity):
dict field value; JSON {"s": the quantity as written, "f": its value,
"capped": whether ParseQuantity caps it, "num" and "factors": the number
and the binary multiplier, whose product is the exact value}. The value is a float64 computed
the way the chart computes: binary suffixes multiply exactly (mulf), decimal
ones shift the exponent. Like ParseQuantity it rounds a positive value up
to whole nanos and caps a binary-suffixed one at 2^63-1. */ -}}
{{- define "etcdshapes.quantity" -}}
{{- $x := .value -}}
{{- $s := "" -}}
{{- if kindIs "string" $x -}}
{{- $s = $x -}}
{{- else if kindIs "float64" $x -}}
{{- $s = toJson $x -}}
{{- else if or (kindIs "int64" $x) (kindIs "int" $x) -}}
{{- $s = printf "%d" $x -}}
{{- else -}}
{{- include "etcdshapes.fail" (dict "field" .field "value" $x "rule" "must be a quantity (a string such as \"4Gi\" or a number)") -}}
{{- end -}}
{{- /* ParseQuantity's grammar: the number may be empty ("Mi" is 0). */ -}}
{{- $re := `^([+-]?)([0-9]*\.?[0-9]*)(Ki|Mi|Gi|Ti|Pi|Ei|[eE][+-]?[0-9]+|[numkMGTPE]?)$` -}}
{{- if or (eq $s "") (not (regexMatch $re $s)) -}}
{{- include "etcdshapes.fail" (dict "field" .field "value" $x "rule" "must be a Kubernetes quantity such as 4Gi, 10G or 500000000") -}}
{{- end -}}
{{- $num := regexReplaceAll $re $s "${1}${2}" -}}
{{- $suffix := regexReplaceAll $re $s "${3}" -}}
{{- /* Binary multipliers as factors that sprig's decimals hold exactly (it
takes numbers through a float64's shortest form, which rounds 2^60). */ -}}
{{- $binary := dict "Ki" (list 1024) "Mi" (list 1048576) "Gi" (list 1073741824) "Ti" (list 1099511627776) "Pi" (list 1125899906842624) "Ei" (list 1073741824 1073741824) -}}
{{- $decimal := dict "n" -9 "u" -6 "m" -3 "" 0 "k" 3 "M" 6 "G" 9 "T" 12 "P" 15 "E" 18 -}}
{{- $f := 0.0 -}}
{{- $factors := list -}}
{{- $capped := false -}}
{{- if hasKey $binary $suffix -}}
{{- $factors = get $binary $suffix -}}
{{- $f = mulf (float64 $num) (first $factors) (rest $factors | default (list 1) | first) -}}
{{- if ge $f 9223372036854775807.0 }}{{ $f = 9223372036854775807.0 }}{{ $capped = true }}{{ end -}}
{{- else if hasKey $decimal $suffix -}}
{{- $f = float64 (printf "%se%d" $num (get $decimal $suffix)) -}}
{{- else -}}
{{- $f = float64 (printf "%s%s" $num $suffix) -}}
{{- end -}}
{{- /* Below 2^53 nanos the scaled value is exact, so ceil rounds like
inf.RoundUp; above, a float64 holds no fraction of a nano. */ -}}
{{- if and (gt $f 0.0) (lt $f 9007199.0) -}}
{{- $nanos := mulf $f 1000000000 -}}
{{- if ne $nanos (floor $nanos) }}{{ $f = divf (ceil $nanos) 1000000000 }}{{ end -}}
{{- end -}}
{{- toJson (dict "s" $s "f" $f "capped" $capped "num" $num "factors" $factors) -}}
{{- end -}}

{{- /* etcdshapes.quota (etcd.QuotaBackendBytes): dict field q (a parsed
quantity) k; 95% of the size in bytes, printed like "%.0f". */ -}}
{{- define "etcdshapes.quota" -}}
{{- if .q.capped -}}
{{- .k.cappedQuota -}}
{{- else -}}
{{- /* One exact product, rounded once, as the library rounds it. */ -}}
{{- $b := mulf .q.f 0.95 -}}
{{- if .q.factors }}{{ $b = mulf (float64 .q.num) (first .q.factors) (rest .q.factors | default (list 1) | first) 0.95 }}{{ end -}}
{{- if ge $b 9223372036854775807.0 -}}
{{- include "etcdshapes.fail" (dict "field" .field "value" .q.s "rule" "is too large for etcd's int64 quota") -}}
{{- end -}}
{{- $n := printf "%.0f" $b -}}
{{- if lt (float64 $n) 1.0 -}}
{{- include "etcdshapes.fail" (dict "field" .field "value" .q.s "rule" "must be at least one byte of quota") -}}
{{- end -}}
{{- $n -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.ratios (ratioValue in values.go, etcd.Ratios.Validate): dict
cluster (the _cluster map) k; JSON {cpu memory ephemeral} as numbers. */ -}}
{{- define "etcdshapes.ratios" -}}
{{- $cl := .cluster | default dict -}}
{{- $k := .k -}}
{{- $spec := list (list "cpu" "cpu-allocation-ratio") (list "memory" "memory-allocation-ratio") (list "ephemeral" "ephemeral-storage-allocation-ratio") -}}
{{- $raw := dict -}}
{{- range $spec -}}
{{- $field := printf "_cluster.%s" (index . 1) -}}
{{- $x := index $cl (index . 1) -}}
{{- if kindIs "invalid" $x -}}
{{- $_ := set $raw (index . 0) "" -}}
{{- else if and (kindIs "string" $x) (ne $x "") -}}
{{- $_ := set $raw (index . 0) $x -}}
{{- else if kindIs "float64" $x -}}
{{- $_ := set $raw (index . 0) (include "etcdshapes.formatFloat" (dict "value" $x)) -}}
{{- else if or (kindIs "int64" $x) (kindIs "int" $x) -}}
{{- /* helm --set writes whole numbers as integers; values files never do. */ -}}
{{- $_ := set $raw (index . 0) (printf "%d" $x) -}}
{{- else -}}
{{- include "etcdshapes.fail" (dict "field" $field "value" $x "rule" "must be a number above 0") -}}
{{- end -}}
{{- end -}}
{{- $out := dict -}}
{{- range $spec -}}
{{- $field := printf "_cluster.%s" (index . 1) -}}
{{- $s := get $raw (index . 0) -}}
{{- if eq $s "" }}{{ $s = get $k.defaultRatios (index . 0) }}{{ end -}}
{{- /* strconv.ParseFloat's grammar: decimal, hexadecimal, inf, nan. */ -}}
{{- if not (regexMatch `^([+-]?(([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?|0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?[0-9]+|[iI][nN][fF]([iI][nN][iI][tT][yY])?)|[nN][aA][nN])$` $s) -}}
{{- include "etcdshapes.fail" (dict "field" $field "value" $s "rule" "must be a decimal number") -}}
{{- end -}}
{{- $f := float64 $s -}}
{{- if or (not (gt $f 0.0)) (gt $f 1e15) -}}
{{- include "etcdshapes.fail" (dict "field" $field "value" $s "rule" "must be a number above 0 and at most 1e15") -}}
{{- end -}}
{{- $_ := set $out (index . 0) $f -}}
{{- end -}}
{{- toJson $out -}}
{{- end -}}

{{- /* etcdshapes.resourceValues (resourceMap in values.go): dict field value
k; validates a flat map of resource names to quantities and returns it as
JSON. */ -}}
{{- define "etcdshapes.resourceValues" -}}
{{- $x := .value -}}
{{- if kindIs "invalid" $x -}}
{{- toJson dict -}}
{{- else -}}
{{- if not (kindIs "map" $x) -}}
{{- include "etcdshapes.fail" (dict "field" .field "value" $x "rule" "must be a flat map of resource names to quantities") -}}
{{- end -}}
{{- range $nested := list "limits" "requests" -}}
{{- if hasKey $x $nested -}}
{{- include "etcdshapes.fail" (dict "field" (printf "%s.%s" $.field $nested) "value" (get $x $nested) "rule" "a flat map of resources is expected, not nested requests: or limits: sections") -}}
{{- end -}}
{{- end -}}
{{- range $name := keys $x | sortAlpha -}}
{{- $field := printf "%s.%s" $.field $name -}}
{{- $raw := get $x $name -}}
{{- if kindIs "map" $raw -}}
{{- include "etcdshapes.fail" (dict "field" $field "value" $raw "rule" "a flat map of resources is expected, not a nested map") -}}
{{- end -}}
{{- $errs := include "etcdshapes.qualifiedNameErrors" (dict "value" $name "k" $.k) -}}
{{- if $errs -}}
{{- include "etcdshapes.fail" (dict "field" $field "value" $name "rule" (printf "must be a resource name: %s" $errs)) -}}
{{- end -}}
{{- if has $name (list "cpu" "memory") }}{{ include "etcdshapes.schemaWhole" (dict "field" $field "value" $raw) }}{{ end -}}
{{- $q := include "etcdshapes.quantity" (dict "field" $field "value" $raw) | fromJson -}}
{{- if lt $q.f 0.0 -}}
{{- include "etcdshapes.fail" (dict "field" $field "value" $raw "rule" "must not be negative") -}}
{{- end -}}
{{- end -}}
{{- toJson $x -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.schemaWhole (schemaWhole in values.go): dict field value;
refuses a fractional number where the upstream chart's values.schema.json
allows only an integer or a string. */ -}}
{{- define "etcdshapes.schemaWhole" -}}
{{- if and (kindIs "float64" .value) (ne .value (floor .value)) -}}
{{- include "etcdshapes.fail" (dict "field" .field "value" .value "rule" "must be a whole number or a quantity string such as \"1.5\" (the chart's values.schema.json allows an integer or a string here)") -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.sanitize (etcd.SanitizeResources): dict field limits ratios
[bound]; JSON {limits requests}. Limits are the input (a number for cpu,
memory or ephemeral-storage spelled by toString, as upstream's sanitiser
spells it); the cpu request is cpu / cpu ratio printed like %v; memory and
ephemeral-storage requests are the quotient truncated to whole bytes, refused
from 2^63 on (the field is the memory ratio for a VPA bound); any other
resource requests its limit. divf divides like the chart: decimals rounded to
16 places, then a float64. */ -}}
{{- define "etcdshapes.sanitize" -}}
{{- $limits := dict -}}
{{- $requests := dict -}}
{{- range $name := keys .limits | sortAlpha -}}
{{- $raw := get $.limits $name -}}
{{- $q := include "etcdshapes.quantity" (dict "field" (printf "%s.%s" $.field $name) "value" $raw) | fromJson -}}
{{- $s := $q.s -}}
{{- /* The upstream sanitiser prints these limits with toString (%v): the
number 1073741824 is "1.073741824e+09", a spelling the API server keeps. */ -}}
{{- if and (kindIs "float64" $raw) (has $name (list "cpu" "memory" "ephemeral-storage")) }}{{ $s = toString $raw }}{{ end -}}
{{- $_ := set $limits $name $s -}}
{{- if eq $name "cpu" -}}
{{- $_ := set $requests $name (printf "%v" (divf $q.f $.ratios.cpu)) -}}
{{- else if or (eq $name "memory") (eq $name "ephemeral-storage") -}}
{{- $r := ternary $.ratios.memory $.ratios.ephemeral (eq $name "memory") -}}
{{- $b := divf $q.f $r -}}
{{- if ge $b 9223372036854775807.0 -}}
{{- $ratio := include "etcdshapes.formatFloat" (dict "value" $r) -}}
{{- if $.bound -}}
{{- include "etcdshapes.fail" (dict "field" "_cluster.memory-allocation-ratio" "value" $ratio "rule" (printf "is too small: the VPA's memory bound %s divided by it is 2^63 bytes or more, which the chart's integer conversion turns into garbage" $s)) -}}
{{- end -}}
{{- include "etcdshapes.fail" (dict "field" (printf "%s.%s" $.field $name) "value" $s "rule" (printf "divided by the %s allocation ratio %s it makes a request of 2^63 bytes or more, which the chart's integer conversion turns into garbage (a negative request on amd64)" $name $ratio)) -}}
{{- else -}}
{{- $_ := set $requests $name (printf "%d" (int64 $b)) -}}
{{- end -}}
{{- else -}}
{{- $_ := set $requests $name $q.s -}}
{{- end -}}
{{- end -}}
{{- toJson (dict "limits" $limits "requests" $requests) -}}
{{- end -}}

{{- /* etcdshapes.containerResources (validateContainerResource): dict limits
k; the API server's rules for a container resource, which etcd-operator
copies into the member Pods: cpu, memory, ephemeral-storage,
hugepages-<size> or a domain-qualified extended resource outside
kubernetes.io with a whole-number quantity. */ -}}
{{- define "etcdshapes.containerResources" -}}
{{- range $n := keys .limits | sortAlpha -}}
{{- $f := printf "values.resources.%s" $n -}}
{{- if has $n (list "cpu" "memory" "ephemeral-storage") -}}
{{- else if hasPrefix "hugepages-" $n -}}
{{- $size := trimPrefix "hugepages-" $n -}}
{{- if or (eq $size "") (not (regexMatch `^[+-]?[0-9]*\.?[0-9]*(Ki|Mi|Gi|Ti|Pi|Ei|[eE][+-]?[0-9]+|[numkMGTPE]?)$` $size)) -}}
{{- include "etcdshapes.fail" (dict "field" $f "value" $n "rule" "must be hugepages-<page size>, e.g. hugepages-2Mi") -}}
{{- end -}}
{{- else if not (contains "/" $n) -}}
{{- include "etcdshapes.fail" (dict "field" $f "value" $n "rule" "must be cpu, memory, ephemeral-storage, hugepages-<size> or a domain-qualified extended resource such as example.com/device") -}}
{{- else if or (contains "kubernetes.io" (first (splitList "/" $n))) (hasPrefix "requests." $n) -}}
{{- include "etcdshapes.fail" (dict "field" $f "value" $n "rule" "an extended resource must not be in the kubernetes.io domain") -}}
{{- else -}}
{{- $q := include "etcdshapes.quantity" (dict "field" $f "value" (get $.limits $n)) | fromJson -}}
{{- if ne $q.f (floor $q.f) -}}
{{- include "etcdshapes.fail" (dict "field" $f "value" $q.s "rule" "an extended resource must be a whole number") -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.requestsWithinLimits (requestsWithinLimits in options.go):
dict resources ratios; refuses a ratio below 1 where a request would exceed
its limit, which the API server refuses. Quantities in the message are
spelled as written, not canonically. */ -}}
{{- define "etcdshapes.requestsWithinLimits" -}}
{{- $res := .resources -}}
{{- range $r := list (list "cpu" "cpu" "cpu-allocation-ratio") (list "memory" "memory" "memory-allocation-ratio") (list "ephemeral-storage" "ephemeral" "ephemeral-storage-allocation-ratio") -}}
{{- $n := index $r 0 -}}
{{- if and (hasKey $res.limits $n) (hasKey $res.requests $n) -}}
{{- $lim := include "etcdshapes.quantity" (dict "field" "limit" "value" (get $res.limits $n)) | fromJson -}}
{{- $req := include "etcdshapes.quantity" (dict "field" "request" "value" (get $res.requests $n)) | fromJson -}}
{{- if gt $req.f $lim.f -}}
{{- $ratio := get $.ratios (index $r 1) -}}
{{- if ge $ratio 1.0 -}}
{{- include "etcdshapes.fail" (dict "field" (printf "values.resources.%s" $n) "value" $lim.s "rule" (printf "has more digits than the chart's float64 arithmetic keeps: its request %s would exceed it" $req.s)) -}}
{{- end -}}
{{- include "etcdshapes.fail" (dict "field" (printf "_cluster.%s" (index $r 2)) "value" (include "etcdshapes.formatFloat" (dict "value" $ratio)) "rule" (printf "must be at least 1 here: the %s request %s would exceed its limit %s, which the API server refuses" $n $req.s $lim.s)) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.labelValueErrors (validation.IsValidLabelValue): dict value
k; the messages joined with "; ", empty when valid. */ -}}
{{- define "etcdshapes.labelValueErrors" -}}
{{- $errs := list -}}
{{- if gt (len .value) 63 }}{{ $errs = append $errs .k.messages.labelValueMaxLen }}{{ end -}}
{{- if not (regexMatch `^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$` .value) }}{{ $errs = append $errs .k.messages.labelValueRegex }}{{ end -}}
{{- join "; " $errs -}}
{{- end -}}

{{- /* etcdshapes.invalid (field.Invalid for each message): dict field value
msgs (joined with "; ") errs; the errors appended to errs, as JSON. */ -}}
{{- define "etcdshapes.invalid" -}}
{{- $errs := .errs -}}
{{- range $m := splitList "; " .msgs -}}
{{- if $m }}{{ $errs = append $errs (dict "field" $.field "text" (printf "%q" $.value) "rule" $m) }}{{ end -}}
{{- end -}}
{{- toJson $errs -}}
{{- end -}}

{{- /* etcdshapes.selectorErrors (metav1validation.ValidateLabelSelector): dict
value path k; JSON list of errors {field text rule}, empty when valid.
Labels are checked in key order (Go ranges over the map). */ -}}
{{- define "etcdshapes.selectorErrors" -}}
{{- $errs := list -}}
{{- $sel := .value -}}
{{- if kindIs "map" $sel -}}
{{- $p := printf "%s.matchLabels" .path -}}
{{- $labels := $sel.matchLabels | default dict -}}
{{- range $key := keys $labels | sortAlpha -}}
{{- $errs = include "etcdshapes.invalid" (dict "field" $p "value" $key "msgs" (include "etcdshapes.qualifiedNameErrors" (dict "value" $key "k" $.k)) "errs" $errs) | fromJsonArray -}}
{{- $v := toString (get $labels $key) -}}
{{- $errs = include "etcdshapes.invalid" (dict "field" $p "value" $v "msgs" (include "etcdshapes.labelValueErrors" (dict "value" $v "k" $.k)) "errs" $errs) | fromJsonArray -}}
{{- end -}}
{{- range $i, $e := $sel.matchExpressions | default list -}}
{{- $ep := printf "%s.matchExpressions[%d]" $.path $i -}}
{{- $op := $e.operator | default "" -}}
{{- $values := $e.values | default list -}}
{{- if has $op (list "In" "NotIn") -}}
{{- if not $values }}{{ $errs = append $errs (dict "field" (printf "%s.values" $ep) "text" "\"\"" "rule" "must be specified when `operator` is 'In' or 'NotIn'") }}{{ end -}}
{{- else if has $op (list "Exists" "DoesNotExist") -}}
{{- if $values }}{{ $errs = append $errs (dict "field" (printf "%s.values" $ep) "text" "\"\"" "rule" "may not be specified when `operator` is 'Exists' or 'DoesNotExist'") }}{{ end -}}
{{- else -}}
{{- $errs = append $errs (dict "field" (printf "%s.operator" $ep) "text" (toString $op) "rule" "not a valid selector operator") -}}
{{- end -}}
{{- $key := $e.key | default "" -}}
{{- $errs = include "etcdshapes.invalid" (dict "field" (printf "%s.key" $ep) "value" $key "msgs" (include "etcdshapes.qualifiedNameErrors" (dict "value" $key "k" $.k)) "errs" $errs) | fromJsonArray -}}
{{- range $j, $v := $values -}}
{{- $errs = include "etcdshapes.invalid" (dict "field" (printf "%s.values[%d]" $ep $j) "value" (toString $v) "msgs" (include "etcdshapes.labelValueErrors" (dict "value" (toString $v) "k" $.k)) "errs" $errs) | fromJsonArray -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- toJson $errs -}}
{{- end -}}

{{- /* etcdshapes.nodeSelectorTermErrors (validateNodeSelectorTerm in
options.go): dict value path k; JSON list of errors. */ -}}
{{- define "etcdshapes.nodeSelectorTermErrors" -}}
{{- $errs := list -}}
{{- $t := .value | default dict -}}
{{- range $i, $r := $t.matchExpressions | default list -}}
{{- $rp := printf "%s.matchExpressions[%d]" $.path $i -}}
{{- $key := $r.key | default "" -}}
{{- $errs = include "etcdshapes.invalid" (dict "field" (printf "%s.key" $rp) "value" $key "msgs" (include "etcdshapes.qualifiedNameErrors" (dict "value" $key "k" $.k)) "errs" $errs) | fromJsonArray -}}
{{- $op := $r.operator | default "" -}}
{{- $values := $r.values | default list -}}
{{- if has $op (list "In" "NotIn") -}}
{{- if not $values }}{{ $errs = append $errs (dict "field" (printf "%s.values" $rp) "text" "\"\"" "rule" "must be given for operator In or NotIn") }}{{ end -}}
{{- else if has $op (list "Exists" "DoesNotExist") -}}
{{- if $values }}{{ $errs = append $errs (dict "field" (printf "%s.values" $rp) "text" "\"\"" "rule" "must be empty for operator Exists or DoesNotExist") }}{{ end -}}
{{- else if has $op (list "Gt" "Lt") -}}
{{- if ne (len $values) 1 }}{{ $errs = append $errs (dict "field" (printf "%s.values" $rp) "text" "\"\"" "rule" "must be a single value for operator Gt or Lt") }}{{ end -}}
{{- else -}}
{{- $errs = append $errs (dict "field" (printf "%s.operator" $rp) "text" (toString $op) "rule" "supported values: \"In\", \"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\", \"Lt\"") -}}
{{- end -}}
{{- range $j, $v := $values -}}
{{- $errs = include "etcdshapes.invalid" (dict "field" (printf "%s.values[%d]" $rp $j) "value" (toString $v) "msgs" (include "etcdshapes.labelValueErrors" (dict "value" (toString $v) "k" $.k)) "errs" $errs) | fromJsonArray -}}
{{- end -}}
{{- end -}}
{{- range $i, $r := $t.matchFields | default list -}}
{{- $rp := printf "%s.matchFields[%d]" $.path $i -}}
{{- if ne ($r.key | default "") "metadata.name" -}}
{{- $errs = append $errs (dict "field" (printf "%s.key" $rp) "text" (printf "%q" ($r.key | default "")) "rule" "supported values: \"metadata.name\"") -}}
{{- end -}}
{{- if not (has ($r.operator | default "") (list "In" "NotIn")) -}}
{{- $errs = append $errs (dict "field" (printf "%s.operator" $rp) "text" (toString ($r.operator | default "")) "rule" "supported values: \"In\", \"NotIn\"") -}}
{{- else if ne (len ($r.values | default list)) 1 -}}
{{- $errs = append $errs (dict "field" (printf "%s.values" $rp) "text" "\"\"" "rule" "must have exactly one value") -}}
{{- end -}}
{{- end -}}
{{- toJson $errs -}}
{{- end -}}

{{- /* etcdshapes.podAffinityTermErrors (validatePodAffinityTerm in
options.go): dict value path k; JSON list of errors. */ -}}
{{- define "etcdshapes.podAffinityTermErrors" -}}
{{- $errs := list -}}
{{- $t := .value | default dict -}}
{{- $key := $t.topologyKey | default "" -}}
{{- if eq $key "" }}{{ $errs = append $errs (dict "field" (printf "%s.topologyKey" .path) "text" "\"\"" "rule" "must not be empty") }}{{ end -}}
{{- $errs = include "etcdshapes.invalid" (dict "field" (printf "%s.topologyKey" .path) "value" $key "msgs" (include "etcdshapes.qualifiedNameErrors" (dict "value" $key "k" .k)) "errs" $errs) | fromJsonArray -}}
{{- $errs = concat $errs (include "etcdshapes.selectorErrors" (dict "value" $t.labelSelector "path" (printf "%s.labelSelector" .path) "k" .k) | fromJsonArray) -}}
{{- $errs = concat $errs (include "etcdshapes.selectorErrors" (dict "value" $t.namespaceSelector "path" (printf "%s.namespaceSelector" .path) "k" .k) | fromJsonArray) -}}
{{- range $i, $ns := $t.namespaces | default list -}}
{{- $errs = include "etcdshapes.invalid" (dict "field" (printf "%s.namespaces[%d]" $.path $i) "value" (toString $ns) "msgs" (include "etcdshapes.labelErrors" (dict "value" (toString $ns) "k" $.k)) "errs" $errs) | fromJsonArray -}}
{{- end -}}
{{- $selKeys := list -}}
{{- if kindIs "map" $t.labelSelector -}}
{{- $selKeys = keys ($t.labelSelector.matchLabels | default dict) -}}
{{- range $e := $t.labelSelector.matchExpressions | default list }}{{ $selKeys = append $selKeys ($e.key | default "") }}{{ end -}}
{{- end -}}
{{- range $name := list "matchLabelKeys" "mismatchLabelKeys" -}}
{{- range $i, $mk := get $t $name | default list -}}
{{- $f := printf "%s.%s[%d]" $.path $name $i -}}
{{- $errs = include "etcdshapes.invalid" (dict "field" $f "value" (toString $mk) "msgs" (include "etcdshapes.qualifiedNameErrors" (dict "value" (toString $mk) "k" $.k)) "errs" $errs) | fromJsonArray -}}
{{- if has $mk $selKeys }}{{ $errs = append $errs (dict "field" $f "text" (printf "%q" $mk) "rule" "must not be a key of the term's labelSelector") }}{{ end -}}
{{- end -}}
{{- end -}}
{{- toJson $errs -}}
{{- end -}}

{{- /* etcdshapes.affinity (validateAffinity in options.go: the API server's
Pod rules, since etcd-operator copies the affinity into the member Pods):
dict value k; fails with the first error. */ -}}
{{- define "etcdshapes.affinity" -}}
{{- $a := .value -}}
{{- $p := "values.affinity" -}}
{{- $errs := list -}}
{{- $weight := "must be in the range 1-100" -}}
{{- if kindIs "map" $a.nodeAffinity -}}
{{- $np := printf "%s.nodeAffinity" $p -}}
{{- $r := $a.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution -}}
{{- if kindIs "map" $r -}}
{{- $rp := printf "%s.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms" $np -}}
{{- if not $r.nodeSelectorTerms }}{{ $errs = append $errs (dict "field" $rp "text" "\"\"" "rule" "must have at least one node selector term") }}{{ end -}}
{{- range $i, $t := $r.nodeSelectorTerms | default list -}}
{{- $errs = concat $errs (include "etcdshapes.nodeSelectorTermErrors" (dict "value" $t "path" (printf "%s[%d]" $rp $i) "k" $.k) | fromJsonArray) -}}
{{- end -}}
{{- end -}}
{{- range $i, $t := $a.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution | default list -}}
{{- $tp := printf "%s.preferredDuringSchedulingIgnoredDuringExecution[%d]" $np $i -}}
{{- $w := $t.weight | default 0 -}}
{{- if or (lt (float64 $w) 1.0) (gt (float64 $w) 100.0) }}{{ $errs = append $errs (dict "field" (printf "%s.weight" $tp) "text" (toString $w) "rule" $weight) }}{{ end -}}
{{- $errs = concat $errs (include "etcdshapes.nodeSelectorTermErrors" (dict "value" $t.preference "path" (printf "%s.preference" $tp) "k" $.k) | fromJsonArray) -}}
{{- end -}}
{{- end -}}
{{- range $name := list "podAffinity" "podAntiAffinity" -}}
{{- $pa := get $a $name -}}
{{- if kindIs "map" $pa -}}
{{- $pp := printf "%s.%s" $p $name -}}
{{- range $i, $t := $pa.requiredDuringSchedulingIgnoredDuringExecution | default list -}}
{{- $errs = concat $errs (include "etcdshapes.podAffinityTermErrors" (dict "value" $t "path" (printf "%s.requiredDuringSchedulingIgnoredDuringExecution[%d]" $pp $i) "k" $.k) | fromJsonArray) -}}
{{- end -}}
{{- range $i, $t := $pa.preferredDuringSchedulingIgnoredDuringExecution | default list -}}
{{- $tp := printf "%s.preferredDuringSchedulingIgnoredDuringExecution[%d]" $pp $i -}}
{{- $w := $t.weight | default 0 -}}
{{- if or (lt (float64 $w) 1.0) (gt (float64 $w) 100.0) }}{{ $errs = append $errs (dict "field" (printf "%s.weight" $tp) "text" (toString $w) "rule" $weight) }}{{ end -}}
{{- $errs = concat $errs (include "etcdshapes.podAffinityTermErrors" (dict "value" $t.podAffinityTerm "path" (printf "%s.podAffinityTerm" $tp) "k" $.k) | fromJsonArray) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- with $errs }}{{ include "etcdshapes.fail" (first .) }}{{ end -}}
{{- end -}}

{{- /* etcdshapes.spread (ParseSpreadConstraints in values.go and the
constraint checks of etcd.Options.Validate, the API server's Pod rules):
dict value k; JSON list of the global constraints as given, empty for none. */ -}}
{{- define "etcdshapes.spread" -}}
{{- $field := "_cluster.scheduling.globalAppTopologySpreadConstraints" -}}
{{- $x := .value -}}
{{- $rule := "must be a YAML string holding a topologySpreadConstraints: list of constraints" -}}
{{- if kindIs "invalid" $x -}}
{{- toJson list -}}
{{- else if not (kindIs "string" $x) -}}
{{- include "etcdshapes.fail" (dict "field" $field "value" $x "rule" "must be a YAML string holding a topologySpreadConstraints: list") -}}
{{- else if eq $x "" -}}
{{- /* Only "" is none: upstream renders anything else as constraints. */ -}}
{{- toJson list -}}
{{- else -}}
{{- $doc := fromYaml $x -}}
{{- if hasKey $doc "Error" -}}
{{- include "etcdshapes.fail" (dict "field" $field "value" $x "rule" (printf "%s: %s" $rule $doc.Error)) -}}
{{- end -}}
{{- range $key := keys $doc | sortAlpha -}}
{{- if ne $key "topologySpreadConstraints" -}}
{{- include "etcdshapes.fail" (dict "field" $field "value" $x "rule" (printf "%s: unknown field %q" $rule $key)) -}}
{{- end -}}
{{- end -}}
{{- $list := $doc.topologySpreadConstraints -}}
{{- if not $list -}}
{{- include "etcdshapes.fail" (dict "field" $field "value" $x "rule" "must hold a non-empty topologySpreadConstraints: list") -}}
{{- end -}}
{{- if not (kindIs "slice" $list) -}}
{{- include "etcdshapes.fail" (dict "field" $field "value" $x "rule" (printf "%s: topologySpreadConstraints must be a list" $rule)) -}}
{{- end -}}
{{- $known := list "labelSelector" "matchLabelKeys" "maxSkew" "minDomains" "nodeAffinityPolicy" "nodeTaintsPolicy" "topologyKey" "whenUnsatisfiable" -}}
{{- range $i, $c := $list -}}
{{- $at := printf "%s[%d]" $field $i -}}
{{- if not (kindIs "map" $c) -}}
{{- include "etcdshapes.fail" (dict "field" $field "value" $x "rule" (printf "%s: item %d must be a map" $rule $i)) -}}
{{- end -}}
{{- range $key := keys $c | sortAlpha -}}
{{- if not (has $key $known) -}}
{{- include "etcdshapes.fail" (dict "field" $field "value" $x "rule" (printf "%s: unknown field \"topologySpreadConstraints[%d].%s\"" $rule $i $key)) -}}
{{- end -}}
{{- end -}}
{{- range $key := list "maxSkew" "minDomains" -}}
{{- $n := get $c $key -}}
{{- if and (hasKey $c $key) (not (kindIs "invalid" $n)) (or (not (kindIs "float64" $n)) (ne $n (floor $n))) -}}
{{- include "etcdshapes.fail" (dict "field" $field "value" $x "rule" (printf "%s: %s must be a whole number" $rule $key)) -}}
{{- end -}}
{{- end -}}
{{- $ml := get $c "matchLabelKeys" -}}
{{- if and (hasKey $c "matchLabelKeys") (not (kindIs "invalid" $ml)) (not (kindIs "slice" $ml)) -}}
{{- include "etcdshapes.fail" (dict "field" $field "value" $x "rule" (printf "%s: matchLabelKeys must be a list" $rule)) -}}
{{- end -}}
{{- range $key := list "topologyKey" "whenUnsatisfiable" "nodeAffinityPolicy" "nodeTaintsPolicy" -}}
{{- if and (hasKey $c $key) (not (kindIs "invalid" (get $c $key))) (not (kindIs "string" (get $c $key))) -}}
{{- include "etcdshapes.fail" (dict "field" $field "value" $x "rule" (printf "%s: %s must be a string" $rule $key)) -}}
{{- end -}}
{{- end -}}
{{- $sel := get $c "labelSelector" -}}
{{- if and (hasKey $c "labelSelector") (not (kindIs "invalid" $sel)) (not (kindIs "map" $sel)) -}}
{{- include "etcdshapes.fail" (dict "field" $field "value" $x "rule" (printf "%s: labelSelector must be a label selector" $rule)) -}}
{{- end -}}
{{- end -}}
{{- range $i, $c := $list -}}
{{- $at := printf "%s[%d]" $field $i -}}
{{- $skew := $c.maxSkew | default 0 -}}
{{- if lt (float64 $skew) 1.0 -}}
{{- include "etcdshapes.fail" (dict "field" (printf "%s.maxSkew" $at) "value" (int64 $skew) "rule" "must be at least 1") -}}
{{- end -}}
{{- $key := $c.topologyKey | default "" -}}
{{- if eq $key "" -}}
{{- include "etcdshapes.fail" (dict "field" (printf "%s.topologyKey" $at) "value" $key "rule" "must not be empty") -}}
{{- end -}}
{{- if include "etcdshapes.qualifiedNameErrors" (dict "value" $key "k" $.k) -}}
{{- include "etcdshapes.fail" (dict "field" (printf "%s.topologyKey" $at) "value" $key "rule" "must be a label key") -}}
{{- end -}}
{{- $when := $c.whenUnsatisfiable | default "" -}}
{{- if not (has $when (list "DoNotSchedule" "ScheduleAnyway")) -}}
{{- include "etcdshapes.fail" (dict "field" (printf "%s.whenUnsatisfiable" $at) "value" $when "rule" "must be DoNotSchedule or ScheduleAnyway") -}}
{{- end -}}
{{- range $j, $b := slice $list 0 $i -}}
{{- if and (eq ($b.topologyKey | default "") $key) (eq ($b.whenUnsatisfiable | default "") $when) -}}
{{- include "etcdshapes.fail" (dict "field" $at "value" (printf "%s, %s" $key $when) "rule" (printf "repeats the topologyKey and whenUnsatisfiable of constraint [%d]; the API server refuses duplicates" $j)) -}}
{{- end -}}
{{- end -}}
{{- if not (kindIs "invalid" $c.minDomains) -}}
{{- if lt (float64 $c.minDomains) 1.0 -}}
{{- include "etcdshapes.fail" (dict "field" (printf "%s.minDomains" $at) "value" (int64 $c.minDomains) "rule" "must be at least 1") -}}
{{- end -}}
{{- if ne $when "DoNotSchedule" -}}
{{- include "etcdshapes.fail" (dict "field" (printf "%s.minDomains" $at) "value" (int64 $c.minDomains) "rule" "can only be used with whenUnsatisfiable: DoNotSchedule") -}}
{{- end -}}
{{- end -}}
{{- range $pol := list "nodeAffinityPolicy" "nodeTaintsPolicy" -}}
{{- $p := get $c $pol -}}
{{- if and (hasKey $c $pol) (not (kindIs "invalid" $p)) (not (has $p (list "Honor" "Ignore"))) -}}
{{- include "etcdshapes.fail" (dict "field" (printf "%s.%s" $at $pol) "value" $p "rule" "must be Honor or Ignore") -}}
{{- end -}}
{{- end -}}
{{- with include "etcdshapes.selectorErrors" (dict "value" (get $c "labelSelector") "path" (printf "%s.labelSelector" $at) "k" $.k) | fromJsonArray -}}
{{- include "etcdshapes.fail" (first .) -}}
{{- end -}}
{{- /* The config adds a selector on the members when there is none. */ -}}
{{- $selKeys := list -}}
{{- $sel := get $c "labelSelector" -}}
{{- if kindIs "map" $sel -}}
{{- $selKeys = keys ($sel.matchLabels | default dict) -}}
{{- range $e := $sel.matchExpressions | default list }}{{ if kindIs "map" $e }}{{ $selKeys = append $selKeys ($e.key | default "") }}{{ end }}{{ end -}}
{{- else -}}
{{- $selKeys = list $.k.instanceLabel -}}
{{- end -}}
{{- range $j, $mk := $c.matchLabelKeys | default list -}}
{{- $f := printf "%s.matchLabelKeys[%d]" $at $j -}}
{{- if or (not (kindIs "string" $mk)) (include "etcdshapes.qualifiedNameErrors" (dict "value" (toString $mk) "k" $.k)) -}}
{{- include "etcdshapes.fail" (dict "field" $f "value" $mk "rule" "must be a label key") -}}
{{- end -}}
{{- if has $mk $selKeys -}}
{{- include "etcdshapes.fail" (dict "field" $f "value" $mk "rule" "must not be a key of the constraint's labelSelector") -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- toJson $list -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.platform (platformValues in values.go): dict cluster (the
_cluster map) k c; sets ratios, spread, storageClassLocal and
storageClassReplicated on the config c. */ -}}
{{- define "etcdshapes.platform" -}}
{{- $cl := .cluster -}}
{{- if kindIs "invalid" $cl }}{{ $cl = dict }}{{ end -}}
{{- if not (kindIs "map" $cl) -}}
{{- include "etcdshapes.fail" (dict "field" "_cluster" "value" $cl "rule" "must be a map") -}}
{{- end -}}
{{- $_ := set .c "ratios" (include "etcdshapes.ratios" (dict "cluster" $cl "k" .k) | fromJson) -}}
{{- $_ := set .c "storageClassLocal" (include "etcdshapes.string" (dict "field" "_cluster.etcd-storage-class-local" "value" (index $cl "etcd-storage-class-local"))) -}}
{{- $_ := set .c "storageClassReplicated" (include "etcdshapes.string" (dict "field" "_cluster.etcd-storage-class-replicated" "value" (index $cl "etcd-storage-class-replicated"))) -}}
{{- $spread := list -}}
{{- $sched := index $cl "scheduling" -}}
{{- if not (kindIs "invalid" $sched) -}}
{{- if not (kindIs "map" $sched) -}}
{{- include "etcdshapes.fail" (dict "field" "_cluster.scheduling" "value" $sched "rule" "must be a map") -}}
{{- end -}}
{{- $spread = include "etcdshapes.spread" (dict "value" (index $sched "globalAppTopologySpreadConstraints") "k" .k) | fromJsonArray -}}
{{- end -}}
{{- $_ := set .c "spread" $spread -}}
{{- end -}}

{{- /* etcdshapes.storageClassName (validateStorageClass in validate.go): dict
field value k. */ -}}
{{- define "etcdshapes.storageClassName" -}}
{{- if and .value (include "etcdshapes.subdomainErrors" (dict "value" .value "k" .k)) -}}
{{- include "etcdshapes.fail" (dict "field" .field "value" .value "rule" "must be a StorageClass name (DNS-1123 subdomain)") -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.etcdValues (EtcdChartOptionsFromValues): dict values k c; reads
the etcd chart's values into the config c. A value of the wrong type is
refused here, with the library's message (values.schema.json types nothing);
past the unknown-key check a null is no value, at any depth of maps. */ -}}
{{- define "etcdshapes.etcdValues" -}}
{{- $v := .values -}}
{{- $k := .k -}}
{{- $c := .c -}}
{{- range $key := keys $v | sortAlpha -}}
{{- if not (has $key $k.etcdChartKeys) -}}
{{- include "etcdshapes.fail" (dict "field" (ternary "\"\"" $key (eq $key "")) "value" (get $v $key) "rule" (printf "is not a value of this chart (known: %s)" (join ", " $k.etcdChartKeys))) -}}
{{- end -}}
{{- end -}}
{{- /* Helm deletes a values.yaml default for a null: an absent version,
replicas or size was set to null (EtcdChartOptionsFromValues refuses it). */ -}}
{{- range $key := list "version" "replicas" "size" -}}
{{- if or (not (hasKey $.values $key)) (kindIs "invalid" (get $.values $key)) -}}
{{- $default := get (dict "version" $k.defaultVersion "replicas" (toString $k.defaultReplicas) "size" $k.defaultSize) $key -}}
{{- include "etcdshapes.fail" (dict "field" (printf "values.%s" $key) "value" nil "rule" (printf "must be set: null would remove the chart's default %q, and the chart cannot render without it" $default)) -}}
{{- end -}}
{{- end -}}
{{- $v = dict -}}
{{- include "etcdshapes.dropNulls" (dict "in" .values "out" $v) -}}
{{- /* An empty version is refused, not defaulted (the chart would render
version: ""). */ -}}
{{- $version := include "etcdshapes.string" (dict "field" "values.version" "value" $v.version) -}}
{{- if not (regexMatch `^[0-9]+\.[0-9]+\.[0-9]+$` $version) -}}
{{- include "etcdshapes.fail" (dict "field" "values.version" "value" $version "rule" (printf "must be an etcd version X.Y.Z, e.g. %q" $k.defaultVersion)) -}}
{{- end -}}
{{- $_ := set $c "version" $version -}}
{{- $replicas := include "etcdshapes.int32" (dict "field" "values.replicas" "value" $v.replicas) -}}
{{- if eq $replicas "" }}{{ $replicas = toString $k.defaultReplicas }}{{ end -}}
{{- if lt (atoi $replicas) 1 -}}
{{- include "etcdshapes.fail" (dict "field" "values.replicas" "value" $v.replicas "rule" "must be at least 1") -}}
{{- end -}}
{{- $_ := set $c "replicas" $replicas -}}
{{- $size := $v.size -}}
{{- if kindIs "invalid" $size }}{{ $size = $k.defaultSize }}{{ end -}}
{{- include "etcdshapes.schemaWhole" (dict "field" "values.size" "value" $size) -}}
{{- $q := include "etcdshapes.quantity" (dict "field" "values.size" "value" $size) | fromJson -}}
{{- if le $q.f 0.0 -}}
{{- include "etcdshapes.fail" (dict "field" "values.size" "value" $size "rule" "must be a positive quantity of bytes") -}}
{{- end -}}
{{- $_ := set $c "sizeQuantity" $q -}}
{{- $_ := set $c "storageClass" (include "etcdshapes.string" (dict "field" "values.storageClass" "value" $v.storageClass)) -}}
{{- $_ := set $c "limits" (include "etcdshapes.resourceValues" (dict "field" "values.resources" "value" $v.resources "k" $k) | fromJson) -}}
{{- $affinity := $v.affinity -}}
{{- if kindIs "invalid" $affinity }}{{ $affinity = dict }}{{ end -}}
{{- if not (kindIs "map" $affinity) -}}
{{- include "etcdshapes.fail" (dict "field" "values.affinity" "value" $affinity "rule" "must be a map (a pod affinity)") -}}
{{- end -}}
{{- $st := dict -}}
{{- include "etcdshapes.decodeErrors" (dict "value" $affinity "type" $k.affinityType "types" $k.affinityTypes "struct" "" "field" "" "strict" "" "st" $st) -}}
{{- with $st.typeErr | default $st.strictErr -}}
{{- include "etcdshapes.fail" (dict "field" "values.affinity" "value" (toJson $affinity) "rule" (printf "must be a pod affinity: %s" .)) -}}
{{- end -}}
{{- $_ := set $c "affinity" $affinity -}}
{{- include "etcdshapes.nullRatios" (dict "cluster" (index .values "_cluster")) -}}
{{- include "etcdshapes.platform" (dict "cluster" (index $v "_cluster") "k" $k "c" $c) -}}
{{- end -}}

{{- /* etcdshapes.clusterValues (ClusterOptionsFromValues): dict values k c;
reads the kubernetes chart's etcd values into the config c. The chart's
other values are not the etcd's concern. As in etcdshapes.etcdValues, a
wrong type is refused here and a null is no value. */ -}}
{{- define "etcdshapes.clusterValues" -}}
{{- $k := .k -}}
{{- $c := .c -}}
{{- $e := .values.etcd -}}
{{- if kindIs "invalid" $e }}{{ $e = dict }}{{ end -}}
{{- if not (kindIs "map" $e) -}}
{{- include "etcdshapes.fail" (dict "field" "etcd" "value" $e "rule" "must be a map") -}}
{{- end -}}
{{- $m := dict -}}
{{- include "etcdshapes.dropNulls" (dict "in" $e "out" $m) -}}
{{- $e = $m -}}
{{- range $key := keys $e | sortAlpha -}}
{{- if not (has $key $k.clusterEtcdKeys) -}}
{{- include "etcdshapes.fail" (dict "field" (printf "etcd.%s" (ternary "\"\"" $key (eq $key ""))) "value" (get $e $key) "rule" (printf "is not a value of this chart (known: %s)" (join ", " $k.clusterEtcdKeys))) -}}
{{- end -}}
{{- end -}}
{{- $replicas := include "etcdshapes.int32" (dict "field" "etcd.replicas" "value" $e.replicas) -}}
{{- if eq $replicas "" }}{{ $replicas = toString $k.defaultReplicas }}{{ end -}}
{{- if not (has (atoi $replicas | float64) $k.clusterReplicas) -}}
{{- include "etcdshapes.fail" (dict "field" "etcd.replicas" "value" $e.replicas "rule" "must be 1 or 3") -}}
{{- end -}}
{{- $_ := set $c "replicas" $replicas -}}
{{- $_ := set $c "version" $k.defaultVersion -}}
{{- $_ := set $c "sizeQuantity" (include "etcdshapes.quantity" (dict "field" "values.size" "value" $k.defaultSize) | fromJson) -}}
{{- $_ := set $c "limits" $k.defaultResources -}}
{{- $_ := set $c "affinity" dict -}}
{{- $cl := index .values "_cluster" -}}
{{- include "etcdshapes.nullRatios" (dict "cluster" $cl) -}}
{{- if kindIs "map" $cl -}}
{{- $m := dict -}}
{{- include "etcdshapes.dropNulls" (dict "in" $cl "out" $m) -}}
{{- $cl = $m -}}
{{- end -}}
{{- include "etcdshapes.platform" (dict "cluster" $cl "k" $k "c" $c) -}}
{{- end -}}

{{- /* etcdshapes.live (Cluster's live state, validateLive): dict root c k;
reads the live KamajiControlPlane (named like the release) and EtcdCluster
with lookup, sets storageClass and render on the config c. A live
EtcdCluster's class wins, even an empty one (the field is immutable); a
KamajiControlPlane on another datastore keeps the cluster there and
nothing is rendered (moving it would start a Kamaji datastore migration). */ -}}
{{- define "etcdshapes.live" -}}
{{- $c := .c -}}
{{- $k := .k -}}
{{- $kcp := lookup $k.kamajiControlPlane.apiVersion $k.kamajiControlPlane.kind $c.namespace $c.release -}}
{{- $ds := "" -}}
{{- if $kcp }}{{ $ds = dig "spec" "dataStoreName" "" $kcp }}{{ end -}}
{{- if and $ds (include "etcdshapes.subdomainErrors" (dict "value" $ds "k" $k)) -}}
{{- include "etcdshapes.fail" (dict "field" "live.dataStoreName" "value" $ds "rule" "must be a DataStore name (DNS-1123 subdomain)") -}}
{{- end -}}
{{- $ec := lookup $k.etcdCluster.apiVersion $k.etcdCluster.kind $c.namespace $c.cluster -}}
{{- $sc := ternary $c.storageClassReplicated $c.storageClassLocal (eq $c.replicas "1") -}}
{{- if $ec -}}
{{- $sc = dig "spec" "storage" "storageClassName" "" $ec -}}
{{- include "etcdshapes.storageClassName" (dict "field" "live.storageClassName" "value" $sc "k" $k) -}}
{{- end -}}
{{- include "etcdshapes.storageClassName" (dict "field" "_cluster.etcd-storage-class-local" "value" $c.storageClassLocal "k" $k) -}}
{{- include "etcdshapes.storageClassName" (dict "field" "_cluster.etcd-storage-class-replicated" "value" $c.storageClassReplicated "k" $k) -}}
{{- $_ := set $c "storageClass" $sc -}}
{{- $_ := set $c "render" (or (not $ds) (eq $ds $c.dataStore)) -}}
{{- end -}}

{{- /* etcdshapes.config (etcdshapes.Render): dict root caller [values]; JSON of
every value the shapes use ($c in _etcdshapes_<caller>.tpl). root is the
calling chart's root context; values default to root.Values. The checks run
in the library's order, so the first refusal is the library's. */ -}}
{{- define "etcdshapes.config" -}}
{{- $root := .root -}}
{{- $v := .values -}}
{{- if not $v }}{{ $v = $root.Values }}{{ end -}}
{{- $k := include "etcdshapes.constants" . | fromJson -}}
{{- $c := dict "caller" .caller "chartVersion" $root.Chart.Version "render" true -}}
{{- if eq .caller "etcd" -}}
{{- include "etcdshapes.etcdValues" (dict "values" $v "k" $k "c" $c) -}}
{{- else if eq .caller "cluster" -}}
{{- include "etcdshapes.clusterValues" (dict "values" $v "k" $k "c" $c) -}}
{{- else -}}
{{- include "etcdshapes.fail" (dict "field" "caller" "value" .caller "rule" "must be \"etcd\" or \"cluster\"") -}}
{{- end -}}
{{- $n := include "etcdshapes.names" (dict "caller" .caller "namespace" $root.Release.Namespace "release" $root.Release.Name "k" $k) | fromJson -}}
{{- $c = merge $c $n -}}
{{- if eq .caller "cluster" -}}
{{- include "etcdshapes.live" (dict "c" $c "k" $k) -}}
{{- end -}}
{{- if gt (atoi $c.replicas) (int $k.maxReplicas) -}}
{{- include "etcdshapes.fail" (dict "field" "values.replicas" "value" (atoi $c.replicas) "rule" (printf "must be at most %d (etcd advises at most 7 members)" (int $k.maxReplicas))) -}}
{{- end -}}
{{- $_ := set $c "size" $c.sizeQuantity.s -}}
{{- $_ := set $c "quota" (include "etcdshapes.quota" (dict "field" "values.size" "q" $c.sizeQuantity "k" $k)) -}}
{{- include "etcdshapes.storageClassName" (dict "field" "values.storageClass" "value" $c.storageClass "k" $k) -}}
{{- $_ := set $c "resources" dict -}}
{{- if $c.limits -}}
{{- include "etcdshapes.containerResources" (dict "limits" $c.limits "k" $k) -}}
{{- $res := include "etcdshapes.sanitize" (dict "field" "values.resources" "limits" $c.limits "ratios" $c.ratios) | fromJson -}}
{{- include "etcdshapes.requestsWithinLimits" (dict "resources" $res "ratios" $c.ratios) -}}
{{- $_ := set $c "resources" $res -}}
{{- end -}}
{{- if $c.affinity }}{{ include "etcdshapes.affinity" (dict "value" $c.affinity "k" $k) }}{{ end -}}
{{- $spread := list -}}
{{- range $s := $c.spread -}}
{{- if not (kindIs "map" (get $s "labelSelector")) -}}
{{- $_ := set $s "labelSelector" (dict "matchLabels" (dict $k.instanceLabel $c.cluster)) -}}
{{- end -}}
{{- $spread = append $spread $s -}}
{{- end -}}
{{- $_ := set $c "spread" $spread -}}
{{- $replicas := atoi $c.replicas -}}
{{- $_ := set $c "minReplicas" (toString (add1 (div $replicas 2))) -}}
{{- $pvcs := list -}}
{{- range $i := until $replicas }}{{ $pvcs = append $pvcs (printf "data-%s-%d" $c.cluster $i) }}{{ end -}}
{{- $_ := set $c "pvcs" $pvcs -}}
{{- $_ := set $c "tenants" (include "etcdshapes.tenantPath" (dict "namespace" $c.namespace "k" $k) | fromJsonArray) -}}
{{- toJson $c -}}
{{- end -}}
