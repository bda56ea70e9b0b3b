{{- /*
Every rule of the library, in its order, refusing with its message
("<field>: invalid value <value>: <rule>"). Each helper is the twin of the
Go function its comment names; roundtrip/ compares them. Types are
values.schema.json's: Helm refuses a wrong type before any template runs.
*/ -}}
{{- /* etcdshapes.check.fail (naming.Errorf, naming.Error): dict or list
field value rule; the value printed as naming.FormatValue prints it, each
part cut with "…" at 200, 120 and 1000 bytes; field and rule escaped. */ -}}
{{- define "etcdshapes.check.fail" -}}
{{- $a := . }}{{ if kindIs "slice" . }}{{ $a = dict "field" (index . 0) "value" (index . 1) "rule" (index . 2) }}{{ end -}}
{{- $p := dict "b" "" "n" 120 -}}
{{- include "etcdshapes.check.fv" (dict "p" $p "v" $a.value "d" 0) -}}
{{- $f := $a.field }}{{ $r := $a.rule -}}
{{- if gt (len $f) 200 }}{{ $f = print (include "etcdshapes.check.cut" (dict "s" $f "n" 200)) "…" }}{{ end -}}
{{- if gt (len $r) 1000 }}{{ $r = print (include "etcdshapes.check.cut" (dict "s" $r "n" 1000)) "…" }}{{ end -}}
{{- fail (printf "%s: invalid value %s: %s" (include "etcdshapes.check.escape" $f) $p.b (include "etcdshapes.check.escape" $r)) -}}
{{- end -}}

{{- /* etcdshapes.check.escape (invalid.Escape): %q unquoted, \\ and \" as \ and ". */ -}}
{{- define "etcdshapes.check.escape" }}{{ regexReplaceAll "^\"|\"$|\\\\([\"\\\\])" (printf "%q" .) "${1}" }}{{ end -}}

{{- /* etcdshapes.check.cut: dict s n; s cut to at most n bytes at a
character boundary (len s > n). */ -}}
{{- define "etcdshapes.check.cut" -}}
{{- $i := int .n -}}
{{- range until 3 }}{{ if and (gt $i 0) (ge (index $.s $i) 128) (lt (index $.s $i) 192) }}{{ $i = int (sub $i 1) }}{{ end }}{{ end -}}
{{- substr 0 $i .s -}}
{{- end -}}

{{- /* etcdshapes.check.fv (invalid's printer.value): dict p (b the text, n
bytes left) v d (depth). Strings quoted at the top and where YAML would
not read them back plain; maps with sorted keys; cut at 120 bytes. */ -}}
{{- define "etcdshapes.check.fv" -}}
{{- $p := .p }}{{ $v := .v }}{{ $d := add1 .d }}{{ $w := "" -}}
{{- if gt $d 21 }}{{ $w = "…" }}{{ else if kindIs "invalid" $v }}{{ $w = "null" -}}
{{- else if kindIs "string" $v -}}
{{- if and (gt $d 1) (include "etcdshapes.check.plain" $v) }}{{ $w = $v }}{{ else }}{{ include "etcdshapes.check.fvq" (dict "p" $p "s" $v) }}{{ end -}}
{{- else if or (kindIs "map" $v) (kindIs "slice" $v) -}}
{{- $m := kindIs "map" $v -}}
{{- include "etcdshapes.check.fvw" (dict "p" $p "s" (ternary "{" "[" $m)) -}}
{{- $items := $v }}{{ if $m }}{{ $items = keys $v | sortAlpha }}{{ end -}}
{{- range $i, $k := $items -}}
{{- if $i }}{{ include "etcdshapes.check.fvw" (dict "p" $p "s" ", ") }}{{ end -}}
{{- include "etcdshapes.check.fv" (dict "p" $p "v" $k "d" $d) -}}
{{- if $m }}{{ include "etcdshapes.check.fvw" (dict "p" $p "s" ": ") }}{{ include "etcdshapes.check.fv" (dict "p" $p "v" (get $v $k) "d" $d) }}{{ end -}}
{{- end -}}
{{- $w = ternary "}" "]" $m -}}
{{- else if kindIs "float64" $v -}}
{{- $w = toJson $v }}{{ if not (contains "e+" $w) }}{{ $w = include "etcdshapes.check.formatFloat" (dict "value" $v) }}{{ end -}}
{{- else }}{{ $w = toString $v }}{{ end -}}
{{- if $w }}{{ include "etcdshapes.check.fvw" (dict "p" $p "s" $w) }}{{ end -}}
{{- end -}}

{{- /* etcdshapes.check.fvw (printer.write): dict p s. */ -}}
{{- define "etcdshapes.check.fvw" -}}
{{- $p := .p -}}
{{- if not $p.cut -}}
{{- if le (len .s) (int $p.n) -}}
{{- $_ := set $p "b" (print $p.b .s) }}{{ $_ := set $p "n" (sub $p.n (len .s)) -}}
{{- else -}}
{{- $_ := set $p "b" (print $p.b (include "etcdshapes.check.cut" (dict "s" .s "n" $p.n)) "…") }}{{ $_ := set $p "cut" true -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.check.fvq (printer.quoted): dict p s; s quoted, or as
much of it as fits, quoted up to "…\"". */ -}}
{{- define "etcdshapes.check.fvq" -}}
{{- $p := .p -}}
{{- if not $p.cut -}}
{{- $h := .s -}}
{{- if gt (len $h) (int $p.n) }}{{ $h = include "etcdshapes.check.cut" (dict "s" $h "n" $p.n) }}{{ end -}}
{{- $q := printf "%q" $h -}}
{{- if and (eq (len $h) (len .s)) (le (len $q) (int $p.n)) -}}
{{- include "etcdshapes.check.fvw" (dict "p" $p "s" $q) -}}
{{- else -}}
{{- range until 121 -}}
{{- if and (gt (add (len $q) 4) (int $p.n)) (gt (len $h) 0) -}}
{{- $h = include "etcdshapes.check.cut" (dict "s" $h "n" (sub (len $h) 1)) }}{{ $q = printf "%q" $h -}}
{{- end -}}
{{- end -}}
{{- $_ := set $p "b" (print $p.b (trimSuffix "\"" $q) "…\"") }}{{ $_ := set $p "cut" true -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.check.plain (invalid's plainSafe): "true" when the string
reads back as itself unquoted in a flow collection. */ -}}
{{- define "etcdshapes.check.plain" -}}
{{- if and (regexMatch "^[A-Za-z0-9_][-A-Za-z0-9_./]*$" .) (not (has (lower .) (list "null" "true" "false" "yes" "no" "on" "off" "y" "n"))) (not
  (regexMatch "^([0-9]+\\.?[0-9]*([eE]-?[0-9]+)?|inf(inity)?|nan)$" (lower .))) (not (regexMatch "^([0-9](.*_|...-..-..)|0[xXbBoO])" .)) }}true{{ end -}}
{{- end -}}

{{- /* etcdshapes.check.labelErrors (validation.IsDNS1123Label): dict value k;
the messages joined with "; ", empty when valid. */ -}}
{{- define "etcdshapes.check.labelErrors" -}}
{{- $m := .k.messages -}}
{{- $errs := list -}}
{{- if gt (len .value) 63 }}{{ $errs = append $errs $m.maxLen63 }}{{ end -}}
{{- if not (regexMatch "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$" .value) -}}
{{- if regexMatch "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$" .value -}}
{{- $errs = append $errs $m.labelDots -}}
{{- else -}}
{{- $errs = append $errs $m.labelRegex -}}
{{- end -}}
{{- end -}}
{{- join "; " $errs -}}
{{- end -}}

{{- /* etcdshapes.check.subdomainErrors (validation.IsDNS1123Subdomain): dict value
k; the messages joined with "; ", empty when valid. */ -}}
{{- define "etcdshapes.check.subdomainErrors" -}}
{{- $m := .k.messages -}}
{{- $errs := list -}}
{{- if gt (len .value) 253 }}{{ $errs = append $errs $m.maxLen253 }}{{ end -}}
{{- if not (regexMatch "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$" .value) -}}
{{- $errs = append $errs $m.subdomainRegex -}}
{{- end -}}
{{- join "; " $errs -}}
{{- end -}}

{{- /* etcdshapes.check.qualifiedNameErrors (validation.IsQualifiedName): dict value
k; the messages joined with "; ", empty when valid. */ -}}
{{- define "etcdshapes.check.qualifiedNameErrors" -}}
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
{{- if not (regexMatch "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$" $prefix) }}{{ $errs = append $errs $m.qnPrefixRegex }}{{ end -}}
{{- end -}}
{{- end -}}
{{- if eq $name "" -}}
{{- $errs = append $errs $m.qnEmpty -}}
{{- else if gt (len $name) 63 -}}
{{- $errs = append $errs $m.qnMaxLen -}}
{{- end -}}
{{- if not (regexMatch "^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$" $name) -}}
{{- $errs = append $errs $m.qnRegex -}}
{{- end -}}
{{- end -}}
{{- join "; " $errs -}}
{{- end -}}

{{- /* etcdshapes.check.tenantNamespace (naming.ValidateTenantNamespace): dict field
value k. */ -}}
{{- define "etcdshapes.check.tenantNamespace" -}}
{{- $errs := include "etcdshapes.check.labelErrors" (dict "value" .value "k" .k) -}}
{{- if $errs -}}
{{- include "etcdshapes.check.fail" (list .field .value (printf "must be a namespace name (DNS-1123 label): %s" $errs)) -}}
{{- end -}}
{{- if not (hasPrefix "tenant-" .value) -}}
{{- include "etcdshapes.check.fail" (list .field .value "must be a tenant namespace (\"tenant-<name>\")") -}}
{{- end -}}
{{- range splitList "-" (trimPrefix "tenant-" .value) -}}
{{- if eq . "" -}}
{{- include "etcdshapes.check.fail" (list $.field $.value "must be a tenant namespace: every tenant name on the path must be non-empty") -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.check.dropNulls (coalesce in values.go): dict in out; in
without nulls (in nested maps): for the library a null deletes a key. */ -}}
{{- define "etcdshapes.check.dropNulls" -}}
{{- range $key, $x := .in -}}
{{- if kindIs "map" $x -}}
{{- $m := dict -}}
{{- include "etcdshapes.check.dropNulls" (dict "in" $x "out" $m) -}}
{{- $_ := set $.out $key $m -}}
{{- else if not (kindIs "invalid" $x) -}}
{{- $_ := set $.out $key $x -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.check.formatFloat (strconv.FormatFloat(f, 'f', -1, 64)): dict
value; the float64 in decimal without an exponent. toJson writes the same
shortest digits, with an exponent below 1e-6 and from 1e21 on. */ -}}
{{- define "etcdshapes.check.formatFloat" -}}
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

{{- /* etcdshapes.check.decodeErrors (strictJSON in values.go: sigs.k8s.io/json's
strict decoding): dict value type structs st path. type is the Go type's
name as reflect prints it ("[]X", "map[string]X", int32, bool, string, or
a struct of structs). path is the decoder's context. Sets on st "typeErr"
(first value of the wrong type) and "strictErr" (first unknown field) in
the decoder's words; typeErr wins. Keys in json.Marshal's order; a null
decodes to nothing. */ -}}
{{- define "etcdshapes.check.decodeErrors" -}}
{{- $x := .value }}{{ $t := .type }}{{ $p := .path -}}
{{- if not (or .st.typeErr (kindIs "invalid" $x)) -}}
{{- $fields := get .structs $t -}}
{{- $kind := ternary "struct" "string" (not (empty $fields)) -}}
{{- if hasPrefix "[]" $t }}{{ $kind = "slice" }}{{ else if hasPrefix "map[" $t }}{{ $kind = "map" }}{{ else if eq $t "int32" }}{{ $kind = "int"
  }}{{ else if eq $t "bool" }}{{ $kind = "bool" }}{{ end -}}
{{- $got := "number" -}}
{{- if kindIs "string" $x }}{{ $got = "string" }}{{ else if kindIs "map" $x }}{{ $got = "object" }}{{ else if kindIs "slice" $x }}{{ $got = "array"
  }}{{ else if kindIs "bool" $x }}{{ $got = "bool" }}{{ end -}}
{{- $ok := eq $got (get (dict "struct" "object" "map" "object" "slice" "array" "string" "string" "bool" "bool" "int" "number") $kind) -}}
{{- if and $ok (eq $kind "int") -}}
{{- /* The number as json.Marshal wrote it must parse as an int32. */ -}}
{{- $lit := toJson $x -}}
{{- if or (not (regexMatch "^-?[0-9]+$" $lit)) (lt (float64 $x) -2147483648.0) (gt (float64 $x) 2147483647.0) -}}
{{- $ok = false }}{{ $got = print "number " $lit -}}
{{- end -}}
{{- end -}}
{{- if not $ok -}}
{{- $_ := set .st "typeErr" (printf "json: cannot unmarshal %s into Go struct field %s.%s of type %s" $got (index $p 0) (index $p 1) $t) -}}
{{- else if eq $kind "struct" -}}
{{- range $key := keys $x | sortAlpha -}}
{{- $strict := ternary $key (print (index $p 2) "." $key) (eq (index $p 2) "") -}}
{{- if hasKey $fields $key -}}
{{- include "etcdshapes.check.decodeErrors" (dict "value" (get $x $key) "type" (get $fields $key) "structs" $.structs "st" $.st "path" (list
  (trimPrefix "v1." $t) (ternary $key (print (index $p 1) "." $key) (eq (index $p 1) "")) $strict)) -}}
{{- else if not $.st.strictErr -}}
{{- $_ := set $.st "strictErr" (printf "unknown field %q" $strict) -}}
{{- end -}}
{{- end -}}
{{- else if eq $kind "slice" -}}
{{- range $i, $e := $x -}}
{{- include "etcdshapes.check.decodeErrors" (dict "value" $e "type" (trimPrefix "[]" $t) "structs" $.structs "st" $.st "path" (list (index $p 0)
  (index $p 1) (printf "%s[%d]" (index $p 2) $i))) -}}
{{- end -}}
{{- else if eq $kind "map" -}}
{{- range $key := keys $x | sortAlpha -}}
{{- include "etcdshapes.check.decodeErrors" (dict "value" (get $x $key) "type" (trimPrefix "map[string]" $t) "structs" $.structs "st" $.st "path"
  (list (index $p 0) (index $p 1) (ternary $key (print (index $p 2) "." $key) (eq (index $p 2) "")))) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.check.quantity (optQuantity, quantity.Parse): dict field
value k [try] [derived]; JSON {s, f (float64, up to nanos), num, factors
(exact product)}; quantity.ChartRule's bounds (f²≥2^126: |f|≥2^63) and
rules unless derived (a binary value's digits: the number's d times
2^10k, its z trailing zeros off, below 10^15: d/5^z·2^10k < 10^15·2^z);
with try {bad} or {bound}. */ -}}
{{- define "etcdshapes.check.quantity" -}}
{{- $x := .value }}{{ $s := "" }}{{ $q := .k.quantity }}{{ $rule := "" -}}
{{- if kindIs "string" $x }}{{ $s = $x -}}
{{- else if kindIs "float64" $x }}{{ $s = toJson $x }}{{ if eq $s "-0" }}{{ include "etcdshapes.check.fail" (list .field $x .k.loss.negz) }}{{ end -}}
{{- else if or (kindIs "int64" $x) (kindIs "int" $x) }}{{ $s = printf "%d" $x -}}
{{- else }}{{ include "etcdshapes.check.fail" (list .field $x "must be a quantity (a string such as \"4Gi\" or a number)") }}{{ end -}}
{{- $re := "^([+-]?)([0-9]*\\.?[0-9]*)(Ki|Mi|Gi|Ti|Pi|Ei|[eE][+-]?[0-9]+|[numkMGTPE]?)$" -}}
{{- $num := regexReplaceAll $re $s "${1}${2}" }}{{ $suffix := regexReplaceAll $re $s "${3}" -}}
{{- $bad := or (not (regexMatch $re $s)) (not (regexMatch "[0-9]" $num)) -}}
{{- /* Binary multipliers as factors that sprig's decimals hold exactly (it
takes numbers through a float64's shortest form, which rounds 2^60). */ -}}
{{- $binary := dict "Ki" (list 1024) "Mi" (list 1048576) "Gi" (list 1073741824) "Ti" (list 1099511627776) "Pi" (list 1125899906842624) "Ei" (list
  1073741824 1073741824) -}}
{{- $decimal := dict "n" -9 "u" -6 "m" -3 "" 0 "k" 3 "M" 6 "G" 9 "T" 12 "P" 15 "E" 18 -}}
{{- $f := 0.0 -}}
{{- $factors := list -}}
{{- if hasKey $binary $suffix -}}
{{- $factors = get $binary $suffix -}}
{{- $f = mulf (float64 $num) (first $factors) (rest $factors | default (list 1) | first) -}}
{{- else if hasKey $decimal $suffix -}}
{{- $f = float64 (printf "%se%d" $num (get $decimal $suffix)) -}}
{{- else -}}
{{- $f = float64 (printf "%s%s" $num $suffix) -}}
{{- end -}}
{{- $big := ge (mulf $f $f) 0x1p126 }}{{ $ns := mulf $f 1e9 -}}
{{- if not (or $bad .derived) -}}
{{- $d := regexReplaceAll "^0+|0+$" (regexReplaceAll "[^0-9]" $num "") "" }}{{ $n := atoi $d }}{{ $r := [[ .ChartDigitsBound ]] -}}
{{- if $factors }}{{ range until 21 }}{{ if and (not (mod $n 5)) (lt $r (mulf [[ .ChartDigitsBound ]] (first $factors))) -}}
{{ $n = div $n 5 }}{{ $r = mulf $r 2 }}{{ end }}{{ end }}{{ end -}}
{{- if and $big (kindIs "float64" $x) }}{{ $rule = $q.rangeRule -}}
{{- else if gt (len $s) (int [[ .QuantityMaxLength ]]) }}{{ $rule = $q.lengthRule -}}
{{- else if regexMatch "^[eE][+-]?0*[1-9][0-9]{[[ .QuantityExponentDigits ]]}" $suffix }}{{ $rule = $q.exponentRule -}}
{{- else if $big }}{{ $rule = $q.rangeRule -}}
{{- else if or (gt (len $d) [[ .ChartDigits ]]) (and $factors (ge (mulf $n (first $factors) (rest $factors | default (list 1) | first)) $r)) }}{{ $rule = $q.digits -}}
{{- else if ne $ns (floor $ns) }}{{ $rule = $q.nano -}}
{{- else if and (ge (mulf $f $f) 0x1p106) (ne (printf "%.0f" $f) (toJson $f)) }}{{ $rule = $q.exact -}}
{{- else if and (eq $suffix "Ei") (ne (mulf $num 0x1p60) $f) }}{{ $rule = $q.ei }}{{ end -}}
{{- end -}}
{{- if not .try }}{{ with or (and $bad $q.syntaxRule) $rule }}{{ include "etcdshapes.check.fail" (list $.field $x .) }}{{ end }}{{ end -}}
{{- if $bad }}{{ toJson (dict "bad" true) }}{{ else if $rule }}{{ toJson (dict "bound" $rule) }}{{ else -}}
{{- /* Below 2^53 nanos the scaled value is exact, so ceil rounds like
inf.RoundUp; above, a float64 holds no fraction of a nano. */ -}}
{{- if and (gt $f 0.0) (lt $f 9007199.0) (ne $ns (floor $ns)) }}{{ $f = divf (ceil $ns) 1e9 }}{{ end -}}
{{- toJson (dict "s" $s "f" $f "num" $num "factors" $factors) -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.check.quota (etcd.QuotaBackendBytes): dict value (as
written) q (parsed) k; 95% of the size in bytes, printed like "%.0f". */ -}}
{{- define "etcdshapes.check.quota" -}}
{{- /* One exact product, rounded once, as the library rounds it. */ -}}
{{- $b := mulf .q.f 0.95 -}}
{{- if .q.factors }}{{ $b = mulf (float64 .q.num) (first .q.factors) (rest .q.factors | default (list 1) | first) 0.95 }}{{ end -}}
{{- if lt .q.f [[ .MinSizeBytes ]].0 }}{{ include "etcdshapes.check.fail" (list "values.size" .value .k.quantity.minSize) }}{{ end -}}
{{- printf "%.0f" $b -}}
{{- end -}}

{{- /* etcdshapes.check.loss (jsonnum.Float): list s f; how f loses the decimal s. */ -}}
{{- define "etcdshapes.check.loss" -}}
{{- $s := index . 0 }}{{ $f := index . 1 }}{{ $a := include "etcdshapes.check.digits" $s -}}
{{- if hasPrefix "e" $a }}{{ if hasPrefix "-" $s }}negz{{ end }}{{ else if eq $f 0.0 }}{{ ternary "under" "over" (contains "e-" $a) -}}
{{- else if ne $a (include "etcdshapes.check.digits" (printf "%v" $f)) }}digits{{ end -}}
{{- end -}}

{{- /* etcdshapes.check.digits: "DIGITSeN" for 0.DIGITS×10^N; zero is "eN". */ -}}
{{- define "etcdshapes.check.digits" -}}
{{- $s := regexReplaceAll "([eE][+-]?)[0-9]{10,}" (trimAll "+-" .) "${1}999999999" }}{{ $m := regexReplaceAll "[eE].*" $s "" -}}
{{- $d := replace "." "" $m }}{{ $t := regexReplaceAll "^0+" $d "" -}}
{{- printf "%se%d" (regexReplaceAll "0+$" $t "") (sub (add (atoi (regexReplaceAll "^[^eE]*[eE]?[+]?" $s "")) (len (regexReplaceAll "[.].*" $m ""))
  (len $t)) (len $d)) -}}
{{- end -}}

{{- /* etcdshapes.check.ratios (ratioValue in values.go, etcd.Ratios.Validate): dict
cluster (the _cluster map) k; JSON {cpu memory ephemeral given}. The
schema's definitions.ratio holds a ratio's type, grammar (a string
strconv.ParseFloat reads, no sign but "+"), length and a number's range;
what it cannot say is checked here: a decimal a float64 does not hold, a
text's value out of range. */ -}}
{{- define "etcdshapes.check.ratios" -}}
{{- $cl := .cluster | default dict -}}
{{- $k := .k -}}
{{- $spec := list (list "cpu" "cpu-allocation-ratio") (list "memory" "memory-allocation-ratio") (list "ephemeral" "ephemeral-storage-allocation-ratio") -}}
{{- $raw := dict -}}
{{- range $spec -}}
{{- $field := printf "_cluster.%s" (index . 1) -}}
{{- $x := index $cl (index . 1) -}}
{{- if kindIs "invalid" $x -}}
{{- $_ := set $raw (index . 0) "" -}}
{{- else if kindIs "string" $x -}}
{{- $_ := set $raw (index . 0) $x -}}
{{- else if kindIs "float64" $x -}}
{{- $_ := set $raw (index . 0) (include "etcdshapes.check.formatFloat" (dict "value" $x)) -}}
{{- else -}}
{{- /* helm --set writes whole numbers as integers; values files never do. */ -}}
{{- $_ := set $raw (index . 0) (printf "%d" $x) -}}
{{- end -}}
{{- end -}}
{{- $out := dict -}}
{{- $given := dict -}}
{{- range $spec -}}
{{- $field := printf "_cluster.%s" (index . 1) -}}
{{- $s := get $raw (index . 0) -}}
{{- if eq $s "" }}{{ $s = get $k.defaultRatios (index . 0) }}{{ end -}}
{{- $_ := set $given (index . 0) $s -}}
{{- $f := float64 $s -}}
{{- if regexMatch "^[+-]?[0-9.]+([eE][+-]?[0-9]+)?$" $s }}{{ with include "etcdshapes.check.loss" (list $s $f) -}}
{{- include "etcdshapes.check.fail" (list $field $s (replace "%s" (printf "%v" $f) (get $k.loss .))) -}}
{{- end }}{{ end -}}
{{- if or (not (gt $f 0.0)) (gt $f [[ .MaxRatio ]]) -}}
{{- include "etcdshapes.check.fail" (list $field $s $k.limits.ratioRange) -}}
{{- end -}}
{{- $_ := set $out (index . 0) $f -}}
{{- end -}}
{{- $_ := set $out "given" $given -}}
{{- toJson $out -}}
{{- end -}}

{{- /* etcdshapes.check.resourceValues (resourceMap in values.go and
etcd.ValidateContainerResource, the API server's container rules): dict
field value k; JSON name -> quantity, a number spelled by toString as the
upstream sanitiser spells it ("1.073741824e+09"). */ -}}
{{- define "etcdshapes.check.resourceValues" -}}
{{- $x := .value -}}
{{- $out := dict -}}
{{- if not (kindIs "invalid" $x) -}}
{{- range $nested := list "limits" "requests" -}}
{{- if hasKey $x $nested -}}
{{- include "etcdshapes.check.fail" (list (printf "%s.%s" $.field $nested) (get $x $nested)
  "a flat map of resources is expected, not nested requests: or limits: sections") -}}
{{- end -}}
{{- end -}}
{{- range $n := keys $x | sortAlpha -}}
{{- $f := printf "%s.%s" $.field $n -}}
{{- $raw := get $x $n -}}
{{- if kindIs "map" $raw -}}
{{- include "etcdshapes.check.fail" (list $f $raw "a flat map of resources is expected, not a nested map") -}}
{{- end -}}
{{- $errs := include "etcdshapes.check.qualifiedNameErrors" (dict "value" $n "k" $.k) -}}
{{- if $errs -}}
{{- include "etcdshapes.check.fail" (list $f $n (printf "must be a resource name: %s" $errs)) -}}
{{- end -}}
{{- if and (has $n (list "cpu" "memory")) (kindIs "float64" $raw) (ne $raw (floor $raw)) -}}
{{- include "etcdshapes.check.fail" (list $f $raw
  "must be a whole number or a quantity string such as \"1.5\" (the chart's values.schema.json allows an integer or a string here)") -}}
{{- end -}}
{{- $sp := $raw }}{{ if and (kindIs "float64" $raw) (has $n (list "cpu" "memory" "ephemeral-storage")) }}{{ $sp = toString $raw }}{{ end -}}
{{- $q := include "etcdshapes.check.quantity" (dict "field" $f "value" $raw "k" $.k) | fromJson -}}
{{- if lt $q.f 0.0 -}}
{{- include "etcdshapes.check.fail" (list $f $raw "must not be negative") -}}
{{- end -}}
{{- $rule := "" -}}
{{- $v := $raw -}}
{{- if has $n (list "cpu" "memory" "ephemeral-storage") -}}
{{- if and (eq $n "memory") (gt $q.f 0.0) (lt $q.f [[ .MinMemoryBytes ]].0) }}{{ $rule = $.k.quantity.minMemory }}{{ end -}}
{{- else if hasPrefix "hugepages-" $n -}}
{{- $size := include "etcdshapes.check.quantity" (dict "value" (trimPrefix "hugepages-" $n) "try" true "k" $.k) | fromJson -}}
{{- if $size.bad -}}
{{- $rule = "must be hugepages-<page size>, e.g. hugepages-2Mi" }}{{ $v = $n -}}
{{- else if $size.bound -}}
{{- $rule = printf "names a page size that %s" $size.bound }}{{ $v = $n -}}
{{- else if or (le $size.f 0.0) (ne $size.f (floor $size.f)) -}}
{{- $rule = "must name a page size of a positive whole number of bytes, e.g. hugepages-2Mi or hugepages-1Gi" }}{{ $v = $n -}}
{{- else if or (ne $q.f (floor $q.f)) (ne (divf $q.f $size.f) (floor (divf $q.f $size.f))) -}}
{{- $rule = printf "must be a whole multiple of the page size %s, as the Pod API requires" $size.s -}}
{{- end -}}
{{- else if not (contains "/" $n) -}}
{{- $rule = "must be cpu, memory, ephemeral-storage, hugepages-<size> or a domain-qualified extended resource such as example.com/device" }}{{ $v = $n -}}
{{- else if contains "kubernetes.io/" $n -}}
{{- $rule = "an extended resource must not be in the kubernetes.io domain" }}{{ $v = $n -}}
{{- else if or (hasPrefix "requests." $n) (gt (len (first (splitList "/" $n))) 244) -}}
{{- $rule = "must be an extended resource name that \"requests.<name>\" keeps valid" }}{{ $v = $n -}}
{{- else if ne $q.f (floor $q.f) -}}
{{- $rule = "an extended resource must be a whole number" -}}
{{- end -}}
{{- if $rule }}{{ include "etcdshapes.check.fail" (list $f $v $rule) }}{{ end -}}
{{- $_ := set $out $n $sp -}}
{{- end -}}
{{- end -}}
{{- toJson $out -}}
{{- end -}}

{{- /* etcdshapes.check.sanitize (etcd.SanitizeResources): dict field limits
ratios [bound]; JSON {limits requests}. cpu request = cpu / ratio (%v);
memory and ephemeral-storage: the quotient in whole bytes, refused from
2^63 on (bound: the VPA's, named by the memory ratio); others request
their limit. divf divides like the chart (16 decimals, then float64). */ -}}
{{- define "etcdshapes.check.sanitize" -}}
{{- $limits := dict -}}
{{- $requests := dict -}}
{{- $names := keys .limits | sortAlpha -}}
{{- if not (or (has "cpu" $names) (has "memory" $names)) -}}
{{- range $names -}}
{{- if hasPrefix "hugepages-" . -}}
{{- include "etcdshapes.check.fail" (list "values.resources" (join ", " $names) (printf
  "%s needs a cpu or memory limit beside it: the Pod API refuses hugepages without them" .)) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- range $name := $names -}}
{{- $q := include "etcdshapes.check.quantity" (dict "field" (printf "%s.%s" $.field $name) "value" (get $.limits $name) "k" $.k "derived" true) | fromJson -}}
{{- $_ := set $limits $name $q.s -}}
{{- if eq $name "cpu" -}}
{{- if and $.bound (ge (divf $q.f $.ratios.cpu) [[ .MaxInt64 ]].0) -}}
{{- include "etcdshapes.check.fail" (list "_cluster.cpu-allocation-ratio" $.ratios.given.cpu (printf $.k.quantity.vpaCPU $q.s)) -}}
{{- end -}}
{{- $_ := set $requests $name (printf "%v" (divf $q.f $.ratios.cpu)) -}}
{{- else if or (eq $name "memory") (eq $name "ephemeral-storage") -}}
{{- $r := ternary $.ratios.memory $.ratios.ephemeral (eq $name "memory") -}}
{{- $b := divf $q.f $r -}}
{{- if ge $b [[ .MaxInt64 ]].0 -}}
{{- $ratio := include "etcdshapes.check.formatFloat" (dict "value" $r) -}}
{{- if $.bound -}}
{{- include "etcdshapes.check.fail" (list "_cluster.memory-allocation-ratio" $.ratios.given.memory (printf $.k.quantity.vpaMemory $q.s)) -}}
{{- end -}}
{{- include "etcdshapes.check.fail" (list (printf "%s.%s" $.field $name) $q.s (printf $.k.quantity.request $name $ratio)) -}}
{{- end -}}
{{- $_ := set $requests $name (printf "%d" (int64 $b)) -}}
{{- else -}}
{{- $_ := set $requests $name $q.s -}}
{{- end -}}
{{- end -}}
{{- toJson (dict "limits" $limits "requests" $requests) -}}
{{- end -}}

{{- /* etcdshapes.check.requestsWithinLimits (requestsWithinLimits in options.go):
dict resources ratios; refuses a ratio below 1 where a request would exceed
its limit (the API server would refuse it). */ -}}
{{- define "etcdshapes.check.requestsWithinLimits" -}}
{{- $res := .resources -}}
{{- range $r := list (list "cpu" "cpu" "cpu-allocation-ratio") (list "memory" "memory" "memory-allocation-ratio") (list "ephemeral-storage"
  "ephemeral" "ephemeral-storage-allocation-ratio") -}}
{{- $n := index $r 0 -}}
{{- if and (hasKey $res.limits $n) (hasKey $res.requests $n) -}}
{{- $lim := include "etcdshapes.check.quantity" (dict "field" "limit" "value" (get $res.limits $n) "k" $.k "derived" true) | fromJson -}}
{{- $req := include "etcdshapes.check.quantity" (dict "field" "request" "value" (get $res.requests $n) "k" $.k "derived" true) | fromJson -}}
{{- if gt $req.f $lim.f -}}
{{- include "etcdshapes.check.fail" (list (printf "_cluster.%s" (index $r 2)) (get $.ratios.given (index $r 1)) (printf
  "must be at least 1 here: the %s request %s would exceed its limit %s, which the API server refuses" $n $req.s $lim.s)) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.check.labelValueErrors (validation.IsValidLabelValue): dict value
k; the messages joined with "; ", empty when valid. */ -}}
{{- define "etcdshapes.check.labelValueErrors" -}}
{{- $errs := list -}}
{{- if gt (len .value) 63 }}{{ $errs = append $errs .k.messages.labelValueMaxLen }}{{ end -}}
{{- if not (regexMatch "^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$" .value) }}{{ $errs = append $errs .k.messages.labelValueRegex }}{{ end -}}
{{- join "; " $errs -}}
{{- end -}}

{{- /* etcdshapes.check.invalid (field.Invalid): dict field value msgs
(joined with "; "); fails with the first, as the library reports the
first of the API server validators' errors. */ -}}
{{- define "etcdshapes.check.invalid" -}}
{{- with .msgs }}{{ include "etcdshapes.check.fail" (list $.field $.value (first (splitList "; " .))) }}{{ end -}}
{{- end -}}

{{- /* etcdshapes.check.selector (metav1validation.ValidateLabelSelector): dict
value path k. Labels are checked in key order. */ -}}
{{- define "etcdshapes.check.selector" -}}
{{- $sel := .value -}}
{{- if kindIs "map" $sel -}}
{{- $p := printf "%s.matchLabels" .path -}}
{{- $labels := $sel.matchLabels | default dict -}}
{{- range $key := keys $labels | sortAlpha -}}
{{- include "etcdshapes.check.invalid" (dict "field" $p "value" $key "msgs" (include "etcdshapes.check.qualifiedNameErrors" (dict "value" $key "k" $.k))) -}}
{{- $v := toString (get $labels $key) -}}
{{- include "etcdshapes.check.invalid" (dict "field" $p "value" $v "msgs" (include "etcdshapes.check.labelValueErrors" (dict "value" $v "k" $.k))) -}}
{{- end -}}
{{- range $i, $e := $sel.matchExpressions | default list -}}
{{- $ep := printf "%s.matchExpressions[%d]" $.path $i -}}
{{- $op := $e.operator | default "" -}}
{{- $values := $e.values | default list -}}
{{- if has $op (list "In" "NotIn") -}}
{{- if not $values }}{{ include "etcdshapes.check.fail" (list (print $ep ".values") "" "must be specified when \x60operator\x60 is 'In' or 'NotIn'")
  }}{{ end -}}
{{- else if has $op (list "Exists" "DoesNotExist") -}}
{{- if $values }}{{ include "etcdshapes.check.fail" (list (print $ep ".values") ""
  "may not be specified when \x60operator\x60 is 'Exists' or 'DoesNotExist'") }}{{ end -}}
{{- else -}}
{{- include "etcdshapes.check.fail" (list (print $ep ".operator") $op "not a valid selector operator") -}}
{{- end -}}
{{- $key := $e.key | default "" -}}
{{- include "etcdshapes.check.invalid" (dict "field" (print $ep ".key") "value" $key "msgs" (include "etcdshapes.check.qualifiedNameErrors" (dict
  "value" $key "k" $.k))) -}}
{{- range $j, $v := $values -}}
{{- include "etcdshapes.check.invalid" (dict "field" (printf "%s.values[%d]" $ep $j) "value" (toString $v) "msgs" (include
  "etcdshapes.check.labelValueErrors" (dict "value" (toString $v) "k" $.k))) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.check.nodeSelectorTerm (validateNodeSelectorTerm in
options.go): dict value path k. */ -}}
{{- define "etcdshapes.check.nodeSelectorTerm" -}}
{{- $t := .value | default dict -}}
{{- range $i, $r := $t.matchExpressions | default list -}}
{{- $rp := printf "%s.matchExpressions[%d]" $.path $i -}}
{{- $key := $r.key | default "" -}}
{{- include "etcdshapes.check.invalid" (dict "field" (print $rp ".key") "value" $key "msgs" (include "etcdshapes.check.qualifiedNameErrors" (dict
  "value" $key "k" $.k))) -}}
{{- $op := $r.operator | default "" -}}
{{- $values := $r.values | default list -}}
{{- $rule := "" -}}
{{- if has $op (list "In" "NotIn") -}}
{{- if not $values }}{{ $rule = "must be given for operator In or NotIn" }}{{ end -}}
{{- else if has $op (list "Exists" "DoesNotExist") -}}
{{- if $values }}{{ $rule = "must be empty for operator Exists or DoesNotExist" }}{{ end -}}
{{- else if has $op (list "Gt" "Lt") -}}
{{- if ne (len $values) 1 }}{{ $rule = "must be a single value for operator Gt or Lt" }}{{ end -}}
{{- else -}}
{{- include "etcdshapes.check.fail" (list (print $rp ".operator") $op "supported values: \"In\", \"NotIn\", \"Exists\", \"DoesNotExist\", \"Gt\", \"Lt\"") -}}
{{- end -}}
{{- with $rule }}{{ include "etcdshapes.check.fail" (list (print $rp ".values") "" .) }}{{ end -}}
{{- range $j, $v := $values -}}
{{- include "etcdshapes.check.invalid" (dict "field" (printf "%s.values[%d]" $rp $j) "value" (toString $v) "msgs" (include
  "etcdshapes.check.labelValueErrors" (dict "value" (toString $v) "k" $.k))) -}}
{{- end -}}
{{- end -}}
{{- range $i, $r := $t.matchFields | default list -}}
{{- $rp := printf "%s.matchFields[%d]" $.path $i -}}
{{- if ne ($r.key | default "") "metadata.name" -}}
{{- include "etcdshapes.check.fail" (list (print $rp ".key") ($r.key | default "") "supported values: \"metadata.name\"") -}}
{{- end -}}
{{- if not (has ($r.operator | default "") (list "In" "NotIn")) -}}
{{- include "etcdshapes.check.fail" (list (print $rp ".operator") ($r.operator | default "") "supported values: \"In\", \"NotIn\"") -}}
{{- else if ne (len ($r.values | default list)) 1 -}}
{{- include "etcdshapes.check.fail" (list (print $rp ".values") "" "must have exactly one value") -}}
{{- end -}}
{{- range $j, $v := $r.values | default list }}{{ include "etcdshapes.check.invalid" (dict "field" (printf "%s.values[%d]" $rp $j)
  "value" (toString $v) "msgs" (include "etcdshapes.check.subdomainErrors" (dict "value" (toString $v) "k" $.k))) }}{{ end -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.check.podAffinityTerm (validatePodAffinityTerm in
options.go): dict value path k. */ -}}
{{- define "etcdshapes.check.podAffinityTerm" -}}
{{- $t := .value | default dict -}}
{{- $key := $t.topologyKey | default "" -}}
{{- if eq $key "" }}{{ include "etcdshapes.check.fail" (list (print .path ".topologyKey") "" "must not be empty") }}{{ end -}}
{{- include "etcdshapes.check.invalid" (dict "field" (print .path ".topologyKey") "value" $key "msgs" (include "etcdshapes.check.qualifiedNameErrors"
  (dict "value" $key "k" .k))) -}}
{{- include "etcdshapes.check.selector" (dict "value" $t.labelSelector "path" (print .path ".labelSelector") "k" .k) -}}
{{- include "etcdshapes.check.selector" (dict "value" $t.namespaceSelector "path" (print .path ".namespaceSelector") "k" .k) -}}
{{- range $i, $ns := $t.namespaces | default list -}}
{{- include "etcdshapes.check.invalid" (dict "field" (printf "%s.namespaces[%d]" $.path $i) "value" (toString $ns) "msgs" (include
  "etcdshapes.check.labelErrors" (dict "value" (toString $ns) "k" $.k))) -}}
{{- end -}}
{{- $selKeys := list -}}
{{- if kindIs "map" $t.labelSelector -}}
{{- $selKeys = keys ($t.labelSelector.matchLabels | default dict) -}}
{{- range $e := $t.labelSelector.matchExpressions | default list }}{{ $selKeys = append $selKeys ($e.key | default "") }}{{ end -}}
{{- end -}}
{{- range $name := list "matchLabelKeys" "mismatchLabelKeys" -}}
{{- range $i, $mk := get $t $name | default list -}}
{{- $f := printf "%s.%s[%d]" $.path $name $i -}}
{{- include "etcdshapes.check.invalid" (dict "field" $f "value" (toString $mk) "msgs" (include "etcdshapes.check.qualifiedNameErrors" (dict "value"
  (toString $mk) "k" $.k))) -}}
{{- if has $mk $selKeys }}{{ include "etcdshapes.check.fail" (list $f $mk "must not be a key of the term's labelSelector") }}{{ end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.check.affinity (validateAffinity in options.go: the API
server's Pod rules, since etcd-operator copies the affinity into the
member Pods): dict value k. */ -}}
{{- define "etcdshapes.check.affinity" -}}
{{- $a := .value -}}
{{- $weight := "must be in the range 1-100" -}}
{{- if kindIs "map" $a.nodeAffinity -}}
{{- $np := "values.affinity.nodeAffinity" -}}
{{- $r := $a.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution -}}
{{- if kindIs "map" $r -}}
{{- $rp := print $np ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms" -}}
{{- if not $r.nodeSelectorTerms }}{{ include "etcdshapes.check.fail" (list $rp "" "must have at least one node selector term") }}{{ end -}}
{{- range $i, $t := $r.nodeSelectorTerms | default list -}}
{{- include "etcdshapes.check.nodeSelectorTerm" (dict "value" $t "path" (printf "%s[%d]" $rp $i) "k" $.k) -}}
{{- end -}}
{{- end -}}
{{- range $i, $t := $a.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution | default list -}}
{{- $tp := printf "%s.preferredDuringSchedulingIgnoredDuringExecution[%d]" $np $i -}}
{{- $w := $t.weight | default 0 -}}
{{- if or (lt (float64 $w) 1.0) (gt (float64 $w) 100.0) }}{{ include "etcdshapes.check.fail" (list (print $tp ".weight") $w $weight) }}{{ end -}}
{{- include "etcdshapes.check.nodeSelectorTerm" (dict "value" $t.preference "path" (print $tp ".preference") "k" $.k) -}}
{{- end -}}
{{- end -}}
{{- range $name := list "podAffinity" "podAntiAffinity" -}}
{{- $pa := get $a $name -}}
{{- if kindIs "map" $pa -}}
{{- $pp := print "values.affinity." $name -}}
{{- range $i, $t := $pa.requiredDuringSchedulingIgnoredDuringExecution | default list -}}
{{- include "etcdshapes.check.podAffinityTerm" (dict "value" $t "path" (printf "%s.requiredDuringSchedulingIgnoredDuringExecution[%d]" $pp $i) "k" $.k) -}}
{{- end -}}
{{- range $i, $t := $pa.preferredDuringSchedulingIgnoredDuringExecution | default list -}}
{{- $tp := printf "%s.preferredDuringSchedulingIgnoredDuringExecution[%d]" $pp $i -}}
{{- $w := $t.weight | default 0 -}}
{{- if or (lt (float64 $w) 1.0) (gt (float64 $w) 100.0) }}{{ include "etcdshapes.check.fail" (list (print $tp ".weight") $w $weight) }}{{ end -}}
{{- include "etcdshapes.check.podAffinityTerm" (dict "value" $t.podAffinityTerm "path" (print $tp ".podAffinityTerm") "k" $.k) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.check.spread (ParseSpreadConstraints in values.go and the
constraint checks of etcd.Options.Validate, the API server's Pod rules):
dict value k; JSON list of the global constraints as given, empty for none. */ -}}
{{- define "etcdshapes.check.spread" -}}
{{- $field := "_cluster.scheduling.globalAppTopologySpreadConstraints" -}}
{{- $x := .value -}}
{{- $rule := "must be a YAML string holding a topologySpreadConstraints: list of constraints" -}}
{{- if kindIs "invalid" $x -}}
{{- toJson list -}}
{{- else if not (kindIs "string" $x) -}}
{{- include "etcdshapes.check.fail" (list $field $x "must be a YAML string holding a topologySpreadConstraints: list") -}}
{{- else if eq $x "" -}}
{{- /* Only "" is none: upstream renders anything else as constraints. */ -}}
{{- toJson list -}}
{{- else if gt (len $x) [[ .MaxSpreadLength ]] }}{{ include "etcdshapes.check.fail" (list $field $x .k.limits.spread) -}}
{{- else -}}
{{- $doc := fromYaml $x -}}
{{- if hasKey $doc "Error" -}}
{{- include "etcdshapes.check.fail" (list $field $x (printf "%s: %s" $rule $doc.Error)) -}}
{{- end -}}
{{- /* strictJSON into []corev1.TopologySpreadConstraint, as the library
decodes it (the decoder twin): the first value of the wrong type, else the
first unknown field, the holder's keys first. */ -}}
{{- $st := dict -}}
{{- range $key := keys $doc | sortAlpha -}}
{{- if and (ne $key "topologySpreadConstraints") (not $st.strictErr) }}{{ $_ := set $st "strictErr" (printf "unknown field %q" $key) }}{{ end -}}
{{- end -}}
{{- include "etcdshapes.check.decodeErrors" (dict "value" $doc.topologySpreadConstraints "type" $.k.spreadType "structs" $.k.structs "st" $st
  "path" (list "" "topologySpreadConstraints" "topologySpreadConstraints")) -}}
{{- with $st.typeErr | default $st.strictErr -}}
{{- include "etcdshapes.check.fail" (list $field $x (printf "%s: %s" $rule .)) -}}
{{- end -}}
{{- $list := $doc.topologySpreadConstraints -}}
{{- if not $list -}}
{{- include "etcdshapes.check.fail" (list $field $x "must hold a non-empty topologySpreadConstraints: list") -}}
{{- end -}}
{{- range $i, $c := $list -}}
{{- $at := printf "%s[%d]" $field $i -}}
{{- /* A null decodes to a zero constraint, which the rules below refuse. */ -}}
{{- if kindIs "invalid" $c }}{{ $c = dict }}{{ end -}}
{{- $skew := $c.maxSkew | default 0 -}}
{{- if lt (float64 $skew) 1.0 -}}
{{- include "etcdshapes.check.fail" (list (printf "%s.maxSkew" $at) (int64 $skew) "must be at least 1") -}}
{{- end -}}
{{- $key := $c.topologyKey | default "" -}}
{{- if eq $key "" -}}
{{- include "etcdshapes.check.fail" (list (printf "%s.topologyKey" $at) $key "must not be empty") -}}
{{- end -}}
{{- if include "etcdshapes.check.qualifiedNameErrors" (dict "value" $key "k" $.k) -}}
{{- include "etcdshapes.check.fail" (list (printf "%s.topologyKey" $at) $key "must be a label key") -}}
{{- end -}}
{{- $when := $c.whenUnsatisfiable | default "" -}}
{{- if not (has $when (list "DoNotSchedule" "ScheduleAnyway")) -}}
{{- include "etcdshapes.check.fail" (list (printf "%s.whenUnsatisfiable" $at) $when "must be DoNotSchedule or ScheduleAnyway") -}}
{{- end -}}
{{- range $j, $b := slice $list 0 $i -}}
{{- if and (eq ($b.topologyKey | default "") $key) (eq ($b.whenUnsatisfiable | default "") $when) -}}
{{- include "etcdshapes.check.fail" (list $at (printf "%s, %s" $key $when) (printf
  "repeats the topologyKey and whenUnsatisfiable of constraint [%d]; the API server refuses duplicates" $j)) -}}
{{- end -}}
{{- end -}}
{{- if not (kindIs "invalid" $c.minDomains) -}}
{{- if lt (float64 $c.minDomains) 1.0 -}}
{{- include "etcdshapes.check.fail" (list (printf "%s.minDomains" $at) (int64 $c.minDomains) "must be at least 1") -}}
{{- end -}}
{{- if ne $when "DoNotSchedule" -}}
{{- include "etcdshapes.check.fail" (list (printf "%s.minDomains" $at) (int64 $c.minDomains) "can only be used with whenUnsatisfiable: DoNotSchedule") -}}
{{- end -}}
{{- end -}}
{{- range $pol := list "nodeAffinityPolicy" "nodeTaintsPolicy" -}}
{{- $p := get $c $pol -}}
{{- if and (hasKey $c $pol) (not (kindIs "invalid" $p)) (not (has $p (list "Honor" "Ignore"))) -}}
{{- include "etcdshapes.check.fail" (list (printf "%s.%s" $at $pol) $p "must be Honor or Ignore") -}}
{{- end -}}
{{- end -}}
{{- include "etcdshapes.check.selector" (dict "value" (get $c "labelSelector") "path" (print $at ".labelSelector") "k" $.k) -}}
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
{{- if or (not (kindIs "string" $mk)) (include "etcdshapes.check.qualifiedNameErrors" (dict "value" (toString $mk) "k" $.k)) -}}
{{- include "etcdshapes.check.fail" (list $f $mk "must be a label key") -}}
{{- end -}}
{{- if has $mk $selKeys -}}
{{- include "etcdshapes.check.fail" (list $f $mk "must not be a key of the constraint's labelSelector") -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- toJson $list -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.check.storageClassName (validateStorageClass in validate.go): dict
field value k. */ -}}
{{- define "etcdshapes.check.storageClassName" -}}
{{- if and .value (include "etcdshapes.check.subdomainErrors" (dict "value" .value "k" .k)) -}}
{{- include "etcdshapes.check.fail" (list .field .value "must be a StorageClass name (DNS-1123 subdomain)") -}}
{{- end -}}
{{- end -}}

{{- /* (refuseUnknown in values.go) dict prefix m known [ignored] */ -}}
{{- define "etcdshapes.check.unknown" -}}
{{- range $key := keys .m | sortAlpha }}{{ if not (or (has $key $.known) (has $key $.ignored)) -}}
{{- include "etcdshapes.check.fail" (list (print $.prefix (ternary "\"\"" $key (eq $key ""))) (get $.m $key) (printf
  "is not a value of this chart (known: %s)" (join ", " $.known))) -}}
{{- end }}{{ end -}}
{{- end -}}

{{- /* (authValue in values.go) dict field (with a final ".") value k c */ -}}
{{- define "etcdshapes.check.authValues" -}}
{{- $a := .value | default dict -}}
{{- include "etcdshapes.check.unknown" (dict "prefix" .field "m" $a "known" .k.auth.keys) -}}
{{- $_ := set .c "auth" (dict "field" (print .field "rootCredentialsSecret") "on" ($a.enabled | default false) "secret" ($a.rootCredentialsSecret |
  default "")) -}}
{{- end -}}

{{- /* etcdshapes.check.etcdValues (EtcdChartOptionsFromValues): dict values
k c; checks the etcd chart's values in the library's order and keeps on c
what the later checks need. Types are values.schema.json's. */ -}}
{{- define "etcdshapes.check.etcdValues" -}}
{{- $k := .k -}}
{{- $c := .c -}}
{{- include "etcdshapes.check.unknown" (dict "prefix" "" "m" .values "known" $k.etcdChartKeys "ignored" $k.ignoredKeys) -}}
{{- /* Helm deletes a values.yaml default for a null: an absent version,
replicas or size was set to null. */ -}}
{{- range list (list "version" $k.defaultVersion) (list "replicas" "[[ .DefaultReplicas ]]") (list "size" $k.defaultSize) -}}
{{- if kindIs "invalid" (index $.values (first .)) -}}
{{- include "etcdshapes.check.fail" (list (print "values." (first .)) nil (printf
  "must be set: null would remove the chart's default %q, and the chart cannot render without it" (last .))) -}}
{{- end -}}
{{- end -}}
{{- $v := dict -}}
{{- include "etcdshapes.check.dropNulls" (dict "in" .values "out" $v) -}}
{{- /* values.schema.json states the version's grammar and length and the
replicas' range (Helm refuses them before any template runs). */ -}}
{{- $r := $v.replicas -}}
{{- $_ := set $c "replicas" (int64 $r) -}}
{{- $q := include "etcdshapes.check.quantity" (dict "field" "values.size" "value" $v.size "k" $k) | fromJson -}}
{{- if le $q.f 0.0 -}}
{{- include "etcdshapes.check.fail" (list "values.size" $v.size "must be a positive quantity of bytes") -}}
{{- end -}}
{{- $_ := set $c "size" $q -}}
{{- $_ := set $c "quota" (include "etcdshapes.check.quota" (dict "value" $v.size "q" $q "k" $k)) -}}
{{- $_ := set $c "storageClass" ($v.storageClass | default "") -}}
{{- $_ := set $c "limits" (include "etcdshapes.check.resourceValues" (dict "field" "values.resources" "value" $v.resources "k" $k) | fromJson) -}}
{{- $affinity := $v.affinity | default dict -}}
{{- if $affinity -}}
{{- $st := dict -}}
{{- include "etcdshapes.check.decodeErrors" (dict "value" $affinity "type" $k.affinityType "structs" $k.structs "st" $st "path" (list "" "" "")) -}}
{{- with $st.typeErr | default $st.strictErr -}}
{{- include "etcdshapes.check.fail" (list "values.affinity" $affinity (printf "must be a pod affinity: %s" .)) -}}
{{- end -}}
{{- end -}}
{{- $_ := set $c "affinity" $affinity -}}
{{- include "etcdshapes.check.authValues" (dict "field" "values.auth." "value" $v.auth "k" $k "c" $c) -}}
{{- include "etcdshapes.check.platform" (dict "cluster" (index $v "_cluster") "raw" (index .values "_cluster") "k" $k "c" $c) -}}
{{- end -}}

{{- /* etcdshapes.check.clusterValues (ClusterOptionsFromValues): dict values k
c; checks the kubernetes chart's etcd values. The chart's other values are
not the etcd's concern. */ -}}
{{- define "etcdshapes.check.clusterValues" -}}
{{- $k := .k -}}
{{- $c := .c -}}
{{- $e := dict -}}
{{- include "etcdshapes.check.dropNulls" (dict "in" (.values.etcd | default dict) "out" $e) -}}
{{- include "etcdshapes.check.unknown" (dict "prefix" "etcd." "m" $e "known" $k.clusterEtcdKeys) -}}
{{- if hasKey $e "replicas" -}}
{{- if not (has (float64 $e.replicas) (list 1.0 3.0)) -}}
{{- include "etcdshapes.check.fail" (list "etcd.replicas" $e.replicas "must be 1 or 3") -}}
{{- end -}}
{{- $_ := set $c "replicas" (int64 $e.replicas) -}}
{{- end -}}
{{- include "etcdshapes.check.authValues" (dict "field" "etcd.auth." "value" $e.auth "k" $k "c" $c) -}}
{{- $cl := index .values "_cluster" -}}
{{- if kindIs "map" $cl -}}
{{- $m := dict -}}
{{- include "etcdshapes.check.dropNulls" (dict "in" $cl "out" $m) -}}
{{- $cl = $m -}}
{{- end -}}
{{- include "etcdshapes.check.platform" (dict "cluster" $cl "raw" (index .values "_cluster") "k" $k "c" $c) -}}
{{- end -}}

{{- /* etcdshapes.check.platform (platformValues in values.go): dict cluster
(the _cluster map) k c; checks the platform's values and keeps the ratios,
the parsed spread constraints and the storage classes on c. */ -}}
{{- define "etcdshapes.check.platform" -}}
{{- /* A null ratio is refused: the chart reads it as 0 and divides by it
(Helm keeps these nulls: no default). */ -}}
{{- $raw := .raw -}}
{{- range $key := list [[ range .Ratios ]][[ q .Value ]] [[ end ]] -}}
{{- if and (kindIs "map" $raw) (hasKey $raw $key) (kindIs "invalid" (index $raw $key)) -}}
{{- include "etcdshapes.check.fail" (list (print "_cluster." $key) nil "must not be null: the chart reads a null ratio as 0 and divides by it") -}}
{{- end -}}
{{- end -}}
{{- $cl := .cluster | default dict -}}
{{- $_ := set .c "ratios" (include "etcdshapes.check.ratios" (dict "cluster" $cl "k" .k) | fromJson) -}}
{{- $_ := set .c "storageClassLocal" (index $cl "etcd-storage-class-local" | default "") -}}
{{- $_ := set .c "storageClassReplicated" (index $cl "etcd-storage-class-replicated" | default "") -}}
{{- $spread := list -}}
{{- with index $cl "scheduling" -}}
{{- $spread = include "etcdshapes.check.spread" (dict "value" (index . "globalAppTopologySpreadConstraints") "k" $.k) | fromJsonArray -}}
{{- end -}}
{{- $_ := set .c "spread" $spread -}}
{{- end -}}

{{- /* etcdshapes.check.names (naming.ForEtcdChart; for a cluster
naming.ClusterDataStore's rules, or with full naming.ForCluster's, which
only a rendered stack needs): dict caller namespace release full k. */ -}}
{{- define "etcdshapes.check.names" -}}
{{- $k := .k }}{{ $rel := .release -}}
{{- if not .full -}}
{{- include "etcdshapes.check.tenantNamespace" (dict "field" "namespace" "value" .namespace "k" $k) -}}
{{- end -}}
{{- if eq .caller "etcd" -}}
{{- if ne $rel $k.etcdChartRelease -}}
{{- include "etcdshapes.check.fail" (list "release" $rel (printf "the etcd chart must be installed as release %q" $k.etcdChartRelease)) -}}
{{- end -}}
{{- else -}}
{{- if eq $rel "" -}}
{{- include "etcdshapes.check.fail" (list "release" $rel "must not be empty") -}}
{{- end -}}
{{- $errs := include "etcdshapes.check.labelErrors" (dict "value" $rel "k" $k) -}}
{{- /* Helm's release names may hold dots (a DNS-1123 subdomain of at most
63 characters): refused only where objects are named after them. */ -}}
{{- if and $errs (or .full (gt (len $rel) 63) (include "etcdshapes.check.subdomainErrors" (dict "value" $rel "k" $k))) -}}
{{- include "etcdshapes.check.fail" (list "release" $rel (printf "must be a DNS-1123 label: %s" $errs)) -}}
{{- end -}}
{{- if .full -}}
{{- if not (regexMatch "^[a-z]" $rel) -}}
{{- include "etcdshapes.check.fail" (list "release" $rel
  "must start with a letter: etcd-operator names a Service \"<release>-etcd-client\" and Service names are DNS-1035 labels") -}}
{{- end -}}
{{- $name := printf "%s-etcd" $rel -}}
{{- if gt (len $name) (int $k.maxClusterName) -}}
{{- include "etcdshapes.check.fail" (list "release" $rel (printf
  "the etcd name %q is %d characters, more than %d (etcd-operator derives pod and Service names from it)" $name (len $name) (int $k.maxClusterName))) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- /* etcdshapes.check.constants: the library's constants the checks read,
set on the dict it is given, which holds the tables of [[ .ConstantsFile ]]
(the apimachinery messages, the decoder twin's structs). */ -}}
{{- define "etcdshapes.check.constants" -}}
{{- $_ := merge . (dict
  "etcdChartKeys" (list [[ range .LibraryEtcdChartKeys ]][[ q . ]] [[ end ]])
  "ignoredKeys" (list [[ range .IgnoredKeys ]][[ q . ]] [[ end ]])
  "clusterEtcdKeys" (list [[ range .ClusterEtcdKeys ]][[ q . ]] [[ end ]])
  "defaultVersion" [[ q .DefaultVersion ]]
  "defaultSize" [[ q .DefaultSize ]]
  "defaultRatios" (dict [[ range .Ratios ]][[ q .Key ]] [[ q .DefaultText ]] [[ end ]])
  "etcdChartRelease" [[ q .EtcdChartRelease ]]
  "maxClusterName" [[ .MaxClusterName ]]
  "instanceLabel" [[ q .InstanceLabel ]]
  "affinityType" [[ q .AffinityType ]]
  "spreadType" [[ q .SpreadType ]]
)
-}}
{{- end -}}

{{- /* etcdshapes.check.hashTruncate (naming.hashTruncate): dict full limit
keep suffix; full if it fits, else its first keep characters without
suffix, a trailing "-" then "." trimmed, "-", [[ .HashLen ]] hex digits of
sha256(full), suffix. */ -}}
{{- define "etcdshapes.check.hashTruncate" -}}
{{- if le (len .full) (int .limit) -}}
{{- .full -}}
{{- else -}}
{{- $r := trimSuffix .suffix .full -}}
{{- if gt (len $r) (int .keep) }}{{ $r = trunc (int .keep) $r }}{{ end -}}
{{- $r = trimSuffix "-" $r | trimSuffix "." -}}
{{- printf "%s-%s%s" $r (sha256sum .full | trunc [[ .HashLen ]]) .suffix -}}
{{- end -}}
{{- end -}}
