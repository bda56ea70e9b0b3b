// Package works runs the rendered stacks by their real consumers' code, in
// process, on every CI run (go test ./... in this module; see README.md):
//
//   - PKI: every golden scenario's Issuers and Certificates are issued
//     through cert-manager v1.21.2's own code path (pkg/util/pki: the
//     private key, the CSR, the certificate template from the
//     CertificateRequest, selfSigned and CA signing as its issuer
//     controllers call them), wired only by the rendered references; each
//     leaf is then verified as its consumers dial it (etcd-operator, the
//     member peers through etcd's own peer listener and a DNS stand-in,
//     Kamaji, the defrag and check Jobs, the snapshot agent), and a table
//     of mutated renders shows each check can fail.
//   - Alerts: the etcd chart's PrometheusRule under promtool v0.316.0's
//     rule unit tests (promtool test rules, its runner copied into
//     internal/third_party/promtool and run in process), with series
//     labelled as the rendered VMPodScrape and PodMonitor would scrape
//     etcd-operator's member pods; and every rule expression and dashboard
//     query parsed by Prometheus's own parser.
//
// The package has no non-test code: it is a module of its own so that the
// library's go.mod never carries cert-manager's PKI internals, etcd's
// transport or Prometheus.
package works
