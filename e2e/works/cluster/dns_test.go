package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/miekg/dns"
)

// The DNS pod: answers as CoreDNS's kubernetes plugin does for the names the
// stacks' consumers dial, from the records file the test keeps:
//   - <svc>.<ns>.svc.cluster.local: a headless Service's ready (or, with
//     publishNotReadyAddresses, every) pod address; a ClusterIP Service's
//     virtual address;
//   - <pod>.<svc>.<ns>.svc.cluster.local: a pod with hostname and subdomain;
//   - the PTR of a pod address behind a headless Service:
//     <pod>.<svc>.<ns>.svc.cluster.local (etcd's peer check reads it, see
//     client/pkg/transport/listener_tls.go, isHostInDNS);
//   - NXDOMAIN for any other name (so the search list is walked as with
//     CoreDNS), NODATA for AAAA of a known name (no IPv6 here).
// It answers UDP and TCP on port 53.

func roleDNS(args []string) int {
	if len(args) != 1 {
		fmt.Fprintln(os.Stderr, "dns: want the records file")
		return 2
	}
	z := &zone{file: args[0]}
	h := dns.HandlerFunc(z.serve)
	var wg sync.WaitGroup
	errc := make(chan error, 2)
	for _, netw := range []string{"udp", "tcp"} {
		srv := &dns.Server{Addr: ":53", Net: netw, Handler: h, ReadTimeout: 5 * time.Second, WriteTimeout: 5 * time.Second}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errc <- srv.ListenAndServe()
		}()
	}
	err := <-errc
	fmt.Fprintln(os.Stderr, "dns:", err)
	return 1
}

type zone struct {
	file  string
	mu    sync.Mutex
	mtime time.Time
	size  int64
	rec   dnsRecords
}

// load rereads the records file when it changed.
func (z *zone) load() dnsRecords {
	z.mu.Lock()
	defer z.mu.Unlock()
	fi, err := os.Stat(z.file)
	if err == nil && (!fi.ModTime().Equal(z.mtime) || fi.Size() != z.size) {
		if b, err := os.ReadFile(z.file); err == nil {
			var r dnsRecords
			if json.Unmarshal(b, &r) == nil {
				z.rec, z.mtime, z.size = r, fi.ModTime(), fi.Size()
			}
		}
	}
	return z.rec
}

func (z *zone) serve(w dns.ResponseWriter, req *dns.Msg) {
	rec := z.load()
	m := new(dns.Msg)
	m.SetReply(req)
	m.Authoritative = true
	if len(req.Question) != 1 {
		m.Rcode = dns.RcodeFormatError
		_ = w.WriteMsg(m)
		return
	}
	q := req.Question[0]
	name := strings.ToLower(q.Name)
	switch q.Qtype {
	case dns.TypeA, dns.TypeAAAA:
		ips, ok := rec.A[name]
		if !ok {
			m.Rcode = dns.RcodeNameError
			break
		}
		if q.Qtype == dns.TypeA {
			for _, ip := range ips {
				m.Answer = append(m.Answer, &dns.A{
					Hdr: dns.RR_Header{Name: q.Name, Rrtype: dns.TypeA, Class: dns.ClassINET, Ttl: 5},
					A:   net.ParseIP(ip).To4(),
				})
			}
		}
	case dns.TypePTR:
		ip := ptrToIP(name)
		target, ok := rec.PTR[ip]
		if !ok {
			m.Rcode = dns.RcodeNameError
			break
		}
		m.Answer = append(m.Answer, &dns.PTR{
			Hdr: dns.RR_Header{Name: q.Name, Rrtype: dns.TypePTR, Class: dns.ClassINET, Ttl: 5},
			Ptr: target,
		})
	default:
		if _, ok := rec.A[name]; !ok {
			m.Rcode = dns.RcodeNameError
		}
	}
	_ = w.WriteMsg(m)
}

// ptrToIP turns "4.3.2.1.in-addr.arpa." into "1.2.3.4" ("" if it is not one).
func ptrToIP(name string) string {
	s, ok := strings.CutSuffix(name, ".in-addr.arpa.")
	if !ok {
		return ""
	}
	p := strings.Split(s, ".")
	if len(p) != 4 {
		return ""
	}
	return p[3] + "." + p[2] + "." + p[1] + "." + p[0]
}

// The ClusterIP of a Service: kube-proxy forwards a connection to the
// Service's address to one of its ready endpoints. This stand-in is a TCP
// proxy on the virtual address in a namespace of its own; it rereads the
// endpoints file for each connection and tries them in turn from a rotating
// start. TLS passes through untouched, as with kube-proxy.
func roleProxy(args []string) int {
	if len(args) != 2 {
		fmt.Fprintln(os.Stderr, "proxy: want LISTEN-ADDR ENDPOINTS-FILE")
		return 2
	}
	ln, err := net.Listen("tcp", args[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, "proxy:", err)
		return 1
	}
	var turn int
	for {
		c, err := ln.Accept()
		if err != nil {
			fmt.Fprintln(os.Stderr, "proxy:", err)
			return 1
		}
		turn++
		go proxyConn(c, args[1], turn)
	}
}

func proxyConn(c net.Conn, file string, turn int) {
	defer c.Close()
	b, err := os.ReadFile(file)
	if err != nil {
		return
	}
	eps := strings.Fields(string(b))
	for i := range eps {
		ep := eps[(turn+i)%len(eps)]
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		var d net.Dialer
		u, err := d.DialContext(ctx, "tcp", ep)
		cancel()
		if err != nil {
			continue
		}
		defer u.Close()
		done := make(chan struct{}, 2)
		go func() { _, _ = io.Copy(u, c); done <- struct{}{} }()
		go func() { _, _ = io.Copy(c, u); done <- struct{}{} }()
		<-done
		return
	}
}
