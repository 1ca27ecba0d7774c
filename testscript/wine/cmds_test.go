//go:build linux

package wine_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/creack/pty"
	"github.com/rogpeppe/go-internal/testscript"
)

// winps NAME asserts that a Windows program NAME (ping for ping.exe) of
// this script runs, waiting up to 10 seconds for one to start. With !, it
// asserts that none runs, waiting up to 5 seconds for the last to end.
// It looks from the Linux side, in /proc: each Windows program is a Linux
// process whose command line is the program's, and which inherited the
// script's $WORK from the Linux process that started retry.exe.
func winps(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: [!] winps name")
	}
	limit := 10 * time.Second
	if neg {
		limit = 5 * time.Second
	}
	var found []string
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		found = windowsProcesses(ts.Getenv("WORK"), args[0])
		if (len(found) > 0) != neg || time.Since(start) > limit {
			break
		}
	}
	switch {
	case neg && len(found) > 0:
		ts.Fatalf("still running after %v: %s", limit, strings.Join(found, "; "))
	case !neg && len(found) == 0:
		ts.Fatalf("no %s runs after %v", args[0], limit)
	}
}

// windowsProcesses returns the command lines of the live processes whose
// environment holds WORK=work and whose program is name.
func windowsProcesses(work, name string) []string {
	var found []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid := e.Name()
		if pid[0] < '0' || pid[0] > '9' {
			continue
		}
		stat, err := os.ReadFile("/proc/" + pid + "/stat")
		i := bytes.LastIndexByte(stat, ')')
		if err != nil || i < 0 || i+2 >= len(stat) || stat[i+2] == 'Z' {
			continue // gone, or a zombie that nothing reaps
		}
		environ, err := os.ReadFile("/proc/" + pid + "/environ")
		if err != nil || !bytes.Contains(append([]byte{0}, environ...), []byte("\x00WORK="+work+"\x00")) {
			continue
		}
		cmdline, _ := os.ReadFile("/proc/" + pid + "/cmdline")
		words := strings.Fields(strings.ReplaceAll(string(cmdline), "\x00", " "))
		if len(words) == 0 {
			continue
		}
		prog := strings.ToLower(filepath.Base(strings.ReplaceAll(words[0], `\`, "/")))
		if strings.TrimSuffix(prog, ".exe") == strings.ToLower(name) {
			found = append(found, pid+": "+strings.Join(words, " "))
		}
	}
	return found
}

// console [-exit N] [-when FILE -ctrl-c | -when FILE -event c|break]
// retry [ARG...] runs retry.exe under Wine on a terminal of its own,
// which Wine makes its console, and asserts that it exits N (default 0).
// With -ctrl-c, Ctrl-C is typed at the terminal a second after FILE
// appears (time for what the command starts next to run); with -event,
// retry runs under ctrlevent, which sends the console the event then.
// What the terminal showed, without carriage returns and terminal
// controls, is the command's stdout.
func (p *prefix) console(ts *testscript.TestScript, neg bool, args []string) {
	fs := flag.NewFlagSet("console", flag.ContinueOnError)
	want := fs.Int("exit", 0, "the exit status")
	when := fs.String("when", "", "the file that triggers the Ctrl-C or the event")
	ctrlC := fs.Bool("ctrl-c", false, "type Ctrl-C")
	event := fs.String("event", "", "c or break: the event ctrlevent sends")
	if neg || fs.Parse(args) != nil || fs.NArg() < 1 || fs.Arg(0) != "retry" ||
		(*when != "") != (*ctrlC || *event != "") || (*ctrlC && *event != "") {
		ts.Fatalf("usage: console [-exit N] [-when FILE -ctrl-c | -when FILE -event c|break] retry [arg...]")
	}
	argv := append([]string{p.exe("retry")}, fs.Args()[1:]...)
	if *event != "" {
		argv = append([]string{p.exe("ctrlevent"), *event, *when, windowsPath(p.exe("retry"))}, fs.Args()[1:]...)
	}
	trigger := ""
	if *ctrlC {
		trigger = *when
	}
	out, code := p.onTerminal(ts, argv, trigger)
	ts.Stdout().Write(out)
	if code != *want {
		ts.Fatalf("exit status %d; want %d", code, *want)
	}
}

// terminalControls matches what a terminal is told besides text: the
// control sequences Wine's console writes, and carriage returns.
var terminalControls = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r`)

// onTerminal runs argv under Wine on a new terminal, in the script's
// directory and environment, for at most a minute, and returns what the
// terminal showed and the exit status. When ctrlC is not "", it types
// Ctrl-C a second after the file ctrlC appears.
func (p *prefix) onTerminal(ts *testscript.TestScript, argv []string, ctrlC string) ([]byte, int) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.wine, argv...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = scriptEnv(ts)
	// Wide, so that the console wraps no line.
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 50, Cols: 400})
	if err != nil {
		ts.Fatalf("console: %v", err)
	}
	defer tty.Close()
	var shown bytes.Buffer
	read := make(chan struct{})
	go func() {
		defer close(read)
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			shown.Write(buf[:n])
			if err != nil {
				return
			}
		}
	}()
	if ctrlC != "" {
		path := ts.MkAbs(ctrlC)
		for start := time.Now(); time.Since(start) < 30*time.Second; time.Sleep(10 * time.Millisecond) {
			if _, err := os.Stat(path); err == nil {
				time.Sleep(time.Second)
				break
			}
		}
		if _, err := tty.Write([]byte{0x03}); err != nil {
			ts.Fatalf("console: typing Ctrl-C: %v", err)
		}
	}
	err = cmd.Wait()
	// What retry left running would hold the terminal open: it is given
	// a moment to end, and then the terminal closes under it.
	select {
	case <-read:
	case <-time.After(2 * time.Second):
		tty.Close()
		<-read
	}
	code := 0
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		ts.Fatalf("console: %v", err)
	}
	if ctx.Err() != nil {
		ts.Fatalf("console: still running after a minute; the terminal showed:\n%s", shown.Bytes())
	}
	return terminalControls.ReplaceAll(shown.Bytes(), nil), code
}

// envKey is the key of the script's environment as Setup made it, in
// the script's Values.
type envKey struct{}

// scriptEnv returns the script's environment, for a command the script
// does not start through ts.Exec: the variables Setup made, with the
// values the script has given them since.
func scriptEnv(ts *testscript.TestScript) []string {
	vars, _ := ts.Value(envKey{}).([]string)
	env := make([]string, 0, len(vars))
	for _, kv := range vars {
		name, _, _ := strings.Cut(kv, "=")
		env = append(env, name+"="+ts.Getenv(name))
	}
	return env
}

// canBreak reports whether this Wine sends a Ctrl-Break with
// GenerateConsoleCtrlEvent: Wine 8 does not.
func (p *prefix) canBreak() bool {
	p.breakOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cmd := p.command(ctx, p.wine, p.exe("ctrlevent"), "break", "-", "cmd", "/c", "exit 0")
		tty, err := pty.Start(cmd)
		if err != nil {
			return
		}
		defer tty.Close()
		go func() { _, _ = io.Copy(io.Discard, tty) }()
		p.breaks = cmd.Wait() == nil
	})
	return p.breaks
}
