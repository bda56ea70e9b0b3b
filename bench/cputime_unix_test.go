//go:build unix

package bench

import "syscall"

// processCPU is the CPU time (user + system) the process has used, in
// nanoseconds. On a shared machine it is steadier than wall time: other
// processes delay the benchmark but do not add to its CPU time.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
