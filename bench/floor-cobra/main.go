//go:build unix

// Command floor-cobra is bench/floor-signals plus a command line parsed as
// retry parses its own: a cobra command with as many flags of each kind as
// retry has (30 strings, 7 repeatable strings, 4 booleans, 4 with a
// one-letter form), flags stopping at the first word that is not one. It
// starts catching the signals on a goroutine of its own before it builds
// the command, and waits for that just before the fork, as retry does. It
// is the least a retry built on cobra that forwards signals can cost;
// bench/startup.sh measures it. It is a benchmark, not API.
//
// Usage:
//
//	floor-cobra [--flag-N VALUE...] [--] COMMAND [ARG...]
package main

import (
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/b0a38808/retry/bench/floorexec"
)

func main() {
	sigs := make(chan os.Signal, 16)
	caught := make(chan struct{})
	go func() {
		defer close(caught)
		signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGPIPE)
	}()
	status := 0
	root := &cobra.Command{
		Use:                   "floor-cobra [flags] [--] COMMAND [ARG...]",
		Short:                 "Run a command as bench/floor does, after parsing flags with cobra",
		Version:               "bench",
		Args:                  cobra.ArbitraryArgs,
		SilenceUsage:          true,
		SilenceErrors:         true,
		DisableFlagsInUseLine: true,
		RunE: func(_ *cobra.Command, args []string) error {
			<-caught
			status = floorexec.Run(args, func(p *os.Process) {
				go func() {
					for s := range sigs {
						_ = p.Signal(s)
					}
				}()
			})
			return nil
		},
	}
	root.SetArgs(os.Args[1:])
	fs := root.Flags()
	fs.SetInterspersed(false)
	fs.SortFlags = false
	strs := make([]string, 30)
	for i := range strs {
		name, short := "flag-"+strconv.Itoa(i), ""
		if i < 3 {
			short = string(rune('a' + i))
		}
		fs.StringVarP(&strs[i], name, short, "", "a string `VALUE`")
	}
	arrays := make([][]string, 7)
	for i := range arrays {
		fs.StringArrayVar(&arrays[i], "list-"+strconv.Itoa(i), nil, "a repeatable string `VALUE`")
	}
	bools := make([]bool, 4)
	for i := range bools {
		name, short := "bool-"+strconv.Itoa(i), ""
		if i == 0 {
			short = "q"
		}
		fs.BoolVarP(&bools[i], name, short, false, "a boolean")
	}
	if err := root.Execute(); err != nil {
		os.Stderr.WriteString("floor-cobra: " + err.Error() + "\n")
		os.Exit(125)
	}
	os.Exit(status)
}
