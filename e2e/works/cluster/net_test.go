package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The network: one network namespace per pod, each with an eth0 that is one
// end of a veth pair whose other end is a port of a bridge living in a
// namespace of its own. Nothing is created in the machine's own namespace,
// no route leaves the bridge, and every address is in a namespace this run
// made (so no traffic can reach another host). Pods resolve names through a
// DNS pod (see dns_test.go) with the resolv.conf kubelet writes for a pod
// with dnsPolicy ClusterFirst; "ip netns exec" bind-mounts
// /etc/netns/<netns>/resolv.conf over /etc/resolv.conf for the command.

// clusterDomain is Kubernetes' default; Cozystack's "cozy.local" would change
// no name the stacks use (they all stop at ".svc").
const clusterDomain = "cluster.local"

// netnsPrefix starts every namespace this suite makes; the PID after it lets
// a later run remove what a killed run left (sweepStale).
const netnsPrefix = "esw"

// registry is everything that must go at exit, whatever way the process
// ends: netns names, /etc/netns directories, processes, temporary
// directories. cleanupAll runs from t.Cleanup, from TestMain after the
// tests, and from the signal handler; it is idempotent.
var registry struct {
	sync.Mutex
	netns    []string
	etcDirs  []string
	procs    []*proc
	tmpDirs  []string
	madeEtcN bool
}

func register(f func()) {
	registry.Lock()
	defer registry.Unlock()
	f()
}

// cleanupAll removes everything the run registered, in reverse order of
// need: processes first (they hold the namespaces), then namespaces, then
// files. Errors are reported, never fatal: cleanup must go on.
func cleanupAll() []error {
	registry.Lock()
	defer registry.Unlock()
	var errs []error
	for _, p := range registry.procs {
		p.kill()
	}
	registry.procs = nil
	for i := len(registry.netns) - 1; i >= 0; i-- {
		if err := ipCmd(context.Background(), "netns", "del", registry.netns[i]); err != nil && !strings.Contains(err.Error(), "No such file") {
			errs = append(errs, err)
		}
	}
	registry.netns = nil
	for _, d := range registry.etcDirs {
		if err := os.RemoveAll(d); err != nil {
			errs = append(errs, err)
		}
	}
	registry.etcDirs = nil
	if registry.madeEtcN {
		_ = os.Remove("/etc/netns") // only when empty: another user's entries stay
		registry.madeEtcN = false
	}
	for _, d := range registry.tmpDirs {
		if err := os.RemoveAll(d); err != nil {
			errs = append(errs, err)
		}
	}
	registry.tmpDirs = nil
	return errs
}

// leftovers lists what this process made that still exists: the check
// TestMain runs after cleanup, so a leak fails the run.
func leftovers() []string {
	var out []string
	own := fmt.Sprintf("%s%d-", netnsPrefix, os.Getpid())
	for _, dir := range []string{"/run/netns", "/etc/netns"} {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), own) {
				out = append(out, filepath.Join(dir, e.Name()))
			}
		}
	}
	// Processes whose parent is this one (every pod process is started by
	// this process; "ip netns exec" execs the command in place).
	procs, _ := os.ReadDir("/proc")
	me := strconv.Itoa(os.Getpid())
	for _, e := range procs {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so cut after ')'.
		s := string(stat)
		if i := strings.LastIndexByte(s, ')'); i > 0 {
			f := strings.Fields(s[i+1:])
			if len(f) > 1 && f[1] == me && f[0] != "Z" {
				cmd, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
				out = append(out, "process "+e.Name()+": "+strings.ReplaceAll(string(cmd), "\x00", " "))
			}
		}
	}
	return out
}

// sweepStale removes namespaces and /etc/netns entries a previous run of
// this suite left when it was killed (SIGKILL leaves no chance to clean):
// only names with this suite's prefix whose PID is no longer alive.
func sweepStale() {
	for _, dir := range []string{"/run/netns", "/etc/netns"} {
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			name := e.Name()
			if !strings.HasPrefix(name, netnsPrefix) {
				continue
			}
			pidPart, _, ok := strings.Cut(strings.TrimPrefix(name, netnsPrefix), "-")
			pid, err := strconv.Atoi(pidPart)
			if !ok || err != nil || pid == os.Getpid() {
				continue
			}
			if syscall.Kill(pid, 0) == nil || errors.Is(syscall.Kill(pid, 0), syscall.EPERM) {
				continue // alive: another run's
			}
			if dir == "/run/netns" {
				_ = ipCmd(context.Background(), "netns", "del", name)
			} else {
				_ = os.RemoveAll(filepath.Join(dir, name))
			}
		}
	}
}

// ipCmd runs iproute2 with a deadline; its error carries the output.
func ipCmd(ctx context.Context, args ...string) error {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "ip", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("ip %s: %v: %s", strings.Join(args, " "), err, bytes.TrimSpace(out))
	}
	return nil
}

// netnsAvailable says why this machine cannot run the suite, or "".
func netnsAvailable() string {
	if os.Geteuid() != 0 {
		return "needs root (it creates network namespaces, veth pairs and a bridge)"
	}
	if _, err := exec.LookPath("ip"); err != nil {
		return "needs iproute2's ip command (ip netns)"
	}
	name := fmt.Sprintf("%s%d-probe", netnsPrefix, os.Getpid())
	if err := ipCmd(context.Background(), "netns", "add", name); err != nil {
		return "ip netns is unavailable here: " + err.Error()
	}
	_ = ipCmd(context.Background(), "netns", "del", name)
	return ""
}

// network is one isolated pod network: a bridge namespace, the pods on it
// and the DNS records the DNS pod serves.
type network struct {
	id      string // netns name prefix of this network, e.g. esw1234-a
	dir     string // temporary directory: records, pod volumes, logs
	subnet  string // "10.77.0."
	next    int    // last host number handed out
	bridge  string // bridge netns name
	dnsIP   string
	mu      sync.Mutex
	records dnsRecords
	recFile string
}

// dnsRecords is what the DNS pod answers: A records by FQDN (with the
// trailing dot) and PTR records by address.
type dnsRecords struct {
	A   map[string][]string `json:"a"`
	PTR map[string]string   `json:"ptr"`
}

func newNetwork(ctx context.Context, id, dir string) (*network, error) {
	n := &network{
		id:      fmt.Sprintf("%s%d-%s", netnsPrefix, os.Getpid(), id),
		dir:     dir,
		subnet:  "10.77.0.",
		next:    1,
		records: dnsRecords{A: map[string][]string{}, PTR: map[string]string{}},
		recFile: filepath.Join(dir, "dns-records.json"),
	}
	n.bridge = n.id + "-br"
	if err := n.addNetns(ctx, n.bridge); err != nil {
		return nil, err
	}
	if err := ipCmd(ctx, "-n", n.bridge, "link", "add", "br0", "type", "bridge"); err != nil {
		return nil, err
	}
	if err := ipCmd(ctx, "-n", n.bridge, "link", "set", "br0", "up"); err != nil {
		return nil, err
	}
	if err := n.writeRecords(); err != nil {
		return nil, err
	}
	return n, nil
}

func (n *network) addNetns(ctx context.Context, name string) error {
	if err := ipCmd(ctx, "netns", "add", name); err != nil {
		return err
	}
	register(func() { registry.netns = append(registry.netns, name) })
	return ipCmd(ctx, "-n", name, "link", "set", "lo", "up")
}

// pod is a network namespace with an address on the bridge, a resolv.conf
// and a directory for its volumes.
type pod struct {
	name  string // the Kubernetes pod name it stands for
	netns string
	ip    string
	dir   string
}

// addPod makes a pod in namespace ns (the Kubernetes namespace, for its
// resolv.conf search list).
func (n *network) addPod(ctx context.Context, name, ns string) (*pod, error) {
	n.mu.Lock()
	n.next++
	host := n.next
	n.mu.Unlock()
	p := &pod{
		name:  name,
		netns: fmt.Sprintf("%s-%d", n.id, host),
		ip:    n.subnet + strconv.Itoa(host),
		dir:   filepath.Join(n.dir, "pods", name),
	}
	if err := os.MkdirAll(p.dir, 0o755); err != nil {
		return nil, err
	}
	if err := n.addNetns(ctx, p.netns); err != nil {
		return nil, err
	}
	port := "p" + strconv.Itoa(host)
	steps := [][]string{
		{"link", "add", "name", "eth0", "netns", p.netns, "type", "veth", "peer", "name", port, "netns", n.bridge},
		{"-n", p.netns, "addr", "add", p.ip + "/24", "dev", "eth0"},
		{"-n", p.netns, "link", "set", "eth0", "up"},
		{"-n", n.bridge, "link", "set", port, "master", "br0"},
		{"-n", n.bridge, "link", "set", port, "up"},
	}
	for _, s := range steps {
		if err := ipCmd(ctx, s...); err != nil {
			return nil, err
		}
	}
	if err := n.writeResolvConf(p.netns, ns); err != nil {
		return nil, err
	}
	return p, nil
}

// writeResolvConf writes what kubelet writes for a ClusterFirst pod in
// namespace ns.
func (n *network) writeResolvConf(netns, ns string) error {
	dir := filepath.Join("/etc/netns", netns)
	if _, err := os.Stat("/etc/netns"); errors.Is(err, os.ErrNotExist) {
		if err := os.Mkdir("/etc/netns", 0o755); err != nil && !errors.Is(err, os.ErrExist) {
			return err
		}
		register(func() { registry.madeEtcN = true })
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return err
	}
	register(func() { registry.etcDirs = append(registry.etcDirs, dir) })
	dns := n.dnsIP
	if dns == "" {
		dns = n.subnet + "2" // the DNS pod is always the first pod
	}
	conf := fmt.Sprintf("search %[1]s.svc.%[2]s svc.%[2]s %[2]s\nnameserver %[3]s\noptions ndots:5\n", ns, clusterDomain, dns)
	return os.WriteFile(filepath.Join(dir, "resolv.conf"), []byte(conf), 0o644)
}

// setA sets the A records of name (an FQDN without the trailing dot).
func (n *network) setA(name string, ips ...string) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	ips = append([]string(nil), ips...)
	sort.Strings(ips)
	if len(ips) == 0 {
		delete(n.records.A, name+".")
	} else {
		n.records.A[name+"."] = ips
	}
	return n.writeRecordsLocked()
}

// setPTR sets the PTR record of ip to name (an FQDN without the dot).
func (n *network) setPTR(ip, name string) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if name == "" {
		delete(n.records.PTR, ip)
	} else {
		n.records.PTR[ip] = name + "."
	}
	return n.writeRecordsLocked()
}

func (n *network) writeRecords() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.writeRecordsLocked()
}

// writeRecordsLocked replaces the records file atomically: the DNS pod
// reads it on every query.
func (n *network) writeRecordsLocked() error {
	b, err := json.MarshalIndent(n.records, "", "  ")
	if err != nil {
		return err
	}
	tmp := n.recFile + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, n.recFile)
}

// proc is a process running in a pod.
type proc struct {
	name string
	cmd  *exec.Cmd
	log  string
	done chan struct{}
	err  error
	once sync.Once
}

// start runs argv in pod p with env (added to a minimal environment), its
// output to a log file. The process is killed when the test process dies
// (Pdeathsig) and at cleanup.
func start(p *pod, name string, env []string, argv ...string) (*proc, error) {
	logPath := filepath.Join(p.dir, name+".log")
	f, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("ip", append([]string{"netns", "exec", p.netns}, argv...)...)
	cmd.Env = append([]string{"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "HOME=" + p.dir}, env...)
	cmd.Stdout, cmd.Stderr = f, f
	cmd.Dir = p.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		f.Close()
		return nil, err
	}
	pr := &proc{name: name, cmd: cmd, log: logPath, done: make(chan struct{})}
	register(func() { registry.procs = append(registry.procs, pr) })
	go func() {
		pr.err = cmd.Wait()
		f.Close()
		close(pr.done)
	}()
	return pr, nil
}

// kill ends the process and waits for it (bounded).
func (pr *proc) kill() {
	pr.once.Do(func() {
		_ = pr.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-pr.done:
		case <-time.After(5 * time.Second):
			_ = pr.cmd.Process.Kill()
			select {
			case <-pr.done:
			case <-time.After(5 * time.Second):
			}
		}
	})
}

func (pr *proc) exited() bool {
	select {
	case <-pr.done:
		return true
	default:
		return false
	}
}

// tail is the end of the process's log, for failure messages.
func (pr *proc) tail(n int) string {
	b, _ := os.ReadFile(pr.log)
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// result is a finished run of a command in a pod.
type result struct {
	err    error
	output string
	took   time.Duration
}

func (r result) ok() bool { return r.err == nil }

// run runs argv in pod p to completion within timeout.
func run(ctx context.Context, p *pod, timeout time.Duration, env []string, argv ...string) result {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	startAt := time.Now()
	cmd := exec.CommandContext(ctx, "ip", append([]string{"netns", "exec", p.netns}, argv...)...)
	cmd.Env = append([]string{"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "HOME=" + p.dir}, env...)
	cmd.Dir = p.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil && err != nil {
		err = fmt.Errorf("%w (timed out after %s)", err, timeout)
	}
	return result{err: err, output: string(out), took: time.Since(startAt)}
}
