{{- /*
etcdshapes: the etcd stacks of Cozystack's etcd chart and of a tenant
cluster's etcd, generated from the etcdshapes Go builders
(charts/README.md):

  {{ include "etcdshapes.stack" (dict "root" $ "caller" "etcd") }}      the etcd chart
  {{ include "etcdshapes.stack" (dict "root" $ "caller" "cluster") }}   a tenant cluster

The values' types are values.schema.json's. A bad value fails the render
with the library's message, "<field>: invalid value <value>: <rule>".

etcdshapes.config fills the dict it is given with every value-dependent
field of the stack, once: the names (cluster, dataStore, defragCronJob,
cleanupJob), render (false for a cluster that stays on a shared
datastore), quota, resources and the rest, as strings:

  {{- $etcd := dict "root" $ "caller" "cluster" }}
  {{- include "etcdshapes.config" $etcd }}
  dataStoreName: {{ $etcd.dataStore }}

The dict holds root (the chart's $), caller ("etcd" or "cluster"), values
(optional; default root.Values) and checks (optional; true runs every
check even for input the quick tests vouch for).
*/ -}}
{{- /* etcdshapes.stack: dict root caller; the caller's stack: the config
(etcdshapes.config), the caller's own objects (etcdshapes.<caller>.objects,
which a render prints first: the etcd chart's are built-in kinds Helm
installs first, the per-cluster CiliumNetworkPolicy sorts before most
shared custom kinds, so Helm's sort of the manifests compares less) and
the objects both callers render (etcdshapes.objects), each the YAML the
builders render with actions where it depends on the input. */ -}}
{{- define "etcdshapes.stack" -}}
{{- template "etcdshapes.config" . -}}
{{- if .etcdChart }}{{ template "etcdshapes.etcd.objects" . }}{{ else }}{{ template "etcdshapes.cluster.objects" . }}{{ end -}}
{{- template "etcdshapes.objects" . -}}
{{- end -}}

{{- /* etcdshapes.run: dict c files; runs files of this library chart, one
after the other, as one template (tpl) with . being c, and returns its
output: the checks (files/checks.tpl, files/validate.tpl), which only input
the config's quick tests do not vouch for runs. One join: a print per file
would copy the text at every file. The files are reached through the chart's dependency, which must
be named [[ .LibraryName ]]: Helm hands a library chart's files to the charts
that depend on it, not to its defines. */ -}}
{{- define "etcdshapes.run" -}}
{{- $lib := index (.c.root.Subcharts | default dict) [[ q .LibraryName ]] -}}
{{- if not $lib -}}
{{- fail (print [[ q .NoLibraryMessage1 ]]
  [[ q .NoLibraryMessage2 ]]) -}}
{{- end -}}
{{- $text := list -}}
{{- range .files }}{{ $text = append $text ($lib.Files.Get .) }}{{ end -}}
{{- tpl (join "" $text) .c -}}
{{- end -}}

{{- /* etcdshapes.file: dict c name; the file of this library chart, as it
is (an object whose own data holds template delimiters). */ -}}
{{- define "etcdshapes.file" -}}
{{- (index .c.root.Subcharts [[ q .LibraryName ]]).Files.Get .name -}}
{{- end -}}
