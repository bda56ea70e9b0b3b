package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/spf13/cobra"
)

// Exit statuses and how each command reports, the same for every command:
//
//   - -h, -help or --help (or "help" where a subcommand is expected, or
//     'etcdshapes help COMMAND') prints the command's own help on stdout
//     and exits 0;
//   - a usage error (unknown flag or subcommand, missing or malformed flag,
//     extra argument) prints the error on stderr with a hint to run --help
//     and exits 2; a command that needs a subcommand and has none prints
//     its help on stderr and exits 2;
//   - any other error (bad input, a file that cannot be read or written)
//     prints it on stderr and exits 1;
//   - plan exits 3 when the change is not safe to apply, render
//     --output-dir when it would remove objects holding state;
//   - a directory write (render --output-dir, gen chart) that SIGINT,
//     SIGTERM or SIGHUP stopped exits 128+N, as a shell reports it.
const (
	exitOK     = 0
	exitError  = 1
	exitUsage  = 2
	exitUnsafe = 3
)

// isHelp reports whether a, in place of a subcommand, asks for help.
func isHelp(a string) bool { return a == "-h" || a == "-help" || a == "--help" || a == "help" }

// usageError is a command-line mistake: exit 2 with a hint to run --help.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	for i, a := range args {
		if s, ok := a.(string); ok && len(s) > maxUsageArg {
			// A flag's value quoted whole would echo a 100 MB value.
			cut := maxUsageArg
			for cut > 0 && !utf8.RuneStart(s[cut]) {
				cut--
			}
			args[i] = s[:cut] + fmt.Sprintf("...(%d bytes)", len(s))
		}
	}
	return &usageError{fmt.Errorf(format, args...)}
}

// maxUsageArg bounds each string a usage error quotes.
const maxUsageArg = 256

// verbosityHint is err, pflag's refusal of an unknown flag, with a second
// line when the flag is -v: kubectl's verbosity, which etcdshapes does not
// have, and cobra's shorthand of --version, which etcdshapes does not take.
func verbosityHint(err error) error {
	if strings.HasPrefix(err.Error(), "unknown shorthand flag: 'v' in ") {
		return errors.Join(err, errVerbosity)
	}
	return err
}

// errVerbosity says why -v is no flag, wherever it is given.
var errVerbosity = errors.New("-v is not a flag of etcdshapes: there is no log verbosity (kubectl's -v) to set; the version is --version or 'etcdshapes version'")

// isVerbosityFlag reports whether a, in place of a subcommand, is -v as
// kubectl users write it: -v, -v=6, -v6, -vv.
func isVerbosityFlag(a string) bool {
	rest, ok := strings.CutPrefix(a, "-v")
	if !ok {
		return false
	}
	rest = strings.TrimPrefix(rest, "=")
	return strings.Trim(rest, "v") == "" || strings.Trim(rest, "0123456789") == ""
}

// runError is an error of a command's work (bad input, I/O): exit 1. Every
// error a command's RunE returns that is not a *usageError becomes one;
// errors cobra returns itself (unknown command or flag) are usage errors.
type runError struct{ err error }

func (e *runError) Error() string { return e.err.Error() }
func (e *runError) Unwrap() error { return e.err }

// exitStatus ends a command with code after it reported everything itself
// (plan's 3, gen's list of refused files).
type exitStatus struct{ code int }

func (e *exitStatus) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// errNoSubcommand: a command that needs a subcommand got none; its help
// goes to stderr with exit 2.
var errNoSubcommand = errors.New("a subcommand is required")

// runE wraps a command's work so that its errors are classified: usage
// errors stay usage errors, exit statuses stay, anything else exits 1. A
// flag given an empty value is refused first (emptyFlagError).
func runE(f func(cmd *cobra.Command, args []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		if err := emptyFlagError(cmd); err != nil {
			return err
		}
		err := f(cmd, args)
		var ue *usageError
		var es *exitStatus
		if err == nil || errors.As(err, &ue) || errors.As(err, &es) || errors.Is(err, errNoSubcommand) {
			return err
		}
		return &runError{err}
	}
}

// noArgs refuses positional arguments with the message the commands have
// always used.
func noArgs(_ *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usagef("unexpected argument %q", args[0])
	}
	return nil
}

// parentCommand makes cmd a command that only groups subcommands: it
// parses no flags, prints its help for -h, -help, --help and "help", its
// help on stderr (exit 2) without a subcommand, and a usage error naming
// what it wants for anything else.
func parentCommand(cmd *cobra.Command, unknown func(arg string) error) *cobra.Command {
	cmd.DisableFlagParsing = true
	cmd.Args = cobra.ArbitraryArgs
	cmd.RunE = runE(func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) == 0:
			return errNoSubcommand
		case isHelp(args[0]):
			return cmd.Help()
		case isVerbosityFlag(args[0]):
			return &usageError{errors.Join(fmt.Errorf("unknown shorthand flag: 'v' in %s", args[0]), errVerbosity)}
		}
		return unknown(args[0])
	})
	return cmd
}

// callersCommand makes cmd (plan, render snapshot, render check) a
// parentCommand of the two callers' subcommands, etcd and cluster, each
// made by newCaller; any other argument is refused as an unknown caller.
func callersCommand(e env, cmd *cobra.Command, newCaller func(e env, caller naming.Caller) *cobra.Command) *cobra.Command {
	cmd = parentCommand(cmd, func(arg string) error {
		return usagef("unknown caller %q (want etcd or cluster)", arg)
	})
	cmd.AddCommand(newCaller(e, naming.CallerEtcd), newCaller(e, naming.CallerCluster))
	return cmd
}

// callerHelp is the help of one caller's subcommand: cobra's Use, Short,
// Long and Example.
type callerHelp struct{ use, short, long, example string }

// callerCommand is caller's subcommand (etcd or cluster) with the help
// of that caller, etcd's or cluster's; it takes no positional argument
// until registerRelease gives it the release's.
func callerCommand(caller naming.Caller, etcd, cluster callerHelp) *cobra.Command {
	h := cluster
	if caller == naming.CallerEtcd {
		h = etcd
	}
	return &cobra.Command{Use: h.use, Short: h.short, Long: h.long, Example: h.example, Args: noArgs}
}

// report prints err as the exit status says and returns the status.
func report(cmd *cobra.Command, err error, stderr io.Writer) int {
	var (
		ue *usageError
		re *runError
		es *exitStatus
	)
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &es):
		return es.code
	case errors.Is(err, errNoSubcommand):
		cmd.SetOut(stderr)
		_ = cmd.Help()
		return exitUsage
	case errors.As(err, &re):
		// Every refusal of bad input (an invalid.List) on its own line,
		// each with the prefix, so that each reads like a single one.
		sayErr(stderr, re.err)
		return exitError
	case errors.As(err, &ue):
		sayErr(stderr, ue.err)
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
		return exitUsage
	default: // cobra's own: unknown command, flag or argument (quoted as given)
		sayErr(stderr, err)
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
		return exitUsage
	}
}
