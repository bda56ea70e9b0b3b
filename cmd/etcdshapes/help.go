package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// Help and usage errors, the same for every command:
//
//   - -h, -help or --help (or "help" where a subcommand is expected) prints
//     the command's own usage on stdout and exits 0;
//   - a usage error (unknown flag or subcommand, missing or malformed flag,
//     extra argument) prints the error on stderr, with the usage or a hint
//     to run --help, and exits 2;
//   - any other error prints it on stderr and exits 1.
//
// Commands with their own exit statuses (plan's 3) return them themselves.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

// isHelp reports whether a, in place of a subcommand, asks for help.
func isHelp(a string) bool { return a == "-h" || a == "-help" || a == "--help" || a == "help" }

// usageError is a command-line mistake: exit 2 with usage help on stderr.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }

// parseFlags parses args with fs, a flag.ContinueOnError set whose own
// output is discarded (the commands print their usage themselves). A -h,
// -help or --help among the flags returns flag.ErrHelp; any other flag
// mistake a *usageError.
func parseFlags(fs *flag.FlagSet, args []string) error {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		return flag.ErrHelp
	default:
		return &usageError{err}
	}
}

// command is one command line's name ("etcdshapes render etcd") and usage.
type command struct {
	name  string
	usage string
}

// help prints the usage on stdout: the answer to -h/--help.
func (c command) help(stdout, stderr io.Writer) int {
	if _, err := io.WriteString(stdout, c.usage); err != nil {
		fmt.Fprintf(stderr, "etcdshapes: %v\n", err)
		return exitError
	}
	return exitOK
}

// misuse prints a usage error and the whole usage on stderr.
func (c command) misuse(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "etcdshapes: %v\n\n%s", err, c.usage)
	return exitUsage
}

// exit reports err, a command's result, and returns the exit status: help
// (flag.ErrHelp) on stdout, 0; a *usageError on stderr with a hint to run
// --help, 2; any other error on stderr, 1.
func (c command) exit(err error, stdout, stderr io.Writer) int {
	var ue *usageError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		return c.help(stdout, stderr)
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "etcdshapes: %v\nRun '%s --help' for usage.\n", err, c.name)
		return exitUsage
	default:
		fmt.Fprintf(stderr, "etcdshapes: %v\n", err)
		return exitError
	}
}
