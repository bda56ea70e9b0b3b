package cluster

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"testing"
)

// Every pod process other than etcd and etcdctl is this test binary run
// again with WORKS_ROLE set (the DNS server, the ClusterIP proxy, the
// operator's client, Kamaji, a tenant apiserver's etcd client, the defrag
// tool and the snapshot agent): "ip netns exec" runs it inside the pod's
// namespace, with the pod's resolv.conf, as the real consumer would run.
const roleEnv = "WORKS_ROLE"

var (
	etcdBin    = flag.String("etcd", "", "the etcd binary of the version the stacks render (make test-works-cluster builds it)")
	etcdctlBin = flag.String("etcdctl", "", "the etcdctl binary of the same version")
	cacheDir   = flag.String("cache", "", "directory for cached RSA keys (generated once; empty: a temporary directory)")
	keepLogs   = flag.Bool("keep-logs", false, "print every pod's log at the end of each run")
)

func TestMain(m *testing.M) {
	if role := os.Getenv(roleEnv); role != "" {
		os.Exit(runRole(role, os.Args[1:]))
	}
	flag.Parse()
	// An interrupt or termination still removes every namespace, process
	// and directory (a SIGKILL cannot be caught: sweepStale removes what
	// such a run left, at the next run).
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		s := <-sig
		fmt.Fprintf(os.Stderr, "works: %v: cleaning up\n", s)
		for _, err := range cleanupAll() {
			fmt.Fprintln(os.Stderr, "works: cleanup:", err)
		}
		os.Exit(2)
	}()
	if os.Geteuid() == 0 {
		sweepStale()
	}
	code := m.Run()
	for _, err := range cleanupAll() {
		fmt.Fprintln(os.Stderr, "works: cleanup:", err)
		code = 1
	}
	if left := leftovers(); len(left) > 0 {
		fmt.Fprintln(os.Stderr, "works: left behind after cleanup:")
		for _, l := range left {
			fmt.Fprintln(os.Stderr, "  ", l)
		}
		code = 1
	}
	os.Exit(code)
}
