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
{{- /* etcdshapes.stack: dict root caller; the caller's stack. It runs, as
one template (tpl), files/<caller>-config.tpl (the config),
files/<caller>-stack.tpl (the caller's own objects) and files/stack.tpl
(the objects both callers render), written as the YAML the builders render. Values in many
objects are placeholders (__NAMESPACE__) replaced once over the stack;
lines of one caller or one optional field carry a tag (#C#) the fill drops
or strips; multi-line values are marker lines replaced last, so user input
is never searched for placeholders. Files, not templates: Helm parses only
the files a render runs. */ -}}
{{- define "etcdshapes.stack" -}}
{{- if not (has .caller (list [[ q .CallerEtcd ]] [[ q .CallerCluster ]])) -}}
{{- fail (printf "caller: invalid value %q: must be %q or %q" (toString .caller) [[ q .CallerEtcd ]] [[ q .CallerCluster ]]) -}}
{{- end -}}
[[ .Fill ]]
{{- end -}}

{{- define "etcdshapes.config" -}}
{{- if not (has .caller (list [[ q .CallerEtcd ]] [[ q .CallerCluster ]])) -}}
{{- fail (printf "caller: invalid value %q: must be %q or %q" (toString .caller) [[ q .CallerEtcd ]] [[ q .CallerCluster ]]) -}}
{{- end -}}
{{- include "etcdshapes.run" (dict "c" . "files" (list (printf "files/%s-config.tpl" .caller))) -}}
{{- end -}}

{{- /* etcdshapes.run: dict c files; runs files of this library chart, one
after the other, as one template (tpl) with . being c, and returns its
output. One join: a print per file would copy the text at every file. The files are reached through the chart's dependency, which must
be named [[ .LibraryName ]]: Helm hands a library chart's files to the charts
that depend on it, not to its defines. */ -}}
{{- define "etcdshapes.run" -}}
{{- $lib := index (.c.root.Subcharts | default dict) [[ q .LibraryName ]] -}}
{{- if not $lib -}}
{{- fail [[ q .NoLibraryMessage ]] -}}
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
