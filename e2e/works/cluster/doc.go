// Package cluster runs the stacks etcdshapes renders by their real
// consumers, on a machine without Kubernetes: network namespaces stand in
// for pods, a small DNS server answers as CoreDNS does for the cluster's
// Services, and etcd itself (the version the stacks render, built from the
// Go module proxy) runs three members with the command line etcd-operator
// gives a member Pod. See README.md for what each test proves and what it
// needs (root, iproute2); the tests skip, saying why, where they cannot run.
package cluster
