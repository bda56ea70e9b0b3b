# Developer and CI targets of etcdshapes.
#
# test-all: go vet ./... and go test ./... in every module of the
# repository (MODULES; internal/layout's test fails when a module with
# tests is missing from it), each from its own directory, the way .ci/run
# runs them one by one: the root module, then the modules that test it
# from the outside (Helm round trip, real consumers, the API server suite,
# the example operator, benchmarks, the schema generator). Set HELM,
# ETCDSHAPES_UPSTREAM and ETCDSHAPES_REFERENCE for the round trip's full
# run; the suites that need binaries (-tags apiserver, root for network
# namespaces) skip or stay out, as their own targets below say. It runs
# every module and lists the ones that failed. TESTFLAGS go to each go
# test: the round trip runs past go test's default 10 minutes on a loaded
# machine. There is no go.work:
# docs/testing.md says why.
#
# test-slow: go test ./... with the slow tier added (-tags slow,
# internal/testsupport/testtier): every quick test and the measurements that need large
# inputs. CI runs it; docs/testing.md lists the tiers and what they cost.
#
# test-apiserver: every object the library renders must be accepted by a real
# kube-apiserver (see e2e/doc.go). It builds kube-apiserver and etcd from the
# Go module proxy into ./bin (pinned by hack/kube-apiserver/go.mod; reused
# while present and newer than the pins), then runs the e2e suite against
# them with the CRDs from the directories $(ETCDSHAPES_CRDS) lists
# (separated by ":", like PATH).
#
# test-example-operator: the example operator (examples/operator, its own
# module) reconciles tenant etcd stacks against the same kube-apiserver and
# etcd binaries (see examples/operator/README.md).

KUBE_VERSION := v1.37.2
BIN := $(CURDIR)/bin
ETCDSHAPES_CRDS ?= $(CURDIR)/../shared/crds:$(CURDIR)/../shared/crds-planned
export ETCDSHAPES_CRDS

KUBE_LDFLAGS := -X k8s.io/component-base/version.gitVersion=$(KUBE_VERSION) \
	-X k8s.io/component-base/version.gitMajor=1 \
	-X k8s.io/component-base/version.gitMinor=37
PINS := hack/kube-apiserver/go.mod hack/kube-apiserver/go.sum

TESTFLAGS ?= -timeout 40m
MODULES := . bench e2e e2e/works e2e/works/cluster examples/operator internal/schemagen roundtrip

.PHONY: test-all test-slow test-apiserver apiserver-bin test-example-operator test-works-cluster works-cluster-bin
test-all:
	@failed=; for m in $(MODULES); do \
	  echo "== $$m: go vet ./... && go test ./..."; \
	  (cd $$m && go vet ./... && go test $(TESTFLAGS) ./...) || failed="$$failed $$m"; \
	done; \
	if [ -n "$$failed" ]; then echo "test-all: failed in:$$failed"; exit 1; fi; \
	echo "test-all: every module passed"

test-slow:
	go test -tags slow ./...

test-apiserver: apiserver-bin
	cd e2e && go test -c -tags apiserver -o $(BIN)/apiserver.test .
	KUBEBUILDER_ASSETS=$(BIN) $(BIN)/apiserver.test -test.v -test.timeout=20m

test-example-operator: apiserver-bin
	cd examples/operator && go vet ./... && go vet -tags apiserver ./...
	cd examples/operator && KUBEBUILDER_ASSETS=$(BIN) go test -tags apiserver -count=1 -v -timeout=10m .

apiserver-bin: $(BIN)/kube-apiserver $(BIN)/etcd

# Built to a temporary name first, so an interrupted build leaves no binary
# that looks reusable.
$(BIN)/kube-apiserver: $(PINS)
	mkdir -p $(BIN)
	cd hack/kube-apiserver && go build -trimpath -ldflags '$(KUBE_LDFLAGS)' -o $@.tmp k8s.io/kubernetes/cmd/kube-apiserver
	mv $@.tmp $@

$(BIN)/etcd: $(PINS)
	mkdir -p $(BIN)
	cd hack/kube-apiserver && go build -trimpath -o $@.tmp go.etcd.io/etcd/server/v3
	mv $@.tmp $@

# test-works-cluster: the stacks run by their real consumers (e2e/works/cluster,
# its own module): three etcd members of the version the stacks render, in
# network namespaces, with etcd-operator's command line, Kamaji's datastore
# steps, the defrag CronJob, the check Job and the snapshot agent. Needs root
# (network namespaces); the test skips, saying so, without it. etcd and
# etcdctl are built once from the module proxy at the version
# e2e/works/cluster/etcdbin/go.mod pins, into ./bin keyed by version.
WORKS_DIR := e2e/works/cluster
WORKS_ETCD_VERSION := $(shell sed -n 's|^[[:space:]]*go.etcd.io/etcd/server/v3 v\([0-9.]*\).*|\1|p' $(WORKS_DIR)/etcdbin/go.mod)
WORKS_ETCD := $(BIN)/etcd-v$(WORKS_ETCD_VERSION)
WORKS_ETCDCTL := $(BIN)/etcdctl-v$(WORKS_ETCD_VERSION)
WORKS_PINS := $(WORKS_DIR)/etcdbin/go.mod $(WORKS_DIR)/etcdbin/go.sum

test-works-cluster: works-cluster-bin
	cd $(WORKS_DIR) && go vet ./... && go test -c -o $(BIN)/works-cluster.test .
	$(BIN)/works-cluster.test -test.v -test.timeout=25m -etcd=$(WORKS_ETCD) -etcdctl=$(WORKS_ETCDCTL) -cache=$(BIN)/works-keys

works-cluster-bin: $(WORKS_ETCD) $(WORKS_ETCDCTL)

$(WORKS_ETCD): $(WORKS_PINS)
	mkdir -p $(BIN)
	cd $(WORKS_DIR)/etcdbin && go build -trimpath -o $@.tmp go.etcd.io/etcd/server/v3
	mv $@.tmp $@

$(WORKS_ETCDCTL): $(WORKS_PINS)
	mkdir -p $(BIN)
	cd $(WORKS_DIR)/etcdbin && go build -trimpath -o $@.tmp go.etcd.io/etcd/etcdctl/v3
	mv $@.tmp $@
