{{- /*
etcdshapes: the etcd stacks of Cozystack's etcd chart and of a tenant
cluster's etcd, generated from the etcdshapes Go builders.

  {{ include "etcdshapes.stack" (dict "root" $ "caller" "etcd") }}      the etcd chart
  {{ include "etcdshapes.stack" (dict "root" $ "caller" "cluster") }}   a tenant cluster

render a whole stack from the chart's values; the values' types are
values.schema.json's (the application charts' schemas declare them). A bad
value fails the render with the library's message, "<field>: invalid
value <value>: <rule>".

etcdshapes.config fills the config dict it is given with every
value-dependent field of the caller's stack, once: the names (cluster,
dataStore, defragCronJob, cleanupJob), render (false for a cluster that
stays on a shared datastore), quota, resources and the rest, as strings.
Call it to read a derived value:

  {{- $etcd := dict "root" $ "caller" "cluster" }}
  {{- include "etcdshapes.config" $etcd }}
  dataStoreName: {{ $etcd.dataStore }}

The dict holds
  root   - the chart's root context ($): release, namespace, chart version,
           capabilities and lookup;
  caller - "etcd" or "cluster";
  values - optional; values in the caller's chart shape (default
           root.Values);
  checks - optional; true runs every check of etcdshapes.validate even
           for input the quick tests vouch for (the tests use it).
*/ -}}
{{- /* etcdshapes.stack: dict root caller; the caller's stack. It runs three
files of this library chart as one template (tpl): files/<caller>-config.tpl
fills the config dict (the value-dependent decisions), files/stack.tpl
holds the objects both callers render and files/<caller>-stack.tpl the
caller's own, as the YAML the builders render. The values that occur in
most objects are placeholders (__NAMESPACE__ is the config's namespace,
__CLUSTER__ its cluster), replaced below after the stack is rendered;
multi-line values (resources, spread constraints, affinity) are marker
lines at column 0, replaced last with the field's text indented to its
place, so user input in them is never searched for placeholders. Every
other value is an action in the stack.

The config and the stacks are files, not templates, so that Helm neither
copies nor parses them at every render: a chart runs its caller's files
only, and the checks (files/checks.tpl) only for input the config's quick
tests do not vouch for. */ -}}
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
output. The files are reached through the chart's dependency, which must
be named [[ .LibraryName ]]: Helm hands a library chart's files to the charts
that depend on it, not to its defines. */ -}}
{{- define "etcdshapes.run" -}}
{{- $lib := index (.c.root.Subcharts | default dict) [[ q .LibraryName ]] -}}
{{- if not $lib -}}
{{- fail [[ q .NoLibraryMessage ]] -}}
{{- end -}}
{{- $text := "" -}}
{{- range .files }}{{ $text = print $text ($lib.Files.Get .) }}{{ end -}}
{{- tpl $text .c -}}
{{- end -}}

{{- /* etcdshapes.file: dict c name; the file of this library chart, as it
is (an object whose own data holds template delimiters). */ -}}
{{- define "etcdshapes.file" -}}
{{- (index .c.root.Subcharts [[ q .LibraryName ]]).Files.Get .name -}}
{{- end -}}
