//go:build unix

package plan_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the test process has used (user and system, all
// threads): unlike the wall clock, it does not grow while other processes
// hold the machine's cores.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return time.Duration(time.Now().UnixNano())
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
