//go:build windows

// Command ctrlevent is a helper of the Windows tests: it runs a command
// on its own console and, a second after a file appears (time for what
// the command starts next to run), sends the console a Ctrl-C or a
// Ctrl-Break with GenerateConsoleCtrlEvent, as a user at the keyboard
// would. It exits with the command's exit status, or 3 when the event
// could not be sent. It is a test program, not API.
//
//	ctrlevent c|break FILE COMMAND [ARG...]
//
// FILE "-" sends the event at once.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"time"

	"golang.org/x/sys/windows"
)

func main() {
	if len(os.Args) < 4 || (os.Args[1] != "c" && os.Args[1] != "break") {
		fmt.Fprintln(os.Stderr, "usage: ctrlevent c|break FILE COMMAND [ARG...]")
		os.Exit(2)
	}
	event := uint32(windows.CTRL_C_EVENT)
	if os.Args[1] == "break" {
		event = windows.CTRL_BREAK_EVENT
	}
	// The event reaches ctrlevent too: caught, it does not end it.
	signal.Notify(make(chan os.Signal, 1), os.Interrupt)
	// The command shares the console and the process group, so that the
	// event reaches it under Wine too, which sends an event for group 0
	// to the sender's group only (Windows sends it to the whole console).
	cmd := exec.Command(os.Args[3], os.Args[4:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "ctrlevent:", err)
		os.Exit(2)
	}
	if err := waitFile(os.Args[2], 30*time.Second); err != nil {
		fmt.Fprintln(os.Stderr, "ctrlevent:", err)
		_ = cmd.Process.Kill()
		os.Exit(2)
	}
	if err := windows.GenerateConsoleCtrlEvent(event, 0); err != nil {
		fmt.Fprintf(os.Stderr, "ctrlevent: GenerateConsoleCtrlEvent(%s): %v\n", os.Args[1], err)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		os.Exit(3)
	}
	err := cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		os.Exit(exit.ExitCode())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "ctrlevent:", err)
		os.Exit(2)
	}
}

// waitFile waits until name exists, for at most limit, and a second
// more; "-" does not wait.
func waitFile(name string, limit time.Duration) error {
	if name == "-" {
		return nil
	}
	for start := time.Now(); time.Since(start) < limit; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(name); err == nil {
			time.Sleep(time.Second)
			return nil
		}
	}
	return fmt.Errorf("%s did not appear in %v", name, limit)
}
