#!/usr/bin/env bash
# helm-template.sh [CASES_DIR]
#
# The reference cases through a real `helm template` of the generated charts
# (charts/etcd, charts/cluster), compared with CASES_DIR/<case>.expected.yaml
# by ../shared/tools/kcanon as parity.sh compares the CLI's output. A case
# with live state cannot be rendered by `helm template` (lookup returns
# nothing offline) and is skipped; the in-process round trip covers it with
# a fake cluster.
#
# HELM names the helm binary; by default helm v3.22.0 is built with go.
# Run from the project root: roundtrip/helm-template.sh
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cases=${1:-$root/../shared/reference}
cases=$(cd "$cases" && pwd)
kcanon_dir=$(cd "$cases/../tools/kcanon" 2>/dev/null && pwd) || kcanon_dir=$root/../shared/tools/kcanon
ALL="cilium.io/v2/CiliumNetworkPolicy,autoscaling.k8s.io/v1/VerticalPodAutoscaler,operator.victoriametrics.com/v1beta1/VMPodScrape"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "${HELM:-}" ]; then
  GOBIN=$tmp/bin GOFLAGS= go install helm.sh/helm/v3/cmd/helm@v3.22.0 || { echo "cannot build helm" >&2; exit 2; }
  HELM=$tmp/bin/helm
fi
(cd "$kcanon_dir" && go build -o "$tmp/kcanon" .) || { echo "cannot build kcanon" >&2; exit 2; }
pass=0; fail=0; skip=0
while IFS=$'\t' read -r name set caller rel ns apis liveds livesc expect; do
  case "$name" in ''|'#'*) continue ;; esac
  if [ "$liveds" != - ] || [ "$livesc" != - ]; then
    skip=$((skip+1)); echo "SKIP $name (live state)"; continue
  fi
  args=(template "$rel" "$root/charts/$caller" --namespace "$ns" -f "$cases/$name.values.yaml")
  [ "$apis" = all ] && apis=$ALL
  if [ "$apis" != - ]; then IFS=, read -ra A <<<"$apis"; for a in "${A[@]}"; do args+=(--api-versions "$a"); done; fi
  "$HELM" "${args[@]}" > "$tmp/$name.yaml" 2> "$tmp/$name.err"; rc=$?
  if [ "$expect" = fail ]; then
    if [ $rc -ne 0 ] && [ -s "$tmp/$name.err" ]; then
      pass=$((pass+1)); echo "PASS $name (refused: $(head -c 160 "$tmp/$name.err" | tr '\n' ' '))"
    else
      fail=$((fail+1)); echo "FAIL $name: expected a refusal, got exit $rc"
    fi
    continue
  fi
  if [ $rc -ne 0 ]; then
    fail=$((fail+1)); echo "FAIL $name: exit $rc: $(head -c 300 "$tmp/$name.err")"; continue
  fi
  if "$tmp/kcanon" diff -ns "$ns" "$cases/$name.expected.yaml" "$tmp/$name.yaml" > "$tmp/$name.diff" 2>&1; then
    pass=$((pass+1)); echo "PASS $name"
  else
    fail=$((fail+1)); echo "FAIL $name"; sed 's/^/    /' "$tmp/$name.diff" | head -40
  fi
done < "$cases/cases.tsv"
echo "helm template: $pass passed, $fail failed, $skip skipped (live state)"
[ $fail -eq 0 ]
